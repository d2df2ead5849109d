/**
 * The reference cloud over real sockets with raw fetch: the consent pages, the token endpoint's
 * rules (code lifetime and reuse, rotation, PKCE), the API with access tokens, and hostile input.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema, TokenObjectSchema, UserRecordSchema } from '../../../common/wire';
import { type RunningCloud, startCloud } from '../../../services/cloud/cloud';
import { consent } from '../../support/consent-driver';
import { authorise, authoriseUrl, basic, delegationToken, pkcePair, postToken, signIn, type TestClient } from './oauth-helpers';

const USER = { email: 'ada@example.test', password: 'correct horse battery' };
const NATIVE: TestClient = { id: 'native-app', secret: 'native-secret', redirectUri: 'io.example.app:/oauth/callback' };
// A secret with characters that must be form-encoded inside HTTP Basic (RFC 6749 §2.3.1).
const WEB: TestClient = { id: 'web app', secret: 'p@ss:w+rd/é', redirectUri: 'https://web.example.test/cb' };
const LOOPBACK = 'http://127.0.0.1/oauth/callback';

let cloud: RunningCloud;
let clock = Date.parse('2030-01-01T00:00:00Z');

beforeAll(async () => {
  cloud = await startCloud({
    clients: [
      {
        id: NATIVE.id,
        secret: NATIVE.secret,
        name: 'Native <App>',
        native: true,
        redirectUris: [NATIVE.redirectUri, LOOPBACK, 'http://[::1]/oauth/callback'],
        scopes: ['devices.readonly', 'flow.start'],
      },
      { id: WEB.id, secret: WEB.secret, name: 'Web App', native: false, redirectUris: [WEB.redirectUri], scopes: ['devices'] },
    ],
    users: [
      {
        _id: 'u1',
        ...USER,
        firstname: 'Ada',
        lastname: 'Lovelace',
        hubs: [
          { _id: 'h1', name: 'Home', platform: 'local', localUrl: 'http://192.168.1.2', localUrlSecure: null, remoteUrl: null },
          { _id: 'h2', name: 'Cabin', platform: 'cloud', localUrl: null, localUrlSecure: null, remoteUrl: 'https://cabin.example.test' },
        ],
      },
    ],
    now: () => clock,
    demoHint: { email: 'demo@example.test', password: 'demo-password' },
  });
});
afterAll(() => cloud?.close());

const userMe = (accessToken: string) => fetch(`${cloud.url}/user/me`, { headers: { authorization: `Bearer ${accessToken}` } });

async function codeFor(client: TestClient, challenge: string | null, state = 'state-1'): Promise<string> {
  const redirect = await authorise(cloud.url, client, USER, { challenge, state });
  expect(redirect.searchParams.get('state')).toBe(state);
  return redirect.searchParams.get('code')!;
}

/** The consent page's answer, reached by signing in (as `email`) on the authorisation page of `client` for `redirectUri`. */
async function consentAnswer(client: TestClient, redirectUri: string, email = USER.email): Promise<Response> {
  const query: Record<string, string> = { authorization_type: 'code', client_id: client.id, redirect_uri: redirectUri };
  if (client === NATIVE) Object.assign(query, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
  const first = await fetch(authoriseUrl(cloud.url, query));
  expect(first.status).toBe(200);
  const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!;
  const html = await first.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
  const consent = await fetch(`${cloud.url}/oauth2/authorise/login`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request: field('request'), csrf: field('csrf'), email, password: USER.password }).toString(),
  });
  expect(consent.status).toBe(200);
  return consent;
}

/** The consent page's HTML (consentAnswer). */
async function consentPage(client: TestClient, redirectUri: string): Promise<string> {
  return (await consentAnswer(client, redirectUri)).text();
}

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = ErrorBodySchema.parse(await response.json());
  expect(body.error).toBe(error);
  expect(body.error_description).toBeTruthy();
}

