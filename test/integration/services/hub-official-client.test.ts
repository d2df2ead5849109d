/**
 * What the reference hub adds for the official client (homey-api), over real sockets with sessions
 * from a real cloud: the ping's identity headers, one device, the zones, the session's scopes in the
 * client's names, and delegation tokens that name scopes that way (signed here with a key the test
 * holds, as a cloud of that family would issue them).
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionInfoSchema } from '../../../common/hub-control';
import { DeviceSchema } from '../../../common/wire';
import type { RunningCloud } from '../../../services/cloud/cloud';
import { createDemoHome, type DemoHome } from '../../../services/hub/demo-home';
import { HUB_SOFTWARE_VERSION, type RunningHub, startHub } from '../../../services/hub/hub';
import { expectError, FLOWS_ONLY, FULL, openSession, READONLY, startTestCloud } from './hub-fixture';

const ISSUER = 'https://issuer.example.test';
let cloud: RunningCloud;
let hub: RunningHub;
let home: DemoHome;
/** A hub trusting a key this test holds, for tokens that name scopes as the official client's family does. */
let testHub: RunningHub;
let signToken: (scope: string) => Promise<string>;
const sessions: Record<'full' | 'readonly' | 'flowsOnly', string> = { full: '', readonly: '', flowsOnly: '' };

beforeAll(async () => {
  cloud = await startTestCloud(['h1']);
  home = createDemoHome('home');
  hub = await startHub({ id: 'h1', name: 'Home', cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home });
  const open = (c: typeof FULL) => openSession(cloud.url, hub.url, c, 'h1');
  [sessions.full, sessions.readonly, sessions.flowsOnly] = await Promise.all([open(FULL), open(READONLY), open(FLOWS_ONLY)]);
  const keys = await generateKeyPair('ES256');
  testHub = await startHub({ id: 'h9', name: 'Test', cloudIssuer: ISSUER, cloudPublicJwk: await exportJWK(keys.publicKey), home: createDemoHome('cabin') });
  signToken = (scope) => {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: ISSUER, aud: 'hub', sub: 'u1', iat, exp: iat + 60, jti: crypto.randomUUID(), scope, hubs: ['h9'], client_id: 'c' })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(keys.privateKey);
  };
});
afterAll(async () => {
  await Promise.all([hub?.close(), testHub?.close(), cloud?.close()]);
});

const get = (path: string, session?: string, base = hub.url) => fetch(`${base}${path}`, { headers: session ? { authorization: `Bearer ${session}` } : {} });
const anyDevice = () => Object.values(home.devices())[0]!;

describe('the ping', () => {
  it('names the hub and its software version in headers, with and without a nonce', async () => {
    for (const query of ['id=h1', 'id=someone-else', `id=h1&nonce=${'a'.repeat(22)}`]) {
      const response = await fetch(`${hub.url}/api/manager/system/ping?${query}`, { headers: { 'x-homey-id': 'h1' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-homey-id')).toBe('h1');
      expect(response.headers.get('x-homey-version')).toBe(HUB_SOFTWARE_VERSION);
    }
  });
});

describe('one device and the zones', () => {
  it('answers one device as the device list has it', async () => {
    const device = anyDevice();
    const response = await get(`/api/manager/devices/device/${device.id}`, sessions.readonly);
    expect(response.status).toBe(200);
    expect(DeviceSchema.parse(await response.json())).toEqual(home.device(device.id));
  });

  it('lists the zones every device names, and answers one zone', async () => {
    const zones = (await (await get('/api/manager/zones/zone', sessions.readonly)).json()) as Record<string, { id: string; name: string; parent: null }>;
    const named = new Map(Object.values(home.devices()).map((device) => [device.zone, device.zoneName]));
    expect(new Map(Object.values(zones).map((zone) => [zone.id, zone.name]))).toEqual(named);
    for (const [id, zone] of Object.entries(zones)) expect(zone).toEqual({ id, name: named.get(id), parent: null });
    const [first] = Object.values(zones);
    expect(await (await get(`/api/manager/zones/zone/${first!.id}`, sessions.full)).json()).toEqual(first);
  });

  it.each<[string, string, string | undefined, number, string]>([
    ['an unknown device', '/api/manager/devices/device/nope', 'readonly', 404, 'unknown_device'],
    ['an unknown zone', '/api/manager/zones/zone/nope', 'readonly', 404, 'unknown_zone'],
    ['a zone named like an object property', '/api/manager/zones/zone/__proto__', 'readonly', 404, 'unknown_zone'],
    ['a device without a session', `/api/manager/devices/device/{device}`, undefined, 401, 'invalid_token'],
    ['the zones without a session', '/api/manager/zones/zone', undefined, 401, 'invalid_token'],
    ['a device for a session without a device scope', `/api/manager/devices/device/{device}`, 'flowsOnly', 403, 'insufficient_scope'],
    ['the zones for a session without a device scope', '/api/manager/zones/zone', 'flowsOnly', 403, 'insufficient_scope'],
  ])('refuses %s', async (_name, path, session, status, error) => {
    const response = await get(path.replace('{device}', anyDevice().id), session && sessions[session as keyof typeof sessions]);
    if (status === 403) expect(response.headers.get('www-authenticate')).toMatch(/scope="devices.readonly"/);
    await expectError(response, status, error);
  });
});

describe('scopes in the official client’s names', () => {
  const sessionMe = async (session: string, base = hub.url) => {
    const body = (await (await get('/api/manager/sessions/session/me', session, base)).json()) as { intersectedScopes: string[] };
    return { ...SessionInfoSchema.parse(body), intersectedScopes: body.intersectedScopes };
  };

  it('reports a session’s scopes in them as intersectedScopes, with what each implies', async () => {
    expect((await sessionMe(sessions.full)).intersectedScopes.sort()).toEqual([
      'homey.device.control',
      'homey.device.readonly',
      'homey.flow.readonly',
      'homey.flow.start',
      'homey.insights.readonly',
      'homey.zone.readonly',
    ]);
    expect((await sessionMe(sessions.readonly)).intersectedScopes.sort()).toEqual(['homey.device.readonly', 'homey.flow.readonly', 'homey.zone.readonly']);
    expect((await sessionMe(sessions.flowsOnly)).intersectedScopes).toEqual(['homey.flow.readonly']);
  });

  it('reads them in a delegation token as ours; names it does not know grant nothing', async () => {
    const login = async (scope: string) => {
      const response = await fetch(`${testHub.url}/api/manager/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: await signToken(scope) }),
      });
      expect(response.status).toBe(200);
      return (await sessionMe((await response.json()) as string, testHub.url)).scopes.sort();
    };
    expect(await login('homey.device.readonly homey.flow.start')).toEqual(['devices.readonly', 'flow.start']);
    expect(await login('homey.device.control homey.insights.readonly')).toEqual(['devices', 'insights.readonly']);
    expect(await login('homey.zone.readonly homey.alarm homey homey.')).toEqual([]);
  });
});
