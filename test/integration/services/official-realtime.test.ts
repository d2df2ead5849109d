/**
 * The official client's realtime (docs/interface.md A.7, docs/hub-realtime.md "The official client's
 * realtime") over real sockets: homey-api, as installed and unpatched, connects to the reference hub
 * with a session from a real cloud, hears changes made by another client, keeps its manager calls
 * working over the socket, and is closed by a logout; socket.io-client 2 (the one homey-api brings)
 * sends what homey-api never would — a malformed handshake, a wrong token, an oversized message, a
 * subscription outside the session's scopes — and the hub closes or refuses that one and keeps serving
 * the others; and the same channel on the HTTPS listener and through the relay.
 */
import { createRequire } from 'node:module';
import { HomeyAPI } from 'homey-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningCloud } from '../../../services/cloud/cloud';
import { createDemoHome, type DemoHome } from '../../../services/hub/demo-home';
import { type RunningHub, startHub } from '../../../services/hub/hub';
import { OFFICIAL_NAMESPACE } from '../../../services/hub/official-realtime';
import { startRelay } from '../../../services/relay/relay';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { FLOWS_ONLY, FULL, openSession, READONLY, startTestCloud } from './hub-fixture';

/** socket.io-client 2, as homey-api uses it (no type declarations of its own). */
interface RawSocket {
  connected: boolean;
  io: { socket(namespace: string): RawSocket };
  emit(event: string, ...args: unknown[]): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
  open(): void;
  close(): void;
}
const connectRaw = createRequire(import.meta.url)('socket.io-client') as (url: string, options: Record<string, unknown>) => RawSocket;

/** The parts of homey-api this test uses, as its code has them (its type declarations leave out the managers). */
interface ClientDevice {
  id: string;
  name: string;
  available: boolean;
  capabilitiesObj: Record<string, { value: unknown }>;
  makeCapabilityInstance(capabilityId: string, listener: (value: unknown) => void): { destroy(): void };
  setCapabilityValue(change: { capabilityId: string; value: boolean | number | string }): Promise<unknown>;
}
interface ClientHubApi {
  devices: {
    connect(): Promise<void>;
    getDevices(): Promise<Record<string, ClientDevice>>;
    on(event: 'device.update', listener: (device: ClientDevice) => void): void;
  };
  isConnected(): boolean;
  once(event: 'disconnect', listener: (reason: string) => void): void;
  destroy(): void;
}

let cloud: RunningCloud;
let home: DemoHome;
let hub: RunningHub;
let certificates: Awaited<ReturnType<typeof createStackCertificates>>;
let relay: Awaited<ReturnType<typeof startRelay>>;
const opened: { close(): void }[] = [];

beforeAll(async () => {
  cloud = await startTestCloud(['h1']);
  home = createDemoHome('home');
  certificates = await createStackCertificates(['127.0.0.1']);
  hub = await startHub({ id: 'h1', name: 'Home', cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home, tls: certificates.server });
  relay = await startRelay({ target: hub.url, latencyMs: 5 });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await Promise.all([relay?.close(), hub?.close(), cloud?.close()]);
});

