/**
 * The reference hub over real sockets: sessions from real delegation tokens of a real cloud, the
 * device list and its scopes, and every way a delegation token can be wrong (signed here with a key
 * the test controls, so each claim can be broken on its own), and the same API over TLS.
 */
import { generateKeyPairSync } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPingNonce, PingProofSchema, verifyPing } from '../../../common/hub-identity';
import { DeviceMapSchema, ErrorBodySchema, type HubIdentityKey } from '../../../common/wire';
import { type RunningCloud, startCloud } from '../../../services/cloud/cloud';
import { createDemoHome } from '../../../services/hub/demo-home';
import { type RunningHub, startHub } from '../../../services/hub/hub';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { delegationToken, signIn, type TestClient } from './oauth-helpers';

const USER = { email: 'grace@example.test', password: 'hopper-1906' };
const client = (id: string): TestClient => ({ id, secret: `${id}-secret`, redirectUri: 'io.example.app:/cb' });
const FULL = client('full');
const READONLY = client('readonly');
const NO_DEVICES = client('flows-only');

let clock = Date.parse('2030-06-01T12:00:00Z');
const now = () => clock;
let cloud: RunningCloud;
let hub: RunningHub;
/** A hub that trusts a key this test holds, to break one claim at a time. */
let testHub: RunningHub;
let testKey: CryptoKey;
const TEST_ISSUER = 'https://issuer.example.test';

beforeAll(async () => {
  const registration = (c: TestClient, scopes: ('devices' | 'devices.readonly' | 'flow.readonly')[]) => ({
    id: c.id,
    secret: c.secret,
    name: c.id,
    native: true,
    redirectUris: [c.redirectUri],
    scopes,
  });
  cloud = await startCloud({
    clients: [registration(FULL, ['devices']), registration(READONLY, ['devices.readonly']), registration(NO_DEVICES, ['flow.readonly'])],
    users: [
      {
        _id: 'u1',
        ...USER,
        firstname: 'Grace',
        lastname: 'Hopper',
        hubs: ['h1', 'h2'].map((id) => ({ _id: id, name: id, platform: 'local' as const, localUrl: null, localUrlSecure: null, remoteUrl: null })),
      },
    ],
    now,
  });
  hub = await startHub({ id: 'h1', name: 'Home', cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home: createDemoHome('home'), now });
  const keys = await generateKeyPair('ES256', { extractable: true });
  testKey = keys.privateKey;
  testHub = await startHub({
    id: 'h9',
    name: 'Test',
    cloudIssuer: TEST_ISSUER,
    cloudPublicJwk: await exportJWK(keys.publicKey),
    home: createDemoHome('cabin'),
    now,
  });
});
afterAll(async () => {
  await Promise.all([hub?.close(), testHub?.close(), cloud?.close()]);
});

const login = (url: string, body: unknown, contentType = 'application/json') =>
  fetch(`${url}/api/manager/users/login`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const devices = (url: string, session?: string) =>
  fetch(`${url}/api/manager/devices/device`, { headers: session ? { authorization: `Bearer ${session}` } : {} });

async function sessionFor(c: TestClient, hubId = 'h1'): Promise<string> {
  const { access_token } = await signIn(cloud.url, c, USER);
  const response = await login(hub.url, { token: await delegationToken(cloud.url, access_token, hubId) });
  expect(response.status).toBe(200);
  return (await response.json()) as string;
}

async function expectError(response: Response, status: number, error?: string) {
  expect(response.status).toBe(status);
  const body = ErrorBodySchema.parse(await response.json());
  if (error) expect(body.error).toBe(error);
}

/** A delegation token from the test's issuer; `claims` override (or, with undefined, remove) the valid defaults. */
function sign(claims: JWTPayload, options: { key?: CryptoKey | Uint8Array; alg?: string } = {}) {
  const iat = Math.floor(clock / 1000);
  const payload = {
    iss: TEST_ISSUER,
    aud: 'hub',
    sub: 'u1',
    iat,
    exp: iat + 60,
    jti: crypto.randomUUID(),
    scope: 'devices',
    hubs: ['h9'],
    client_id: 'c',
    ...claims,
  };
  return new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? 'ES256' }).sign(options.key ?? testKey);
}

