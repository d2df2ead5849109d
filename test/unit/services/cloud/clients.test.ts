import { describe, expect, it } from 'vitest';
import { type Client, parseBasic, redirectUriAllowed } from '../../../../services/cloud/clients';

const client: Client = {
  id: 'c',
  name: 'C',
  native: true,
  redirectUris: ['io.hubdesk.app:/oauth/callback', 'http://127.0.0.1/oauth/callback', 'http://[::1]/cb'],
  scopes: [],
};

describe('redirect URI matching', () => {
  it.each([
    ['io.hubdesk.app:/oauth/callback', true],
    ['http://127.0.0.1/oauth/callback', true],
    ['http://127.0.0.1:49152/oauth/callback', true],
    ['http://[::1]:8080/cb', true],
    ['io.hubdesk.app:/oauth/callback/', false],
    ['IO.HUBDESK.APP:/oauth/callback', false],
    ['http://127.0.0.1:49152/oauth/callback?x=1', false],
    ['http://127.0.0.1:49152/oauth/callback#f', false],
    ['http://127.0.0.1:49152/oauth/Callback', false],
    ['http://127.0.0.1:49152/oauth/./callback', false],
    ['http://127.1:49152/oauth/callback', false],
    ['http://localhost:49152/oauth/callback', false],
    ['https://127.0.0.1:49152/oauth/callback', false],
    ['http://user@127.0.0.1:49152/oauth/callback', false],
    ['not a uri', false],
  ])('%s → %s', (uri, allowed) => {
    expect(redirectUriAllowed(client, uri)).toBe(allowed);
  });
});

describe('HTTP Basic client credentials', () => {
  const b64 = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('form-decodes the id and the secret (RFC 6749 §2.3.1)', () => {
    expect(parseBasic(b64('my%20app:p%40ss%3Aw+rd'))).toEqual({ id: 'my app', secret: 'p@ss:w rd' });
    expect(parseBasic(b64('app:sec:ret'))).toEqual({ id: 'app', secret: 'sec:ret' });
    expect(parseBasic(`basic ${Buffer.from('a:b').toString('base64')}`)).toEqual({ id: 'a', secret: 'b' });
  });

  it.each([undefined, '', 'Basic', 'Basic !!!', 'Basic abc', b64('no-colon'), b64(':secret'), b64('a:%zz'), 'Bearer abc'])('rejects %s', (header) => {
    expect(parseBasic(header)).toBeUndefined();
  });
});