const session = (client = FULL) => openSession(cloud.url, hub.url, client, 'h1');
const lampId = () => Object.values(home.devices()).find((device) => device.name === 'Floor lamp')!.id;
/** A change made by another client: the hub's HTTP API with a session of its own. */
async function changeOverHttp(token: string, deviceId: string, capabilityId: string, value: unknown): Promise<void> {
  const response = await fetch(`${hub.url}/api/manager/devices/device/${deviceId}/capability/${capabilityId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ value }),
  });
  expect(response.status).toBe(200);
}

/** Values as a listener hears them: `next()` is the next one, heard already or still to come. */
class Heard<T> {
  private readonly values: T[] = [];
  private waiting: ((value: T) => void) | undefined;
  readonly listener = (value: T) => {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve(value);
    } else this.values.push(value);
  };
  next(): Promise<T> {
    return this.values.length > 0 ? Promise.resolve(this.values.shift()!) : new Promise((resolve) => (this.waiting = resolve));
  }
}

/** A socket.io 2 connection to the hub, connected to its root namespace, made as homey-api makes it (SocketSession.js). */
async function rawConnection(url = hub.url, options: Record<string, unknown> = {}): Promise<RawSocket> {
  const socket = connectRaw(url, { transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false, ...options });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error as Error));
    socket.open();
  });
  return socket;
}
/** An emit whose acknowledgement is awaited: its arguments. */
const ask = (socket: RawSocket, event: string, ...args: unknown[]) =>
  new Promise<unknown[]>((resolve) => socket.emit(event, ...args, (...answer: unknown[]) => resolve(answer)));
const disconnected = (socket: RawSocket) => new Promise<unknown>((resolve) => socket.once('disconnect', resolve));
/** Handshakes on the root namespace and joins /api: the /api socket, ready for subscribe and api. */
async function rawApi(token: string, url = hub.url, options: Record<string, unknown> = {}): Promise<{ root: RawSocket; api: RawSocket }> {
  const root = await rawConnection(url, options);
  const [error, result] = await ask(root, 'handshakeClient', { token, homeyId: 'h1' });
  expect(error).toBeNull();
  expect(result).toEqual({ namespace: OFFICIAL_NAMESPACE });
  const api = root.io.socket(OFFICIAL_NAMESPACE);
  await new Promise<void>((resolve) => {
    api.once('connect', () => resolve());
    api.open();
  });
  return { root, api };
}

describe('homey-api, unpatched, against the hub', () => {
  let homey: ClientHubApi;
  let token: string;
  let other: string;

  beforeAll(async () => {
    [token, other] = await Promise.all([session(), session()]);
    homey = (await HomeyAPI.createLocalAPI({ address: hub.url, token, debug: null })) as unknown as ClientHubApi;
    opened.push({ close: () => homey.destroy() });
  });

  it('connects: devices.connect() resolves over the socket', async () => {
    await homey.devices.connect();
    expect(homey.isConnected()).toBe(true);
  });

  it('hears a change made by another client in a capability instance’s listener, and a second one too', async () => {
    const lamp = (await homey.devices.getDevices())[lampId()]!;
    expect(lamp.capabilitiesObj.onoff!.value).toBe(false);
    const heard = new Heard<unknown>();
    const instance = lamp.makeCapabilityInstance('onoff', heard.listener);
    await changeOverHttp(other, lamp.id, 'onoff', true);
    expect(await heard.next()).toBe(true);
    await changeOverHttp(other, lamp.id, 'onoff', false);
    expect(await heard.next()).toBe(false);
    instance.destroy();
  });

  it('fires devices.on("device.update") when a device changes', async () => {
    const heard = new Heard<ClientDevice>();
    homey.devices.on('device.update', heard.listener);
    home.setAvailable(lampId(), false);
    const updated = await heard.next();
    expect(updated.id).toBe(lampId());
    expect(updated.available).toBe(false);
    home.setAvailable(lampId(), true);
    expect((await heard.next()).available).toBe(true);
  });

  it('keeps getDevices and setCapabilityValue working while connected (over the socket)', async () => {
    expect(homey.isConnected()).toBe(true);
    const devices = await homey.devices.getDevices();
    expect(Object.keys(devices).sort()).toEqual(Object.keys(home.devices()).sort());
    await devices[lampId()]!.setCapabilityValue({ capabilityId: 'onoff', value: true });
    expect(home.device(lampId())!.capabilitiesObj!.onoff!.value).toBe(true);
  });

  it('answers a refused change with the route’s error', async () => {
    const devices = await homey.devices.getDevices();
    await expect(devices[lampId()]!.setCapabilityValue({ capabilityId: 'onoff', value: 'not a boolean' })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('is closed when its session logs out', async () => {
    const closed = new Promise<string>((resolve) => homey.once('disconnect', resolve));
    const logout = await fetch(`${hub.url}/api/manager/users/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(204);
    expect(await closed).toBe('io server disconnect');
    homey.destroy();
  });
});