describe('sessions and devices', () => {
  it('opens a session with a real delegation token and lists the devices', async () => {
    const session = await sessionFor(FULL);
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const response = await devices(hub.url, session);
    expect(response.status).toBe(200);
    const map = DeviceMapSchema.parse(await response.json());
    const list = Object.values(map);
    expect(list.length).toBeGreaterThanOrEqual(20);
    for (const [key, device] of Object.entries(map)) {
      expect(device.id).toBe(key);
      expect(device.zoneName).toBeTruthy();
      expect(typeof device.available).toBe('boolean');
      expect(Object.keys(device.capabilitiesObj ?? {})).toEqual(device.capabilities);
    }
    expect(new Set(list.map((d) => d.zone)).size).toBeGreaterThanOrEqual(6);
    for (const cls of ['light', 'socket', 'thermostat', 'sensor', 'lock', 'windowcoverings', 'speaker', 'doorbell', 'fan']) {
      expect(list.some((d) => d.class === cls)).toBe(true);
    }
  });

  it('refuses a replayed delegation token', async () => {
    const { access_token } = await signIn(cloud.url, FULL, USER);
    const token = await delegationToken(cloud.url, access_token, 'h1');
    expect((await login(hub.url, { token })).status).toBe(200);
    await expectError(await login(hub.url, { token }), 401, 'invalid_token');
  });

  it('refuses a token for another hub', async () => {
    const { access_token } = await signIn(cloud.url, FULL, USER);
    await expectError(await login(hub.url, { token: await delegationToken(cloud.url, access_token, 'h2') }), 401);
  });

  it('accepts a token for all the user’s hubs', async () => {
    const { access_token } = await signIn(cloud.url, FULL, USER);
    expect((await login(hub.url, { token: await delegationToken(cloud.url, access_token) })).status).toBe(200);
  });

  it('lists devices with devices.readonly and refuses a session without a device scope', async () => {
    expect((await devices(hub.url, await sessionFor(READONLY))).status).toBe(200);
    const refused = await devices(hub.url, await sessionFor(NO_DEVICES));
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    await expectError(refused, 403, 'insufficient_scope');
  });

  it('answers 401 once sessions are expired, by expireSessions or by time', async () => {
    const first = await sessionFor(FULL);
    hub.expireSessions();
    await expectError(await devices(hub.url, first), 401, 'invalid_token');
    const second = await sessionFor(FULL);
    expect((await devices(hub.url, second)).status).toBe(200);
    clock += 86_400_000;
    const expired = await devices(hub.url, second);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    await expectError(expired, 401, 'invalid_token');
  });

  it('answers the ping with its id as a JSON string, without authentication', async () => {
    const response = await fetch(`${hub.url}/api/manager/system/ping?id=h1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toBe('h1');
  });
});

describe('delegation tokens the hub must refuse', () => {
  it('accepts a well-formed token, as the baseline of the cases below', async () => {
    expect((await login(testHub.url, { token: await sign({}) })).status).toBe(200);
  });

  it.each<[string, () => Promise<string>]>([
    ['another audience', async () => sign({ aud: 'cloud' })],
    ['another issuer', async () => sign({ iss: 'https://evil.example.test' })],
    ['another key', async () => sign({}, { key: (await generateKeyPair('ES256')).privateKey })],
    ['HS256', async () => sign({}, { key: new Uint8Array(32), alg: 'HS256' })],
    ['an expired token', async () => sign({ exp: Math.floor(clock / 1000) - 1 })],
    ['no jti', async () => sign({ jti: undefined })],
    ['hubs that do not include this hub', async () => sign({ hubs: ['h1'] })],
    ['hubs that is not a list', async () => sign({ hubs: 'h9' })],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await sign({})).split('.');
        return `${header}.${Buffer.from(JSON.stringify({ sub: 'u1', aud: 'hub', hubs: ['h9'] })).toString('base64url')}.${signature}`;
      },
    ],
    ['an unsigned token', async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"aud":"hub"}').toString('base64url')}.`],
    ['garbage', async () => 'not-a-jwt'],
  ])('refuses %s with 401', async (_name, token) => {
    await expectError(await login(testHub.url, { token: await token() }), 401, 'invalid_token');
  });
});

