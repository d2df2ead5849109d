/**
 * The official client's realtime against the hub's own (docs/benchmarks.md, "The official client's
 * realtime"). The hub runs in a process of its own (official-hub-server.ts). In this one, homey-api
 * (unpatched) holds a capability instance on `onoff` of each of SUBSCRIBED devices, and a hub realtime
 * client (the WebSocket of docs/hub-realtime.md) subscribes to the same devices. A third session
 * switches them one after another over HTTP, round-robin; each change is timed from just before its
 * PUT to the official client's listener and to the hub realtime client's event, both in the same run,
 * the next change only once both have heard the last. After WARM_UP uncounted changes, CHANGES counted.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { HomeyAPI } from 'homey-api';
import { WebSocket } from 'ws';
import { deviceUri, REALTIME_PATH, RealtimeServerMessageSchema } from '../../common/hub-control';
import { parseJsonMessage } from '../../common/json-message';
import { startProgram } from '../e2e/support/processes';
import { sized } from './bench-mode';
import { compiledServer } from './compiled-servers';
import { percentile } from './percentile';
import type { BenchRow } from './route-opening';

const SUBSCRIBED = 100;
const CHANGES = sized(1_000, 50);
const WARM_UP = sized(100, 10);
/** A change not heard by then fails the part rather than hanging the bench. */
const HEARD_WITHIN_MS = 10_000;

interface ClientDevice {
  id: string;
  available: boolean;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown }>;
  connect(): Promise<void>;
  makeCapabilityInstance(capabilityId: string, listener: (value: unknown) => void): unknown;
}
interface ClientHubApi {
  devices: { connect(): Promise<void>; getDevices(): Promise<Record<string, ClientDevice>> };
  destroy(): void;
}

/** Who is waiting to hear which device's next onoff value, per listener. */
class Hearing {
  private readonly waiting = new Map<string, (at: number) => void>();
  heard(deviceId: string): void {
    const resolve = this.waiting.get(deviceId);
    this.waiting.delete(deviceId);
    resolve?.(performance.now());
  }
  next(deviceId: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no event for ${deviceId} within ${HEARD_WITHIN_MS} ms`)), HEARD_WITHIN_MS);
      this.waiting.set(deviceId, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }
}

/** The hub realtime client: auth, subscribe to `deviceIds`, and tell `hearing` of each onoff event. */
async function hubRealtimeClient(url: string, token: string, deviceIds: string[], hearing: Hearing): Promise<WebSocket> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${REALTIME_PATH}`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const subscribed = new Promise<void>((resolve, reject) => {
    socket.on('message', (data: Buffer) => {
      const message = parseJsonMessage(RealtimeServerMessageSchema, data.toString('utf8'));
      if (message?.type === 'subscribed') resolve();
      else if (message?.type === 'event' && message.event === 'capability' && message.data.capabilityId === 'onoff')
        hearing.heard(message.uri.slice(deviceUri('').length));
    });
    socket.once('close', (code) => reject(new Error(`hub realtime closed ${code}`)));
  });
  socket.send(JSON.stringify({ type: 'auth', token }));
  socket.send(JSON.stringify({ type: 'subscribe', uris: deviceIds.map(deviceUri) }));
  await subscribed;
  return socket;
}

function put(agent: Agent, url: string, token: string, value: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ value });
    const req = request(
      url,
      { agent, method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function officialRealtime(): Promise<BenchRow[]> {
  const hub = startProgram(await compiledServer('official-hub-server'));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let homey: ClientHubApi | undefined;
  let own: WebSocket | undefined;
  try {
    const info = JSON.parse(`{"url"${await hub.line('{"url"', 60_000)}`) as { url: string; sessions: [string, string, string] };
    const [changer, officialSession, ownSession] = info.sessions;
    homey = (await HomeyAPI.createLocalAPI({ address: info.url, token: officialSession, debug: null })) as unknown as ClientHubApi;
    await homey.devices.connect();
    const devices = Object.values(await homey.devices.getDevices())
      .filter((device) => device.available && device.capabilities.includes('onoff'))
      .slice(0, SUBSCRIBED);
    if (devices.length < SUBSCRIBED) throw new Error(`the home has ${devices.length} devices with onoff, not ${SUBSCRIBED}`);
    const official = new Hearing();
    const ownHearing = new Hearing();
    for (const device of devices) device.makeCapabilityInstance('onoff', () => official.heard(device.id));
    await Promise.all(devices.map((device) => device.connect())); // the instances' subscriptions, made in the background
    own = await hubRealtimeClient(
      info.url,
      ownSession,
      devices.map((device) => device.id),
      ownHearing,
    );
    const values = new Map(devices.map((device) => [device.id, device.capabilitiesObj.onoff!.value === true]));
    const change = async (device: ClientDevice) => {
      const value = !values.get(device.id);
      values.set(device.id, value);
      const heard = Promise.all([official.next(device.id), ownHearing.next(device.id)]);
      const from = performance.now();
      await put(agent, `${info.url}/api/manager/devices/device/${device.id}/capability/onoff`, changer, value);
      const [officialAt, ownAt] = await heard;
      return { official: officialAt - from, own: ownAt - from };
    };
    for (let n = 0; n < WARM_UP; n++) await change(devices[n % devices.length]!);
    const officialTimes: number[] = [];
    const ownTimes: number[] = [];
    for (let n = 0; n < CHANGES; n++) {
      const times = await change(devices[n % devices.length]!);
      officialTimes.push(times.official);
      ownTimes.push(times.own);
    }
    const figures = (times: number[]) => `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)}`;
    return [
      {
        figure: `hub change → official client's listener, ${SUBSCRIBED} subscribed devices, ${CHANGES} changes (p50 / p99, ms)`,
        value: figures(officialTimes),
        baseline: `${figures(ownTimes)} the hub's own realtime, same changes`,
        ratio: (percentile(officialTimes, 50) / percentile(ownTimes, 50)).toFixed(2),
        target: '',
        met: true,
      },
    ];
  } finally {
    own?.close();
    homey?.destroy();
    agent.destroy();
    await hub.stop();
  }
}