describe('what homey-api would never send', () => {
  let witness: RawSocket;
  let witnessEvents: Heard<unknown[]>;
  let changer: string;

  beforeAll(async () => {
    changer = await session();
    ({ api: witness } = await rawApi(await session(READONLY)));
    witnessEvents = new Heard<unknown[]>();
    witness.on(`homey:device:${lampId()}`, (...args) => witnessEvents.listener(args));
    expect(await ask(witness, 'subscribe', `homey:device:${lampId()}`)).toEqual([null]);
  });

  /** Another client still hears changes: the hub kept serving. */
  async function hubStillServes(value: boolean): Promise<void> {
    await changeOverHttp(changer, lampId(), 'onoff', value);
    const [event, data] = await witnessEvents.next();
    expect(event).toBe('capability');
    expect(data).toMatchObject({ capabilityId: 'onoff', value, transactionId: expect.any(String), transactionTime: expect.any(Number) });
  }

  it('closes the connection of a malformed handshake', async () => {
    const socket = await rawConnection();
    const gone = disconnected(socket);
    socket.emit('handshakeClient', 'not an object', () => undefined);
    expect(await gone).toBe('io server disconnect');
    await hubStillServes(false);
  });

  it('closes the connection of an event the hub does not know', async () => {
    const socket = await rawConnection();
    const gone = disconnected(socket);
    socket.emit('shutdown', {});
    expect(await gone).toBe('io server disconnect');
    await hubStillServes(true);
  });

  it('answers a wrong token with 401 and keeps /api closed to it', async () => {
    const socket = await rawConnection();
    const [error] = await ask(socket, 'handshakeClient', { token: 'x'.repeat(43), homeyId: 'h1' });
    expect(error).toMatchObject({ statusCode: 401, error: 'invalid_token' });
    const api = socket.io.socket(OFFICIAL_NAMESPACE);
    const refused = new Promise<unknown>((resolve) => api.once('error', resolve));
    api.open();
    expect(String(await refused)).toMatch(/handshake/i);
    await hubStillServes(false);
  });

  it('closes the connection of an oversized message', async () => {
    const socket = await rawConnection();
    const gone = disconnected(socket);
    socket.emit('handshakeClient', { token: 'x'.repeat(300 * 1024), homeyId: 'h1' }, () => undefined);
    expect(await gone).toBe('transport close');
    await hubStillServes(true);
  });

  it('refuses subscriptions outside the session’s scope or the home, and closes on a malformed one', async () => {
    const { api } = await rawApi(await session(FLOWS_ONLY));
    expect(await ask(api, 'subscribe', `homey:device:${lampId()}`)).toEqual([expect.objectContaining({ statusCode: 403, error: 'insufficient_scope' })]);
    expect(await ask(api, 'subscribe', 'homey:manager:devices')).toEqual([expect.objectContaining({ statusCode: 403 })]);
    const { api: readonly } = await rawApi(await session(READONLY));
    expect(await ask(readonly, 'subscribe', 'homey:device:nope')).toEqual([expect.objectContaining({ statusCode: 404, error: 'unknown_device' })]);
    expect(await ask(readonly, 'subscribe', 'homey:manager:apps')).toEqual([expect.objectContaining({ statusCode: 404 })]);
    const [refused] = await ask(readonly, 'api', {
      uri: 'homey:manager:devices',
      operation: 'setCapabilityValue',
      args: { deviceId: lampId(), capabilityId: 'onoff', value: true },
    });
    expect(refused).toMatchObject({ statusCode: 403, error: 'insufficient_scope' });
    const gone = disconnected(readonly);
    readonly.emit('subscribe', { uri: 'not a string' }, () => undefined);
    expect(await gone).toBe('io server disconnect');
    await hubStillServes(false);
  });
});