describe('bad input', () => {
  it.each<[string, () => Promise<Response>, number, string]>([
    ['a form body', () => login(hub.url, 'token=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'],
    ['a text body', () => login(hub.url, '{"token":"x"}', 'text/plain'), 415, 'unsupported_media_type'],
    ['malformed JSON', () => login(hub.url, '{"token":', 'application/json'), 400, 'invalid_request'],
    ['an empty JSON body', () => login(hub.url, '', 'application/json'), 400, 'invalid_request'],
    ['a JSON string body', () => login(hub.url, '"x"'), 400, 'invalid_request'],
    ['a token that is not a string', () => login(hub.url, { token: 42 }), 400, 'invalid_request'],
    ['a prototype-poisoning body', () => login(hub.url, '{"__proto__":{"x":1},"token":"t"}'), 400, 'invalid_request'],
    ['an oversized body', () => login(hub.url, { token: 'x'.repeat(20_000) }), 413, 'payload_too_large'],
    ['devices without a session', () => devices(hub.url), 401, 'invalid_token'],
    ['devices with an unknown session', () => devices(hub.url, 'unknown'), 401, 'invalid_token'],
    ['an unknown route', () => fetch(`${hub.url}/api/manager/nope`), 404, 'not_found'],
  ])('answers %s with a clear error and keeps serving', async (_name, send, status, error) => {
    await expectError(await send(), status, error);
    expect((await fetch(`${hub.url}/api/manager/system/ping?id=h1`)).status).toBe(200);
  });
});

describe('the secure route', () => {
  it('is off without tls; with it, serves the same hub over TLS, answers malformed requests in JSON, and closes with the hub', async () => {
    expect(hub.secureUrl).toBeNull();
    const certificates = await createStackCertificates(['127.0.0.1']);
    const secureHub = await startHub({
      id: 'h2',
      name: 'Secure',
      cloudIssuer: cloud.issuer,
      cloudPublicJwk: cloud.publicJwk,
      home: createDemoHome('home'),
      tls: certificates.server,
      now,
    });
    const { port } = new URL(secureHub.secureUrl!);
    const exchange = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), ca: certificates.ca }, () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    try {
      expect(secureHub.secureUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await exchange('GET /api/manager/system/ping?id=h2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200[^]*\r\n\r\n"h2"$/);
      expect(await exchange('NOT HTTP\r\n\r\n')).toMatch(/^HTTP\/1\.1 400[^]*"error":"invalid_request"/);
    } finally {
      await secureHub.close();
    }
    await expect(exchange('GET / HTTP/1.1\r\n\r\n')).rejects.toThrow();
  });
});

describe('the hub proves who it is, and ends a session on logout', () => {
  it('signs the client’s nonce with its identity key; a bare ping still answers the id', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const key = publicKey.export({ format: 'jwk' }) as HubIdentityKey;
    const provingHub = await startHub({
      id: 'h3',
      name: 'Proving',
      cloudIssuer: cloud.issuer,
      cloudPublicJwk: cloud.publicJwk,
      home: createDemoHome('home'),
      identityKey: privateKey,
      now,
    });
    try {
      const nonce = newPingNonce();
      const response = await fetch(`${provingHub.url}/api/manager/system/ping?id=h3&nonce=${nonce}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const proof = PingProofSchema.parse(await response.json());
      expect(verifyPing(key, 'h3', nonce, proof)).toBe(true);
      expect(verifyPing(key, 'h3', newPingNonce(), proof)).toBe(false); // bound to that nonce
      expect(await (await fetch(`${provingHub.url}/api/manager/system/ping?id=h3`)).json()).toBe('h3');
      for (const bad of ['short', 'has spaces in it, which base64url never does', 'x'.repeat(129)]) {
        await expectError(await fetch(`${provingHub.url}/api/manager/system/ping?nonce=${encodeURIComponent(bad)}`), 400, 'invalid_request');
      }
      await expectError(await fetch(`${provingHub.url}/api/manager/system/ping?nonce=${nonce}&nonce=${nonce}`), 400, 'invalid_request');
    } finally {
      await provingHub.close();
    }
  });

  it('ends the caller’s session at logout: its token is refused at once; other sessions go on', async () => {
    const ending = await sessionFor(FULL);
    const other = await sessionFor(FULL);
    const logout = (session?: string) =>
      fetch(`${hub.url}/api/manager/users/logout`, { method: 'POST', headers: session ? { authorization: `Bearer ${session}` } : {} });
    expect((await devices(hub.url, ending)).status).toBe(200);
    expect((await logout(ending)).status).toBe(204);
    await expectError(await devices(hub.url, ending), 401, 'invalid_token');
    expect((await devices(hub.url, other)).status).toBe(200);
    await expectError(await logout(ending), 401, 'invalid_token'); // already ended
    await expectError(await logout(), 401, 'invalid_token');
  });
});