describe('authorisation code flow', () => {
  it('goes from consent to tokens, the user record and a verifiable delegation token', async () => {
    const { verifier, challenge } = pkcePair();
    const redirect = await authorise(cloud.url, NATIVE, USER, { challenge, state: 'a b&c=d' });
    expect(`${redirect.protocol}${redirect.pathname}`).toBe('io.example.app:/oauth/callback');
    expect(redirect.searchParams.get('state')).toBe('a b&c=d');
    const code = redirect.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const response = await postToken(cloud.url, NATIVE, {
      grant_type: 'authorization_code',
      authorization_code: code,
      code_verifier: verifier,
      redirect_uri: NATIVE.redirectUri,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'grant_type', 'refresh_token', 'token_type']);
    expect(tokens).toMatchObject({ token_type: 'bearer', grant_type: 'authorization_code', expires_in: '3600' });
    const { access_token } = TokenObjectSchema.parse(tokens);

    const me = await userMe(access_token);
    expect(me.status).toBe(200);
    const user = UserRecordSchema.parse(await me.json());
    expect(user).toMatchObject({ _id: 'u1', email: USER.email, firstname: 'Ada', lastname: 'Lovelace' });
    expect(user.hubs.map((hub) => hub._id)).toEqual(['h1', 'h2']);
    expect(JSON.stringify(user)).not.toMatch(/password|\$scrypt/i);

    const jwks = createLocalJWKSet((await (await fetch(`${cloud.url}/.well-known/jwks.json`)).json()) as never);
    const one = await delegationToken(cloud.url, access_token, 'h2');
    const { payload, protectedHeader } = await jwtVerify(one, jwks, { issuer: cloud.issuer, audience: 'hub', currentDate: new Date(clock) });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ aud: 'hub', sub: 'u1', hubs: ['h2'], scope: 'devices.readonly flow.start', client_id: NATIVE.id });
    expect(payload.exp! - payload.iat!).toBe(60);
    const all = decodeJwt(await delegationToken(cloud.url, access_token));
    expect(all.hubs).toEqual(['h1', 'h2']);
    expect(all.jti).not.toBe(payload.jti);
  });

  it('serves a small, escaped, locked-down sign-in page with a session cookie', async () => {
    const { challenge } = pkcePair();
    const url = authoriseUrl(cloud.url, {
      authorization_type: 'code',
      client_id: NATIVE.id,
      redirect_uri: NATIVE.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self'.*frame-ancestors 'none'/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    const html = await response.text();
    expect(html).toContain('Native &lt;App&gt;');
    expect(html).not.toContain('<App>');
    expect(html).toContain('demo@example.test');
    expect(html).toMatch(/<input[^>]*type="email"[^>]*name="email"/);
    expect(html).not.toMatch(/<script/i);
  });

  it('names the client and lists the scopes in words on the consent page, and allows the redirect target in its CSP', async () => {
    const consent = await consentAnswer(NATIVE, NATIVE.redirectUri, USER.email.toUpperCase());
    expect(consent.headers.get('content-security-policy')).toMatch(/form-action 'self' io\.example\.app:/);
    const page = await consent.text();
    expect(page).toContain('Allow Native &lt;App&gt; to use your account?');
    expect(page).toContain('See your devices and their state');
    expect(page).toContain('Start your flows');
  });

  it.each([
    [
      'a loopback redirect: the client on this computer and its port',
      NATIVE,
      'http://127.0.0.1:51234/oauth/callback',
      'to Native &lt;App&gt; on this computer, port 51234.',
    ],
    ['an IPv6 loopback redirect', NATIVE, 'http://[::1]:8123/oauth/callback', 'to Native &lt;App&gt; on this computer, port 8123.'],
    ['a private-use scheme: the client app on this computer', NATIVE, NATIVE.redirectUri, 'to the Native &lt;App&gt; app on this computer.'],
    ['an https redirect: its origin', WEB, WEB.redirectUri, 'to https://web.example.test.'],
  ])('says on the consent page where it returns for %s', async (_name, client, redirectUri, expected) => {
    const page = await consentPage(client, redirectUri);
    expect(page).toContain(`After you choose, you return ${expected}</p>`);
    expect(page).not.toContain('<App>');
  });

  it('shows the sign-in page again with one message for a wrong password or an unknown account', async () => {
    const { challenge } = pkcePair();
    const first = await fetch(
      authoriseUrl(cloud.url, {
        authorization_type: 'code',
        client_id: NATIVE.id,
        redirect_uri: NATIVE.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!;
    const html = await first.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
    const login = (form: Record<string, string>, withCookie = cookie) =>
      fetch(`${cloud.url}/oauth2/authorise/login`, {
        method: 'POST',
        headers: { cookie: withCookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request: field('request'), csrf: field('csrf'), ...form }).toString(),
      });
    const wrong = await login({ email: USER.email, password: 'nope' });
    const unknown = await login({ email: 'nobody@example.test', password: 'nope' });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(200);
      const page = await response.text();
      expect(page).toContain('The e-mail address or password is incorrect.');
      expect(page).toContain('type="password"');
    }
    // The CSRF token and the session cookie are both checked.
    expect((await login({ email: USER.email, password: USER.password, csrf: 'forged' })).status).toBe(400);
    expect((await login({ email: USER.email, password: USER.password }, 'hubdesk_login=forged')).status).toBe(400);
    // After five failures the request is gone, even with the right password.
    await login({ email: USER.email, password: 'nope' });
    await login({ email: USER.email, password: 'nope' });
    expect((await login({ email: USER.email, password: 'nope' })).status).toBe(400);
    expect((await login({ email: USER.email, password: USER.password })).status).toBe(400);
  });

  it('returns access_denied with the state when the user denies', async () => {
    const redirect = await authorise(cloud.url, NATIVE, USER, { decision: 'Deny', challenge: pkcePair().challenge, state: 'keep-me' });
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('keep-me');
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  it('accepts the loopback redirect URI on any port, and nothing else varies', async () => {
    const client = { ...NATIVE, redirectUri: 'http://127.0.0.1:51234/oauth/callback' };
    const redirect = await authorise(cloud.url, client, USER, { challenge: pkcePair().challenge, state: 's' });
    expect(redirect.origin).toBe('http://127.0.0.1:51234');
    expect(redirect.searchParams.get('code')).toBeTruthy();
  });
});

describe('authorisation request errors', () => {
  const valid = () => ({
    authorization_type: 'code',
    client_id: NATIVE.id,
    redirect_uri: NATIVE.redirectUri,
    state: 'st',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });
  const get = (url: string) => fetch(url, { redirect: 'manual' });

  it.each([
    ['an unknown client', { client_id: 'nobody' }],
    ['no client_id', { client_id: '' }],
    ['no redirect_uri', { redirect_uri: '' }],
    ['an unregistered redirect URI', { redirect_uri: 'https://evil.example.test/cb' }],
    ['a registered URI with another path', { redirect_uri: 'io.example.app:/oauth/callback/x' }],
    ['a registered URI with a query', { redirect_uri: 'io.example.app:/oauth/callback?x=1' }],
    ['a loopback URI with another path', { redirect_uri: 'http://127.0.0.1:5000/other' }],
    ['localhost instead of the loopback IP', { redirect_uri: 'http://localhost:5000/oauth/callback' }],
    ['https on the loopback', { redirect_uri: 'https://127.0.0.1:5000/oauth/callback' }],
    ['a loopback URI with credentials', { redirect_uri: 'http://a@127.0.0.1:5000/oauth/callback' }],
  ])('shows an error page and never redirects for %s', async (_name, override) => {
    const response = await get(authoriseUrl(cloud.url, { ...valid(), ...override }));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it.each(['client_id', 'redirect_uri', 'state'])('never redirects when %s is repeated', async (name) => {
    const params = new URLSearchParams(valid());
    params.append(name, name === 'client_id' ? NATIVE.id : name === 'redirect_uri' ? LOOPBACK : 'other');
    const response = await get(`${cloud.url}/oauth2/authorise?${params.toString()}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it.each([
    ['authorization_type is missing', { authorization_type: '' }, 'invalid_request'],
    ['authorization_type is not code', { authorization_type: 'token' }, 'unsupported_response_type'],
    ['the native client sends no code_challenge', { code_challenge: '', code_challenge_method: '' }, 'invalid_request'],
    ['the method is plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['the method is missing (plain by default)', { code_challenge_method: '' }, 'invalid_request'],
    ['the challenge is too short', { code_challenge: 'abc' }, 'invalid_request'],
    ['the challenge has bad characters', { code_challenge: `${'a'.repeat(42)}=` }, 'invalid_request'],
  ])('redirects back with an error and the state when %s', async (_name, override, error) => {
    const response = await get(authoriseUrl(cloud.url, { ...valid(), ...override }));
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.protocol}${location.pathname}`).toBe('io.example.app:/oauth/callback');
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('st');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('redirects back with invalid_request when another parameter is repeated', async () => {
    const params = new URLSearchParams(valid());
    params.append('code_challenge', pkcePair().challenge);
    const location = new URL((await get(`${cloud.url}/oauth2/authorise?${params.toString()}`)).headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });
});

describe('token endpoint rules', () => {
  it('rejects a code presented after 30 seconds', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(NATIVE, challenge);
    clock += 30_000;
    const response = await postToken(cloud.url, NATIVE, { grant_type: 'authorization_code', authorization_code: code, code_verifier: verifier });
    await expectError(response, 400, 'invalid_grant');
  });

  it('rejects a reused code and revokes the tokens of its first exchange', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(NATIVE, challenge);
    const form = { grant_type: 'authorization_code', authorization_code: code, code_verifier: verifier };
    const first = (await (await postToken(cloud.url, NATIVE, form)).json()) as { access_token: string; refresh_token: string };
    expect((await userMe(first.access_token)).status).toBe(200);
    await expectError(await postToken(cloud.url, NATIVE, form), 400, 'invalid_grant');
    expect((await userMe(first.access_token)).status).toBe(401);
    await expectError(await postToken(cloud.url, NATIVE, { grant_type: 'refresh_token', refresh_token: first.refresh_token }), 400, 'invalid_grant');
  });

  it('rotates refresh tokens, and a reused one revokes the whole grant', async () => {
    const first = await signIn(cloud.url, NATIVE, USER);
    const refreshed = await postToken(cloud.url, NATIVE, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = TokenObjectSchema.parse(await refreshed.json());
    expect(second.grant_type).toBe('authorization_code');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await userMe(second.access_token)).status).toBe(200);

    await expectError(await postToken(cloud.url, NATIVE, { grant_type: 'refresh_token', refresh_token: first.refresh_token }), 400, 'invalid_grant');
    expect((await userMe(second.access_token)).status).toBe(401);
    expect((await userMe(first.access_token)).status).toBe(401);
    await expectError(await postToken(cloud.url, NATIVE, { grant_type: 'refresh_token', refresh_token: second.refresh_token }), 400, 'invalid_grant');
  });

  it('binds codes and refresh tokens to their client', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(NATIVE, challenge);
    await expectError(
      await postToken(cloud.url, WEB, { grant_type: 'authorization_code', authorization_code: code, code_verifier: verifier }),
      400,
      'invalid_grant',
    );
    const tokens = await signIn(cloud.url, NATIVE, USER);
    await expectError(await postToken(cloud.url, WEB, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
  });

  describe('redirect_uri at the token endpoint (RFC 6749 §4.1.3)', () => {
    const LOOPBACK_CLIENT: TestClient = { ...NATIVE, redirectUri: 'http://127.0.0.1:51234/oauth/callback' };
    const exchange = (client: TestClient, code: string, verifier: string, extra: Record<string, string> | URLSearchParams = {}) => {
      const form = new URLSearchParams({ grant_type: 'authorization_code', authorization_code: code, code_verifier: verifier });
      for (const [name, value] of extra instanceof URLSearchParams ? extra : Object.entries(extra)) form.append(name, value);
      return fetch(`${cloud.url}/oauth2/token`, {
        method: 'POST',
        headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    };

    it.each([
      ['the private-use URI of the authorisation', NATIVE, NATIVE.redirectUri],
      ['the loopback URI of the authorisation, port included', LOOPBACK_CLIENT, LOOPBACK_CLIENT.redirectUri],
    ])('accepts %s', async (_name, client, redirectUri) => {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(client, challenge);
      expect((await exchange(client, code, verifier, { redirect_uri: redirectUri })).status).toBe(200);
    });

    it('accepts an exchange without redirect_uri (the interface sends none; PKCE binds the code)', async () => {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(LOOPBACK_CLIENT, challenge);
      expect((await exchange(LOOPBACK_CLIENT, code, verifier)).status).toBe(200);
    });

    it.each([
      ['another registered URI', NATIVE, LOOPBACK],
      ['the loopback URI on another port', LOOPBACK_CLIENT, 'http://127.0.0.1:51235/oauth/callback'],
      ['the loopback URI with a trailing slash', LOOPBACK_CLIENT, 'http://127.0.0.1:51234/oauth/callback/'],
      ["an attacker's URI", NATIVE, 'https://evil.example.test/cb'],
    ])('refuses %s with invalid_grant, and the code is spent', async (_name, client, redirectUri) => {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(client, challenge);
      await expectError(await exchange(client, code, verifier, { redirect_uri: redirectUri }), 400, 'invalid_grant');
      // One presentation, whatever its outcome: the right redirect_uri no longer helps.
      await expectError(await exchange(client, code, verifier, { redirect_uri: client.redirectUri }), 400, 'invalid_grant');
    });

    it.each([
      ['not a URI', new URLSearchParams({ redirect_uri: 'not a uri' })],
      ['a relative URI', new URLSearchParams({ redirect_uri: '/oauth/callback' })],
      ['an oversized URI', new URLSearchParams({ redirect_uri: `https://web.example.test/${'a'.repeat(3000)}` })],
      [
        'repeated with the right value',
        new URLSearchParams([
          ['redirect_uri', NATIVE.redirectUri],
          ['redirect_uri', NATIVE.redirectUri],
        ]),
      ],
    ])('answers a redirect_uri that is %s with 400 invalid_request, and the code stays usable', async (_name, extra) => {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(NATIVE, challenge);
      await expectError(await exchange(NATIVE, code, verifier, extra), 400, 'invalid_request');
      expect((await exchange(NATIVE, code, verifier, { redirect_uri: NATIVE.redirectUri })).status).toBe(200);
    });
  });

  it.each([
    ['a wrong code_verifier', (verifier: string) => ({ code_verifier: `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}` })],
    ['no code_verifier', () => ({})],
    ['a malformed code_verifier', () => ({ code_verifier: 'short' })],
  ])('rejects %s for a code with a challenge', async (_name, verifierField) => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(NATIVE, challenge);
    await expectError(
      await postToken(cloud.url, NATIVE, { grant_type: 'authorization_code', authorization_code: code, ...verifierField(verifier) }),
      400,
      'invalid_grant',
    );
  });

  it('lets a confidential client without PKCE authenticate with a form-encoded id and secret', async () => {
    const code = await codeFor(WEB, null);
    const response = await postToken(cloud.url, WEB, { grant_type: 'authorization_code', authorization_code: code });
    expect(response.status).toBe(200);
  });

  it('answers 401 for an expired access token, and the refresh token still works', async () => {
    const tokens = await signIn(cloud.url, NATIVE, USER);
    clock += 3600_000;
    const response = await userMe(tokens.access_token);
    await expectError(response, 401, 'invalid_token');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    expect((await postToken(cloud.url, NATIVE, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(200);
  });

  it('ends a grant that was not used for six months', async () => {
    const tokens = await signIn(cloud.url, NATIVE, USER);
    clock += 181 * 24 * 3600_000;
    await expectError(await postToken(cloud.url, NATIVE, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 400, 'invalid_grant');
  });
});

describe('hostile and malformed input', () => {
  const form = 'application/x-www-form-urlencoded';
  const auth = basic(NATIVE.id, NATIVE.secret);
  const token = (headers: Record<string, string>, body?: string) => fetch(`${cloud.url}/oauth2/token`, { method: 'POST', headers, body });
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it.each<[string, () => Promise<Response>, number, string]>([
    ['no Authorization header', () => token({ 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'), 401, 'invalid_client'],
    [
      'Basic that is not base64',
      () => token({ authorization: 'Basic !!!not-base64', 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'),
      401,
      'invalid_client',
    ],
    [
      'Basic without a colon',
      () => token({ authorization: `Basic ${b64('native-app')}`, 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'),
      401,
      'invalid_client',
    ],
    [
      'Basic with a wrong secret',
      () => token({ authorization: basic(NATIVE.id, 'wrong'), 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'),
      401,
      'invalid_client',
    ],
    [
      'Basic with bad percent-encoding',
      () => token({ authorization: `Basic ${b64('native-app:%zz')}`, 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'),
      401,
      'invalid_client',
    ],
    [
      'Basic for an unknown client',
      () => token({ authorization: basic('ghost', 'x'), 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'),
      401,
      'invalid_client',
    ],
    [
      'a Bearer credential',
      () => token({ authorization: 'Bearer abc', 'content-type': form }, 'grant_type=refresh_token&refresh_token=x'),
      401,
      'invalid_client',
    ],
    ['a JSON body', () => token({ authorization: auth, 'content-type': 'application/json' }, '{"grant_type":"refresh_token"}'), 400, 'invalid_request'],
    ['a text body', () => token({ authorization: auth, 'content-type': 'text/plain' }, 'grant_type=refresh_token'), 400, 'invalid_request'],
    ['an XML body', () => token({ authorization: auth, 'content-type': 'application/xml' }, '<x/>'), 400, 'invalid_request'],
    ['no body', () => token({ authorization: auth }), 400, 'invalid_request'],
    ['no grant_type', () => token({ authorization: auth, 'content-type': form }, 'refresh_token=x'), 400, 'invalid_request'],
    [
      'a repeated grant_type',
      () => token({ authorization: auth, 'content-type': form }, 'grant_type=refresh_token&grant_type=refresh_token&refresh_token=x'),
      400,
      'invalid_request',
    ],
    [
      'a repeated refresh_token',
      () => token({ authorization: auth, 'content-type': form }, 'grant_type=refresh_token&refresh_token=x&refresh_token=y'),
      400,
      'invalid_request',
    ],
    ['an unknown grant_type', () => token({ authorization: auth, 'content-type': form }, 'grant_type=password'), 400, 'unsupported_grant_type'],
    ['no authorization_code', () => token({ authorization: auth, 'content-type': form }, 'grant_type=authorization_code'), 400, 'invalid_request'],
    [
      'an unknown code',
      () => token({ authorization: auth, 'content-type': form }, 'grant_type=authorization_code&authorization_code=nope'),
      400,
      'invalid_grant',
    ],
    [
      'an unknown refresh token',
      () => token({ authorization: auth, 'content-type': form }, 'grant_type=refresh_token&refresh_token=nope'),
      400,
      'invalid_grant',
    ],
    [
      'an oversized form',
      () => token({ authorization: auth, 'content-type': form }, `grant_type=refresh_token&refresh_token=${'x'.repeat(20_000)}`),
      413,
      'payload_too_large',
    ],
    [
      'an oversized consent post',
      () => fetch(`${cloud.url}/oauth2/authorise/login`, { method: 'POST', headers: { 'content-type': form }, body: 'x'.repeat(20_000) }),
      413,
      'payload_too_large',
    ],
    ['/user/me without a token', () => fetch(`${cloud.url}/user/me`), 401, 'invalid_token'],
    ['/user/me with a malformed Authorization', () => fetch(`${cloud.url}/user/me`, { headers: { authorization: 'Bearer a b c' } }), 401, 'invalid_token'],
    ['a delegation without a token', () => fetch(`${cloud.url}/delegation/token?audience=hub`, { method: 'POST' }), 401, 'invalid_token'],
    ['an unknown route', () => fetch(`${cloud.url}/nope`), 404, 'not_found'],
  ])('answers %s with a clear error', async (_name, send, status, error) => {
    const response = await send();
    await expectError(response, status, error);
    if (status === 401 && error === 'invalid_client') expect(response.headers.get('www-authenticate')).toBe('Basic realm="hubdesk"');
    expect((await fetch(`${cloud.url}/.well-known/jwks.json`)).status).toBe(200); // still serving
  });

  it('checks the delegation parameters', async () => {
    const { access_token } = await signIn(cloud.url, NATIVE, USER);
    const delegate = (query: string) =>
      fetch(`${cloud.url}/delegation/token?${query}`, { method: 'POST', headers: { authorization: `Bearer ${access_token}` } });
    await expectError(await delegate(''), 400, 'invalid_request');
    await expectError(await delegate('audience=cloud'), 400, 'invalid_request');
    await expectError(await delegate('audience=hub&audience=hub'), 400, 'invalid_request');
    await expectError(await delegate('audience=hub&hub=not-mine'), 404, 'not_found');
    expect((await delegate('audience=hub&hub=h1')).status).toBe(200);
  });

  it('answers a consent post that lost its page with an error page, not a crash', async () => {
    const response = await fetch(`${cloud.url}/oauth2/authorise/consent`, {
      method: 'POST',
      headers: { 'content-type': form },
      body: 'decision=allow&request=x&csrf=y',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('start signing in again');
  });
});

describe('what the official client (homey-api) sends, beside the interface’s names (docs/security.md, "The official client’s names")', () => {
  const get = (url: string) => fetch(url, { redirect: 'manual' });
  const returned = async (query: Record<string, string>) => new URL((await get(authoriseUrl(cloud.url, query))).headers.get('location')!);
  const web = { client_id: WEB.id, redirect_uri: WEB.redirectUri, state: 'st' };

  it('accepts response_type=code for authorization_type=code, and runs the whole flow with the RFC 6749 names', async () => {
    const redirect = await consent(authoriseUrl(cloud.url, { response_type: 'code', ...web }), USER, 'Allow');
    expect(redirect.searchParams.get('state')).toBe('st');
    const code = redirect.searchParams.get('code')!;
    const response = await postToken(cloud.url, WEB, { grant_type: 'authorization_code', code });
    expect(response.status).toBe(200);
    expect(TokenObjectSchema.parse(await response.json()).access_token).toBeTruthy();
  });

  it.each([
    ['both authorization_type and response_type', { authorization_type: 'code', response_type: 'code' }, 'invalid_request'],
    ['response_type other than code', { response_type: 'token' }, 'unsupported_response_type'],
  ])('redirects back with an error for %s', async (_name, type, error) => {
    expect((await returned({ ...type, ...web })).searchParams.get('error')).toBe(error);
  });

  it('still requires PKCE of a native client that sends response_type', async () => {
    const location = await returned({ response_type: 'code', client_id: NATIVE.id, redirect_uri: NATIVE.redirectUri, state: 'st' });
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('still matches a confidential client’s redirect URI exactly', async () => {
    for (const redirect_uri of [`${WEB.redirectUri}/other`, `${WEB.redirectUri}?x=1`, WEB.redirectUri.replace('https:', 'http:')]) {
      const response = await get(authoriseUrl(cloud.url, { response_type: 'code', ...web, redirect_uri }));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('refuses code and authorization_code together before looking at the code, which stays usable', async () => {
    const code = await codeFor(WEB, null);
    await expectError(await postToken(cloud.url, WEB, { grant_type: 'authorization_code', code, authorization_code: code }), 400, 'invalid_request');
    expect((await postToken(cloud.url, WEB, { grant_type: 'authorization_code', code })).status).toBe(200);
  });

  it('refuses a confidential client’s code exchange with a wrong secret, and a native client’s code without its verifier', async () => {
    const webCode = await codeFor(WEB, null);
    await expectError(await postToken(cloud.url, { ...WEB, secret: 'wrong' }, { grant_type: 'authorization_code', code: webCode }), 401, 'invalid_client');
    const nativeCode = await codeFor(NATIVE, pkcePair().challenge);
    await expectError(await postToken(cloud.url, NATIVE, { grant_type: 'authorization_code', code: nativeCode }), 400, 'invalid_grant');
  });

  it('lists the hubs also as homeys (with apiVersion 3) and an empty devices list in the user record', async () => {
    const { access_token } = await signIn(cloud.url, NATIVE, USER);
    const user = (await (await userMe(access_token)).json()) as { hubs: { _id: string; apiVersion: number }[]; homeys: unknown; devices: unknown };
    expect(user.hubs.map((hub) => hub.apiVersion)).toEqual([3, 3]);
    expect(user.homeys).toEqual(user.hubs);
    expect(user.devices).toEqual([]);
  });

  it('takes audience=homey as audience=hub: the token is for hubs all the same', async () => {
    const { access_token } = await signIn(cloud.url, NATIVE, USER);
    const delegate = (query: string) =>
      fetch(`${cloud.url}/delegation/token?${query}`, { method: 'POST', headers: { authorization: `Bearer ${access_token}` } });
    const response = await delegate('audience=homey');
    expect(response.status).toBe(200);
    expect(decodeJwt((await response.json()) as string)).toMatchObject({ aud: 'hub', hubs: ['h1', 'h2'] });
    await expectError(await delegate('audience=Homey'), 400, 'invalid_request');
    await expectError(await delegate('audience=homey&audience=hub'), 400, 'invalid_request');
  });
});
