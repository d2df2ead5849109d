import { describe, expect, it } from 'vitest';
import { hubCertificateName } from '../../../common/hub-identity';
import { namesHub } from '../../../main/trusted-fetch';

const names = (...entries: string[]) => ({ subjectaltname: entries.join(', ') });

describe('a certificate that names a hub', () => {
  it('names the hub only with the exact URI name, never by a prefix, a host name or another kind of name', () => {
    expect(namesHub(names('DNS:localhost', 'IP Address:127.0.0.1', `URI:${hubCertificateName('hub-1')}`), 'hub-1')).toBe(true);
    expect(namesHub(names(`URI:${hubCertificateName('hub-10')}`), 'hub-1')).toBe(false);
    expect(namesHub(names(`URI:${hubCertificateName('hub-1')}x`), 'hub-1')).toBe(false);
    expect(namesHub(names(`DNS:${hubCertificateName('hub-1')}`), 'hub-1')).toBe(false);
    expect(namesHub(names('DNS:hub-1'), 'hub-1')).toBe(false);
    expect(namesHub({ subjectaltname: undefined as unknown as string }, 'hub-1')).toBe(false);
  });

  it('cannot be fooled by an id that would read as a second name', () => {
    // The id is percent-encoded in the name, so ", URI:…" inside an id cannot forge a separate entry.
    const forged = 'x, URI:urn:hubdesk:hub:hub-1';
    expect(hubCertificateName(forged)).not.toContain(', ');
    expect(namesHub(names(`URI:${hubCertificateName(forged)}`), 'hub-1')).toBe(false);
  });
});
