/**
 * The hub's control routes over real sockets, with sessions from a real cloud: setting capabilities
 * (values checked, scopes enforced, refusals explained), the session's own scopes, the flows, and bad
 * input that must leave the hub serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityEventDataSchema, FlowMapSchema, FlowTriggerResultSchema, SessionInfoSchema } from '../../../common/hub-control';
import type { RunningCloud } from '../../../services/cloud/cloud';
import { createDemoHome, type DemoHome } from '../../../services/hub/demo-home';
import { type RunningHub, startHub } from '../../../services/hub/hub';
import { expectError, FLOWS_ONLY, FULL, openSession, READONLY, startTestCloud } from './hub-fixture';

let cloud: RunningCloud;
let hub: RunningHub;
let home: DemoHome;
let full: string;
let readonly: string;
let flowsOnly: string;
const deviceId = (name: string) => Object.values(home.devices()).find((device) => device.name === name)!.id;

beforeAll(async () => {
  cloud = await startTestCloud(['h1']);
  home = createDemoHome('home');
  hub = await startHub({ id: 'h1', name: 'Home', cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home });
  const open = (c: typeof FULL) => openSession(cloud.url, hub.url, c, 'h1');
  [full, readonly, flowsOnly] = await Promise.all([open(FULL), open(READONLY), open(FLOWS_ONLY)]);
});
afterAll(async () => {
  await Promise.all([hub?.close(), cloud?.close()]);
});

const put = (device: string, capability: string, body: unknown, session: string | null = full, contentType = 'application/json') =>
  fetch(`${hub.url}/api/manager/devices/device/${encodeURIComponent(device)}/capability/${encodeURIComponent(capability)}`, {
    method: 'PUT',
    headers: { 'content-type': contentType, ...(session ? { authorization: `Bearer ${session}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = (path: string, session?: string) => fetch(`${hub.url}${path}`, { headers: session ? { authorization: `Bearer ${session}` } : {} });
const trigger = (flowId: string, session?: string) =>
  fetch(`${hub.url}/api/manager/flow/flow/${flowId}/trigger`, { method: 'POST', headers: session ? { authorization: `Bearer ${session}` } : {} });

describe('setting a capability', () => {
  it('stores a valid value and answers with it, the client’s transaction id and the hub’s time', async () => {
    const response = await put(deviceId('Floor lamp'), 'dim', { value: 0.35, transactionId: 'app-tx_1' });
    expect(response.status).toBe(200);
    const event = CapabilityEventDataSchema.parse(await response.json());
    expect(event).toMatchObject({ capabilityId: 'dim', value: 0.35, transactionId: 'app-tx_1' });
    expect(Number.isNaN(Date.parse(event.time))).toBe(false);
    expect(home.device(deviceId('Floor lamp'))!.capabilitiesObj!.dim!.value).toBe(0.35);
  });

  it('makes a transaction id when the client sent none', async () => {
    const event = CapabilityEventDataSchema.parse(await (await put(deviceId('Floor lamp'), 'onoff', { value: true })).json());
    expect(event.transactionId).toMatch(/^hub-/);
  });

  it.each<[string, string, string, unknown, number, string]>([
    ['a value of the wrong type', 'Floor lamp', 'onoff', { value: 'on' }, 400, 'invalid_value'],
    ['a number out of range', 'Living room thermostat', 'target_temperature', { value: 40 }, 400, 'invalid_value'],
    ['a number off its step', 'Living room thermostat', 'target_temperature', { value: 21.3 }, 400, 'invalid_value'],
    ['an unknown enum value', 'Living room blinds', 'windowcoverings_state', { value: 'open' }, 400, 'invalid_value'],
    ['a read-only capability', 'Living room thermostat', 'measure_temperature', { value: 25 }, 400, 'not_setable'],
    ['an unavailable device', 'Sprinkler', 'onoff', { value: true }, 409, 'device_unavailable'],
    ['an unknown capability', 'Floor lamp', 'volume_set', { value: 0.5 }, 404, 'unknown_capability'],
  ])('refuses %s and says why', async (_name, device, capability, body, status, error) => {
    const before = home.device(deviceId(device));
    const response = await put(deviceId(device), capability, body);
    const text = await response.clone().text();
    await expectError(response, status, error);
    expect(JSON.parse(text).error_description).toMatch(/\w/);
    expect(home.device(deviceId(device))).toEqual(before);
  });

  it('refuses an unknown device with 404', async () => {
    await expectError(await put('no-such-device', 'onoff', { value: true }), 404, 'unknown_device');
  });

  it('needs the devices scope: 403 with WWW-Authenticate for a read-only session, 401 without a session', async () => {
    const refused = await put(deviceId('Floor lamp'), 'onoff', { value: true }, readonly);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="hub", error="insufficient_scope", scope="devices"');
    await expectError(refused, 403, 'insufficient_scope');
    await expectError(await put(deviceId('Floor lamp'), 'onoff', { value: true }, null), 401, 'invalid_token');
  });
});

describe('the session', () => {
  it('tells the caller its scopes and expiry', async () => {
    const info = SessionInfoSchema.parse(await (await get('/api/manager/sessions/session/me', readonly)).json());
    expect(info.scopes.sort()).toEqual(['devices.readonly', 'flow.readonly']);
    expect(Date.parse(info.expiresAt)).toBeGreaterThan(Date.now());
    await expectError(await get('/api/manager/sessions/session/me', 'unknown'), 401, 'invalid_token');
  });
});

describe('flows', () => {
  it('lists the flows with flow.readonly or flow.start, and refuses a session with neither', async () => {
    const list = FlowMapSchema.parse(await (await get('/api/manager/flow/flow', readonly)).json());
    expect(Object.values(list).map((flow) => flow.name)).toContain('Good night');
    expect(FlowMapSchema.parse(await (await get('/api/manager/flow/flow', full)).json())).toEqual(list);
    const noDevicesNoFlowStart = await openSession(cloud.url, hub.url, FLOWS_ONLY, 'h1');
    expect((await get('/api/manager/flow/flow', noDevicesNoFlowStart)).status).toBe(200);
  });

  it('triggers a flow with flow.start, which changes devices; refuses flow.readonly, disabled and unknown flows', async () => {
    const list = FlowMapSchema.parse(await (await get('/api/manager/flow/flow', full)).json());
    const byName = (name: string) => Object.values(list).find((flow) => flow.name === name)!.id;
    await expectError(await trigger(byName('Good night'), readonly), 403, 'insufficient_scope');
    await expectError(await trigger(byName('Good night'), flowsOnly), 403, 'insufficient_scope');
    const response = await trigger(byName('Good night'), full);
    expect(response.status).toBe(200);
    expect(FlowTriggerResultSchema.parse(await response.json()).id).toBe(byName('Good night'));
    expect(home.device(deviceId('Front door lock'))!.capabilitiesObj!.locked!.value).toBe(true);
    expect(home.device(deviceId('Ceiling light'))!.capabilitiesObj!.onoff!.value).toBe(false);
    await expectError(await trigger(byName('Holiday lights'), full), 409, 'flow_disabled');
    await expectError(await trigger('nope', full), 404, 'unknown_flow');
  });
});

describe('bad input', () => {
  const lamp = () => deviceId('Floor lamp');
  it.each<[string, () => Promise<Response>, number, string]>([
    ['malformed JSON', () => put(lamp(), 'onoff', '{"value":'), 400, 'invalid_request'],
    ['a JSON array', () => put(lamp(), 'onoff', '[true]'), 400, 'invalid_request'],
    ['no value', () => put(lamp(), 'onoff', {}), 400, 'invalid_request'],
    ['a null value', () => put(lamp(), 'onoff', { value: null }), 400, 'invalid_request'],
    ['an object value', () => put(lamp(), 'onoff', { value: { on: true } }), 400, 'invalid_request'],
    ['a numeric transaction id', () => put(lamp(), 'onoff', { value: true, transactionId: 7 }), 400, 'invalid_request'],
    ['a transaction id with spaces', () => put(lamp(), 'onoff', { value: true, transactionId: 'a b' }), 400, 'invalid_request'],
    ['a string value over 1 KiB', () => put(lamp(), 'onoff', { value: 'x'.repeat(2000) }), 400, 'invalid_request'],
    ['a huge body', () => put(lamp(), 'onoff', { value: true, padding: 'x'.repeat(40_000) }), 413, 'payload_too_large'],
    ['a text body', () => put(lamp(), 'onoff', '{"value":true}', full, 'text/plain'), 415, 'unsupported_media_type'],
    ['a form body', () => put(lamp(), 'onoff', 'value=true', full, 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'],
  ])('answers %s with a clear error and keeps serving', async (_name, send, status, error) => {
    await expectError(await send(), status, error);
    expect((await put(lamp(), 'onoff', { value: false })).status).toBe(200);
  });
});