describe('on the HTTPS listener and through the relay', () => {
  it.each([
    ['the HTTPS listener', () => hub.secureUrl!],
    ['the relay', () => relay.url],
  ])('handshakes, subscribes and delivers a change on %s', async (_name, url) => {
    const { api } = await rawApi(await session(READONLY), url(), { ca: certificates.ca });
    const heard = new Heard<unknown[]>();
    api.on('homey:manager:devices', (...args) => heard.listener(args));
    expect(await ask(api, 'subscribe', 'homey:manager:devices')).toEqual([null]);
    home.setAvailable(lampId(), false);
    expect(await heard.next()).toEqual(['device.update', expect.objectContaining({ id: lampId(), available: false })]);
    home.setAvailable(lampId(), true);
  });
});

describe('api calls, answered by the hub’s own routes', () => {
  it('answers zones, a device’s history, the session and a flow, and 404 for what the hub does not serve', async () => {
    const { api } = await rawApi(await session());
    const call = async (uri: string, operation: string, args: Record<string, unknown> = {}) => ask(api, 'api', { uri, operation, args });
    const [, zones] = await call('homey:manager:zones', 'getZones');
    expect(zones).toEqual(home.zones());
    const lamp = `homey:device:${lampId()}`;
    const [error, entries] = await call('homey:manager:insights', 'getLogEntries', { uri: lamp, id: `${lamp}:onoff`, resolution: 'lastHour' });
    expect(error).toBeNull();
    expect(entries).toMatchObject({ values: expect.any(Array) });
    expect((await call('homey:manager:sessions', 'getSessionMe'))[1]).toMatchObject({ intersectedScopes: expect.arrayContaining(['homey.device.control']) });
    const [, flows] = (await call('homey:manager:flow', 'getFlows')) as [null, Record<string, { id: string; name: string }>];
    const movieTime = Object.values(flows).find((flow) => flow.name === 'Movie time')!;
    expect(await call('homey:manager:flow', 'triggerFlow', { id: movieTime.id })).toEqual([null, expect.objectContaining({ id: movieTime.id })]);
    expect((await call('homey:manager:apps', 'getApps'))[0]).toMatchObject({ statusCode: 404, error: 'unknown_operation' });
  });
});

describe('a reader too slow', () => {
  it('is closed once more than maxBufferedBytes wait to be sent to it', async () => {
    const slowHome = createDemoHome('home');
    const busy = await startHub({
      id: 'h1',
      name: 'Busy',
      cloudIssuer: cloud.issuer,
      cloudPublicJwk: cloud.publicJwk,
      home: slowHome,
      realtime: { maxBufferedBytes: 64 * 1024 },
    });
    try {
      const { root, api } = await rawApi(await openSession(cloud.url, busy.url, READONLY, 'h1'), busy.url);
      expect(await ask(api, 'subscribe', 'homey:manager:devices')).toEqual([null]);
      // The client stops reading; once the kernel's buffers are full, what waits at the hub grows past the bound.
      const tcp = (root.io as unknown as { engine: { transport: { ws: { _socket: { pause(): void; resume(): void } } } } }).engine.transport.ws._socket;
      tcp.pause();
      const gone = disconnected(root);
      const device = Object.keys(slowHome.devices())[0]!;
      for (let batch = 0; batch < 20; batch++) {
        for (let i = 0; i < 500; i++) slowHome.setAvailable(device, i % 2 === 0);
        await new Promise((resolve) => setImmediate(resolve));
      }
      tcp.resume();
      expect(['io server disconnect', 'transport close']).toContain(await gone);
    } finally {
      await busy.close();
    }
  });
});

describe('the hub ending every session', () => {
  it('closes every handshaken connection', async () => {
    const { root } = await rawApi(await session());
    const gone = disconnected(root);
    hub.expireSessions();
    expect(await gone).toBe('io server disconnect');
  });
});
