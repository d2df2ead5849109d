/**
 * The hub's realtime channel over real sockets: a change made by one client reaches another as its
 * next event with the first client's transaction id; device added/removed on the manager URI; every
 * way the hub closes a socket (auth timeout, bad token, missing scope, protocol errors, oversized
 * frames, too slow a reader, session expiry by expireSessions and by time, shutdown); and the same
 * channel over TLS and through the relay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOSE_AUTH_TIMEOUT,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_SESSION_EXPIRED,
  CLOSE_TOO_SLOW,
  CLOSE_UNAUTHORISED,
  deviceUri,
  MANAGER_DEVICES_URI,
  REALTIME_MAX_CLIENT_MESSAGE_BYTES,
  REALTIME_PING,
  REALTIME_PONG,
} from '../../../common/hub-control';
import type { RunningCloud } from '../../../services/cloud/cloud';
import { createDemoHome, type DemoHome } from '../../../services/hub/demo-home';
import { type HubOptions, type RunningHub, startHub } from '../../../services/hub/hub';
import { startRelay } from '../../../services/relay/relay';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { FLOWS_ONLY, FULL, openSession, READONLY, RealtimeTestClient, startTestCloud } from './hub-fixture';

const HUB_IDS = ['h1', 'h2', 'h3', 'h4', 'h5'];
let cloud: RunningCloud;
let hub: RunningHub;
let home: DemoHome;
const started: RunningHub[] = [];
const lampId = () => Object.values(home.devices()).find((device) => device.name === 'Floor lamp')!.id;

async function launch(id: string, options: Partial<HubOptions> = {}): Promise<RunningHub> {
  const running = await startHub({ id, name: id, cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home: createDemoHome('home'), ...options });
  started.push(running);
  return running;
}

beforeAll(async () => {
  cloud = await startTestCloud(HUB_IDS);
  home = createDemoHome('home');
  hub = await launch('h1', { home, realtime: { authTimeoutMs: 300 } });
});
afterAll(async () => {
  await Promise.all([...started.map((h) => h.close()), cloud?.close()]);
});

const session = (c = FULL, on: RunningHub = hub) => openSession(cloud.url, on.url, c, on.id);
const setValue = (token: string, deviceId: string, capabilityId: string, body: unknown) =>
  fetch(`${hub.url}/api/manager/devices/device/${deviceId}/capability/${capabilityId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe('events', () => {
  it('answers auth with ready, carrying the session’s scopes and expiry', async () => {
    const token = await session(READONLY);
    const client = await RealtimeTestClient.connect(hub.url);
    client.send({ type: 'auth', token });
    const ready = await client.next();
    expect(ready).toMatchObject({ type: 'ready', scopes: expect.arrayContaining(['devices.readonly']) });
    expect(ready.type === 'ready' && Date.parse(ready.expiresAt) > Date.now()).toBe(true);
    await client.close();
  });

  it('says in ready that it answers ping, and answers each ping with pong at once, between events', async () => {
    const token = await session(READONLY);
    const client = await RealtimeTestClient.connect(hub.url);
    const raw: string[] = [];
    client.socket.on('message', (data: Buffer) => raw.push(data.toString('utf8')));
    client.send({ type: 'auth', token });
    expect(await client.next()).toMatchObject({ type: 'ready', answersPing: true });
    client.send(REALTIME_PING);
    client.send(REALTIME_PING);
    expect(await client.next()).toEqual({ type: 'pong' });
    expect(await client.next()).toEqual({ type: 'pong' });
    expect(raw.slice(1)).toEqual([REALTIME_PONG, REALTIME_PONG]); // exactly the text the app compares
    await client.close();
  });

  it('delivers a change made by one client to another as its next event, with the first client’s transaction id', async () => {
    const [writer, watcherToken] = [await session(FULL), await session(READONLY)];
    const watcher = await RealtimeTestClient.subscribed(hub.url, watcherToken, [deviceUri(lampId())]);
    const echo = await RealtimeTestClient.subscribed(hub.url, writer, [deviceUri(lampId())]);
    expect((await setValue(writer, lampId(), 'dim', { value: 0.42, transactionId: 'tx-42' })).status).toBe(200);
    const expected = {
      type: 'event',
      uri: deviceUri(lampId()),
      event: 'capability',
      data: { capabilityId: 'dim', value: 0.42, transactionId: 'tx-42', time: expect.any(String) },
    };
    expect(await watcher.next()).toEqual(expected);
    expect(await echo.next()).toEqual(expected);
    await Promise.all([watcher.close(), echo.close()]);
  });

  it('sends a hub-made change (a flow) with a null transaction id, and nothing after unsubscribe', async () => {
    const token = await session(FULL);
    const client = await RealtimeTestClient.subscribed(hub.url, token, [deviceUri(lampId())]);
    home.setCapability(lampId(), 'onoff', true, null);
    expect(await client.next()).toMatchObject({ event: 'capability', data: { capabilityId: 'onoff', value: true, transactionId: null } });
    client.send({ type: 'unsubscribe', uris: [deviceUri(lampId()), 'hub:device:never-subscribed'] });
    expect(await client.next()).toEqual({ type: 'unsubscribed', uris: [deviceUri(lampId())] });
    home.setCapability(lampId(), 'onoff', false, null);
    // The hub answers in order, so an answer to a later message proves no event was sent in between.
    client.send({ type: 'subscribe', uris: [MANAGER_DEVICES_URI] });
    expect(await client.next()).toEqual({ type: 'subscribed', uris: [MANAGER_DEVICES_URI], unknown: [] });
    await client.close();
  });

  it('reports devices added, changed and removed on the manager URI', async () => {
    const client = await RealtimeTestClient.subscribed(hub.url, await session(READONLY), [MANAGER_DEVICES_URI]);
    const added = home.addDevice({ key: 'realtime-test', name: 'Test lamp', class: 'light', zone: 'office', values: { onoff: false } });
    home.setAvailable(added.id, false);
    home.removeDevice(added.id);
    expect(await client.next()).toMatchObject({ uri: MANAGER_DEVICES_URI, event: 'device.create', data: { id: added.id, name: 'Test lamp' } });
    expect(await client.next()).toMatchObject({ event: 'device.update', data: { id: added.id, available: false } });
    expect(await client.next()).toEqual({ type: 'event', uri: MANAGER_DEVICES_URI, event: 'device.delete', data: { id: added.id } });
    await client.close();
  });

  it('lists URIs of unknown devices as unknown, and answers other URIs with an error message, keeping the socket open', async () => {
    const client = await RealtimeTestClient.subscribed(hub.url, await session(READONLY), [deviceUri(lampId())]);
    client.send({ type: 'subscribe', uris: [deviceUri('nope'), MANAGER_DEVICES_URI, 'hub:flows'] });
    expect(await client.next()).toEqual({ type: 'subscribed', uris: [MANAGER_DEVICES_URI], unknown: [deviceUri('nope')] });
    expect(await client.next()).toMatchObject({ type: 'error', message: expect.stringContaining('hub:flows') });
    client.send({ type: 'unsubscribe', uris: [MANAGER_DEVICES_URI] });
    expect(await client.next()).toEqual({ type: 'unsubscribed', uris: [MANAGER_DEVICES_URI] });
    await client.close();
  });
});

describe('closing', () => {
  const closedAfter = async (messages: (string | Buffer)[], baseUrl = hub.url) => {
    const client = await RealtimeTestClient.connect(baseUrl);
    for (const message of messages) client.socket.send(message);
    return client.closed;
  };

  it('closes a socket that does not authenticate in time', async () => {
    expect(await closedAfter([])).toMatchObject({ code: CLOSE_AUTH_TIMEOUT, reason: expect.stringMatching(/\w/) });
  });

  it('closes on a bad token and on a session without a device scope', async () => {
    expect((await closedAfter([JSON.stringify({ type: 'auth', token: 'not-a-session' })])).code).toBe(CLOSE_UNAUTHORISED);
    expect(await closedAfter([JSON.stringify({ type: 'auth', token: await session(FLOWS_ONLY) })])).toMatchObject({
      code: CLOSE_UNAUTHORISED,
      reason: expect.stringContaining('devices.readonly'),
    });
  });

  it.each<[string, () => Promise<(string | Buffer)[]>]>([
    ['malformed JSON', async () => ['{"type":']],
    ['an unknown message type', async () => [JSON.stringify({ type: 'hello' })]],
    ['a token that is not a string', async () => [JSON.stringify({ type: 'auth', token: 42 })]],
    ['subscribe before auth', async () => [JSON.stringify({ type: 'subscribe', uris: [MANAGER_DEVICES_URI] })]],
    ['ping before auth', async () => [REALTIME_PING]],
    ['a binary frame', async () => [Buffer.from('{"type":"auth","token":"x"}')]],
    [
      'a second auth',
      async () => {
        const token = await session();
        return [JSON.stringify({ type: 'auth', token }), JSON.stringify({ type: 'auth', token })];
      },
    ],
    [
      'an empty subscribe',
      async () => {
        const token = await session();
        return [JSON.stringify({ type: 'auth', token }), JSON.stringify({ type: 'subscribe', uris: [] })];
      },
    ],
  ])('closes with CLOSE_PROTOCOL_ERROR on %s', async (_name, messages) => {
    expect((await closedAfter(await messages())).code).toBe(CLOSE_PROTOCOL_ERROR);
  });

  it('refuses a frame over the size limit (1009) and keeps serving others', async () => {
    expect((await closedAfter(['x'.repeat(REALTIME_MAX_CLIENT_MESSAGE_BYTES + 1)])).code).toBe(1009);
    expect((await fetch(`${hub.url}/api/manager/system/ping?id=h1`)).status).toBe(200);
  });

  it('closes every socket with CLOSE_SESSION_EXPIRED when the hub ends the sessions', async () => {
    const own = await launch('h2');
    const clients = await Promise.all([FULL, READONLY].map(async (c) => RealtimeTestClient.subscribed(own.url, await session(c, own), [MANAGER_DEVICES_URI])));
    own.expireSessions();
    for (const client of clients) expect(await client.closed).toMatchObject({ code: CLOSE_SESSION_EXPIRED, reason: expect.stringMatching(/session/) });
  });

  it('closes the sockets of a session that logs out, and only those', async () => {
    const [ending, staying] = [await session(FULL), await session(FULL)];
    const endingClient = await RealtimeTestClient.subscribed(hub.url, ending, [MANAGER_DEVICES_URI]);
    const stayingClient = await RealtimeTestClient.subscribed(hub.url, staying, [MANAGER_DEVICES_URI]);
    const logout = await fetch(`${hub.url}/api/manager/users/logout`, { method: 'POST', headers: { authorization: `Bearer ${ending}` } });
    expect(logout.status).toBe(204);
    expect(await endingClient.closed).toMatchObject({ code: CLOSE_SESSION_EXPIRED, reason: expect.stringMatching(/ended the session/) });
    stayingClient.send({ type: 'subscribe', uris: [deviceUri(lampId())] });
    expect(await stayingClient.next()).toMatchObject({ type: 'subscribed', uris: [deviceUri(lampId())] });
  });

  it('closes the socket with CLOSE_SESSION_EXPIRED when the session reaches its expiry', async () => {
    const shortLived = await launch('h3', { sessionTtlSec: 1 });
    const client = await RealtimeTestClient.subscribed(shortLived.url, await session(FULL, shortLived), [MANAGER_DEVICES_URI]);
    expect(await client.closed).toMatchObject({ code: CLOSE_SESSION_EXPIRED, reason: expect.stringMatching(/expired/) });
  });

  it('closes a client that reads too slowly with CLOSE_TOO_SLOW', async () => {
    const slowHome = createDemoHome('home');
    const busy = await launch('h4', { home: slowHome, realtime: { maxBufferedBytes: 64 * 1024, closeGraceMs: 20_000 } });
    const client = await RealtimeTestClient.subscribed(busy.url, await session(FULL, busy), [MANAGER_DEVICES_URI]);
    // The client stops reading; once the kernel's buffers are full the hub's own buffer grows past the limit.
    const raw = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const device = Object.keys(slowHome.devices())[0]!;
    for (let batch = 0; batch < 20; batch++) {
      for (let i = 0; i < 500; i++) slowHome.setAvailable(device, i % 2 === 0);
      await new Promise((resolve) => setImmediate(resolve));
    }
    raw.resume();
    expect((await client.closed).code).toBe(CLOSE_TOO_SLOW);
  });

  it('terminates a peer that does not answer the heartbeat ping', async () => {
    const beating = await launch('h5', { realtime: { heartbeatMs: 50 } });
    const answering = await RealtimeTestClient.connect(beating.url);
    const silent = await RealtimeTestClient.connect(beating.url, { autoPong: false });
    answering.send({ type: 'auth', token: await session(FULL, beating) });
    expect((await silent.closed).code).toBe(1006);
    expect((await answering.next()).type).toBe('ready'); // the peer that answers pings is still there
    await answering.close();
  });

  it('closes open sockets with 1001 when the hub shuts down', async () => {
    const closing = await launch('h5');
    const client = await RealtimeTestClient.subscribed(closing.url, await session(FULL, closing), [MANAGER_DEVICES_URI]);
    await closing.close();
    expect((await client.closed).code).toBe(1001);
  });
});

describe('routes', () => {
  it('serves the channel over TLS and through the relay, and nothing on other paths', async () => {
    const certificates = await createStackCertificates(['127.0.0.1']);
    const secureHome = createDemoHome('cabin');
    const secureHub = await startHub({
      id: 'h2',
      name: 'Secure',
      cloudIssuer: cloud.issuer,
      cloudPublicJwk: cloud.publicJwk,
      home: secureHome,
      tls: certificates.server,
    });
    const relay = await startRelay({ target: secureHub.url, latencyMs: 5 });
    try {
      const token = await session(FULL, secureHub);
      const device = Object.keys(secureHome.devices())[0]!;
      const overTls = await RealtimeTestClient.connect(secureHub.secureUrl!, { ca: certificates.ca });
      overTls.send({ type: 'auth', token });
      expect((await overTls.next()).type).toBe('ready');
      overTls.send({ type: 'subscribe', uris: [deviceUri(device)] });
      await overTls.next();
      const relayed = await RealtimeTestClient.subscribed(relay.url, token, [deviceUri(device)]);
      secureHome.setCapability(device, 'onoff', true, null);
      for (const client of [overTls, relayed])
        expect(await client.next()).toMatchObject({ uri: deviceUri(device), data: { capabilityId: 'onoff', value: true } });
      await Promise.all([overTls.close(), relayed.close()]);
      await expect(RealtimeTestClient.connect(secureHub.url.replace(/$/, '/api/other'))).rejects.toThrow();
    } finally {
      await Promise.all([relay.close(), secureHub.close()]);
    }
  });
});
