import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APP_SCHEME, findDeepLinkInArgv, OAUTH_REDIRECT_URI, parseDeepLink } from '../../../../../main/core/sign-in/deep-link';

const callback = (query: string) => `${OAUTH_REDIRECT_URI}?${query}`;

describe('parseDeepLink', () => {
  it('turns an authorisation redirect into an oauth-callback action', () => {
    expect(parseDeepLink(callback('code=abc-123&state=s%2Bt%3D'))).toEqual({
      ok: true,
      action: { kind: 'oauth-callback', params: { code: 'abc-123', state: 's+t=' } },
    });
  });

  it('carries error redirects and drops iss, which the core does not use', () => {
    expect(parseDeepLink(callback('error=access_denied&error_description=The+user+said+no&state=s1&iss=https%3A%2F%2Fcloud.example'))).toEqual({
      ok: true,
      action: { kind: 'oauth-callback', params: { error: 'access_denied', error_description: 'The user said no', state: 's1' } },
    });
  });

  it('accepts the scheme in any case, as RFC 3986 requires', () => {
    expect(parseDeepLink(`IO.Hubdesk.App:/oauth/callback?code=c&state=s`).ok).toBe(true);
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { href: callback('code=c') }],
    ['too long', callback(`code=c&state=${'s'.repeat(4096)}`)],
    ['http', 'http://127.0.0.1/oauth/callback?code=c&state=s'],
    ['file', 'file:///oauth/callback?code=c'],
    ['javascript', 'javascript:alert(1)//?code=c'],
    ['a look-alike scheme', 'io.hubdesk.app.evil:/oauth/callback?code=c&state=s'],
    ['a scheme prefix', 'io.hubdesk:/oauth/callback?code=c&state=s'],
    ['an authority', 'io.hubdesk.app://evil.example/oauth/callback?code=c&state=s'],
    ['credentials', 'io.hubdesk.app://user:pass@host/oauth/callback?code=c'],
    ['another path', `${APP_SCHEME}:/settings?code=c&state=s`],
    ['a trailing slash', `${APP_SCHEME}:/oauth/callback/?code=c&state=s`],
    ['an encoded path', `${APP_SCHEME}:/oauth/%63allback?code=c&state=s`],
    ['a duplicated code', callback('code=a&code=b&state=s')],
    ['a duplicated state', callback('code=a&state=s&state=t')],
    ['an unknown parameter', callback('code=a&state=s&redirect=https%3A%2F%2Fevil')],
    ['a parameter without value', callback('code&state=s')],
    ['an empty value', callback('code=&state=s')],
    ['bad percent-encoding', callback('code=%E0%A4%A&state=s')],
    ['a control character', `${callback('code=a&state=s')}\n`],
    ['an encoded control character', callback('code=a%00b&state=s')],
    ['a fragment', `${callback('code=a&state=s')}#frag`],
    ['neither code nor error', callback('state=s')],
    ['both code and error', callback('code=a&error=access_denied&state=s')],
    ['no query', OAUTH_REDIRECT_URI],
  ])('refuses %s', (_name, raw) => {
    const result = parseDeepLink(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).not.toMatch(/code=|state=/);
  });

  it('never throws, and accepts only our scheme and callback path (property)', () => {
    const prefixed = fc.oneof(
      fc.string(),
      fc.string().map((s) => `${APP_SCHEME}:${s}`),
      fc.string().map((s) => `${OAUTH_REDIRECT_URI}${s}`),
      fc.webUrl(),
    );
    fc.assert(
      fc.property(prefixed, (raw) => {
        const result = parseDeepLink(raw);
        if (result.ok) {
          expect(raw.toLowerCase().startsWith(`${OAUTH_REDIRECT_URI}?`)).toBe(true);
          expect(result.action.kind).toBe('oauth-callback');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips any code and state (property)', () => {
    const isControl = (c: string) => {
      const point = c.codePointAt(0) ?? 0;
      return point < 0x20 || (point >= 0x7f && point <= 0x9f);
    };
    const value = fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }).filter((s) => ![...s].some(isControl));
    fc.assert(
      fc.property(value, value, (code, state) => {
        const raw = callback(new URLSearchParams({ code, state }).toString());
        expect(parseDeepLink(raw)).toEqual({ ok: true, action: { kind: 'oauth-callback', params: { code, state } } });
      }),
    );
  });
});

describe('findDeepLinkInArgv', () => {
  it('finds our link among the arguments Electron and Chromium add', () => {
    const link = callback('code=c&state=s');
    expect(findDeepLinkInArgv(['/opt/Hubdesk/hubdesk', '--no-sandbox', '--allow-file-access-from-files', link])).toBe(link);
  });

  it('ignores foreign links and look-alikes', () => {
    expect(findDeepLinkInArgv(['hubdesk', 'https://evil.example/?io.hubdesk.app:', 'io.hubdesk.app.evil:/oauth/callback'])).toBeUndefined();
    expect(findDeepLinkInArgv([])).toBeUndefined();
  });
});
