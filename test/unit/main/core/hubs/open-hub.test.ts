import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../../../common/app-error';
import { CLOSE_SESSION_EXPIRED, MANAGER_DEVICES_URI, type RealtimeClientMessage } from '../../../../../common/hub-control';
import type {
  DeviceEventBatch,
  DeviceList,
  EventPayload,
  FlowList,
  HubPermissions,
  HubSnapshot,
  LiveStatus,
  RouteKind,
} from '../../../../../common/ipc-contract';
import { createBackoff } from '../../../../../main/core/shared/backoff';
import { BATCH_INTERVAL_MS } from '../../../../../main/core/hubs/event-batcher';
import { createOpenHub, type LiveEvent, type OpenHub, READY_TIMEOUT_MS } from '../../../../../main/core/hubs/open-hub';
import type { LiveEndpoint } from '../../../../../main/core/hubs/hub-sessions';
import type { LiveSocketEnd, LiveSocketHandlers } from '../../../../../main/core/shared/live-socket';
import { realSchedule } from '../../../../../main/core/shared/ports';
import { recordingLogger } from '../../../../support/core-fakes';

/** A socket the test drives: what the core sent, and functions to play the hub. */
interface FakeSocket {
  url: string;
  sent: RealtimeClientMessage[];
  closed: boolean;
  handlers: LiveSocketHandlers;
  receive(message: unknown): void;
  end(end: LiveSocketEnd): void;
}

const device = (id: string) => ({ id, name: id, class: 'light', capabilities: ['onoff'] });

interface SetupOptions {
  endpoint?: () => Promise<LiveEndpoint>;
  /** The route kind of the default endpoint. */
  route?: RouteKind;
  /** What the OS says about the network (true unless set). */
  online?: () => boolean;
  /** Fails the device list with this error (every read). */
  devicesFail?: Error;
  permissions?: HubPermissions;
}

function setup(options: SetupOptions = {}) {
  const sockets: FakeSocket[] = [];
  const events: { event: LiveEvent; payload: unknown }[] = [];
  let tokens = 0;
  const expired: string[] = [];
  /** Tokens whose route the channel reported lost (it could not even connect). */
  const lost: string[] = [];
  /** Every read, by what was read: the first device list has d1 and d2, later ones d3 too. */
  const reads: string[] = [];
  const logger = recordingLogger();
  const live: OpenHub = createOpenHub({
    sessions: {
      liveEndpoint:
        options.endpoint ?? (async () => ({ baseUrl: 'https://hub.test:4443/base', route: options.route ?? 'local-secure', token: `token-${++tokens}` })),
      hubName: (hubId) => (hubId === 'hub-1' ? 'Home' : undefined),
      expire: (_hubId, token) => void expired.push(token),
      routeLost: (_hubId, token) => void lost.push(token),
      permissions: async () => (reads.push('permissions'), options.permissions ?? { control: true, flows: 'start' }),
      flows: async (hubId) => (reads.push('flows'), { hubId, flows: [], canStart: true } satisfies FlowList),
    },
    fetchDevices: async (hubId) => {
      const ids = reads.includes('devices') ? ['d1', 'd2', 'd3'] : ['d1', 'd2'];
      reads.push('devices');
      if (options.devicesFail) throw options.devicesFail;
      return { hubId, devices: ids.map(device), favourites: [], permissions: { control: true, flows: 'start' } } as unknown as DeviceList;
    },
    openSocket: (url, handlers) => {
      const socket: FakeSocket = {
        url,
        sent: [],
        closed: false,
        handlers,
        receive: (message) => handlers.onMessage(typeof message === 'string' ? message : JSON.stringify(message)),
        end: (end) => handlers.onClose(end),
      };
      sockets.push(socket);
      return { send: (text) => void socket.sent.push(JSON.parse(text) as RealtimeClientMessage), close: () => void (socket.closed = true) };
    },
    emit: (event, payload) => void events.push({ event, payload }),
    online: options.online ?? (() => true),
    clock: { now: () => Date.now() },
    logger,
    schedule: realSchedule,
    backoff: () => createBackoff(() => 1),
  });
  const of = <E extends LiveEvent>(event: E) => events.filter((e) => e.event === event).map((e) => e.payload as EventPayload<E>);
  const states = () => of('hubs.live').map((status: LiveStatus) => status.state.kind);
  const lastState = () => of('hubs.live').at(-1)!.state;
  const settle = () => vi.advanceTimersByTimeAsync(0);
  /** Opens the socket and plays the hub up to `subscribed`. */
  const goLive = async (socket = sockets.at(-1)!) => {
    socket.handlers.onOpen();
    socket.receive({ type: 'ready', scopes: ['devices'], expiresAt: '2030-01-01T00:00:00Z' });
    socket.receive({ type: 'subscribed', uris: [], unknown: [] });
    return socket;
  };
  const snapshots = () => of('hubs.snapshot') as HubSnapshot[];
  return { live, sockets, events, of, states, lastState, settle, goLive, expired, lost, reads, snapshots, logger };
}

/** A channel for hub-1 whose socket was just opened (not yet authenticated). */
async function watching(options?: SetupOptions) {
  const t = setup(options);
  t.live.open('hub-1');
  await t.settle();
  return t;
}

const capability = (deviceId: string, value: unknown, transactionId: string | null = null) => ({
  type: 'event',
  uri: `hub:device:${deviceId}`,
  event: 'capability',
  data: { capabilityId: 'onoff', value, transactionId, time: '2026-01-01T00:00:00Z' },
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the open hub', () => {
  it('authenticates with the session token, subscribes the manager and every known device, then is live', async () => {
    const t = await watching();
    const socket = t.sockets[0]!;
    expect(socket.url).toBe('wss://hub.test:4443/base/api/realtime');
    socket.handlers.onOpen();
    expect(socket.sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    socket.receive({ type: 'ready', scopes: [], expiresAt: 'x' });
    expect(socket.sent[1]).toEqual({ type: 'subscribe', uris: [MANAGER_DEVICES_URI, 'hub:device:d1', 'hub:device:d2'] });
    expect(t.states()).toEqual(['connecting']);
    socket.receive({ type: 'subscribed', uris: [], unknown: [] });
    expect(t.states()).toEqual(['connecting', 'live']);
    expect(t.snapshots()).toHaveLength(1); // a first connect is not a reconnect: no second read
  });

  it('reads the hub once before the socket opens, and emits it as one snapshot with its flows', async () => {
    const t = await watching();
    expect(t.reads.toSorted()).toEqual(['devices', 'flows', 'permissions']);
    expect(t.snapshots()).toEqual([
      {
        status: 'loaded',
        hubId: 'hub-1',
        devices: expect.objectContaining({ hubId: 'hub-1' }),
        flows: { status: 'loaded', list: { hubId: 'hub-1', flows: [], canStart: true } },
      },
    ]);
    expect(t.events[0]).toMatchObject({ event: 'hubs.live', payload: { state: { kind: 'connecting' } } });
    expect(t.sockets).toHaveLength(1);
  });

  it('opening the open hub again reads it afresh; opens while a read is on its way share it', async () => {
    const t = setup();
    t.live.open('hub-1');
    t.live.open('hub-1');
    await t.settle();
    expect(t.reads.filter((read) => read === 'devices')).toHaveLength(1);
    expect(t.snapshots()).toHaveLength(1);
    t.live.open('hub-1');
    await t.settle();
    expect(t.reads.filter((read) => read === 'devices')).toHaveLength(2);
    expect(t.snapshots()).toHaveLength(2);
    expect(t.sockets).toHaveLength(1); // the channel is kept
  });

  it('opening the open hub again says its live state again (a reloaded view does not know it)', async () => {
    const t = await watching();
    await t.goLive();
    const before = t.of('hubs.live').length;
    t.live.open('hub-1');
    await t.settle();
    expect(t.of('hubs.live').slice(before)).toEqual([{ hubId: 'hub-1', state: expect.objectContaining({ kind: 'live' }) }]);
  });

  it('does not read flows the session may not see', async () => {
    const t = await watching({ permissions: { control: false, flows: 'none' } });
    expect(t.reads).not.toContain('flows');
    expect(t.snapshots()[0]).toMatchObject({ status: 'loaded', flows: { status: 'none' } });
  });

  it('a hub that cannot be read is shown as an error snapshot and read again with backoff until it can', async () => {
    const t = await watching({ devicesFail: new AppError('hub-unreachable', 'Hubdesk cannot reach Home.') });
    expect(t.snapshots()).toEqual([{ status: 'error', hubId: 'hub-1', error: { code: 'hub-unreachable', message: 'Hubdesk cannot reach Home.' } }]);
    expect(t.lastState()).toMatchObject({ kind: 'reconnecting', cause: 'hub-not-answering' });
    expect(t.sockets).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(250);
    expect(t.snapshots()).toHaveLength(2);
  });

  it('a hub that refuses access is an error snapshot and goes offline without retrying', async () => {
    const t = await watching({ devicesFail: new AppError('forbidden', 'No access to Home.') });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.snapshots()).toHaveLength(1);
    expect(t.lastState()).toEqual({ kind: 'hub-refused' });
  });

  it('batches changes per frame, in the order the hub sent them', async () => {
    const t = await watching();
    const socket = await t.goLive();
    socket.receive(capability('d1', true, 'tx-1'));
    socket.receive({ type: 'event', uri: MANAGER_DEVICES_URI, event: 'device.delete', data: { id: 'd2' } });
    socket.receive(capability('d1', false));
    expect(t.of('hubs.deviceEvents')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(BATCH_INTERVAL_MS);
    socket.receive(capability('d2', 1));
    await vi.advanceTimersByTimeAsync(BATCH_INTERVAL_MS);
    const batches = t.of('hubs.deviceEvents') as DeviceEventBatch[];
    expect(batches.map((b) => b.events.map((e) => (e.kind === 'capability' ? `${e.deviceId}=${String(e.value)}` : e.kind)))).toEqual([
      ['d1=true', 'removed', 'd1=false'],
      ['d2=1'],
    ]);
    expect(batches[0]!.events[0]).toMatchObject({ kind: 'capability', deviceId: 'd1', capabilityId: 'onoff', transactionId: 'tx-1' });
    expect(batches[0]!.hubId).toBe('hub-1');
  });

  it('subscribes to a device added while live and passes it on whole', async () => {
    const t = await watching();
    const socket = await t.goLive();
    socket.receive({ type: 'event', uri: MANAGER_DEVICES_URI, event: 'device.create', data: device('d9') });
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', uris: ['hub:device:d9'] });
    await vi.advanceTimersByTimeAsync(BATCH_INTERVAL_MS);
    expect(t.of('hubs.deviceEvents')[0]!.events).toEqual([{ kind: 'device', device: device('d9') }]);
  });

  it('ignores malformed messages, logging only the first', async () => {
    const t = await watching();
    const socket = await t.goLive();
    socket.receive('not json');
    socket.receive({ type: 'event', uri: 'hub:device:d1', event: 'capability', data: { capabilityId: 'onoff' } });
    socket.receive(capability('d1', true));
    await vi.advanceTimersByTimeAsync(BATCH_INTERVAL_MS);
    expect(t.of('hubs.deviceEvents').flatMap((b) => b.events)).toHaveLength(1);
    expect(t.logger.lines.filter((line) => line.message.includes('not in the realtime protocol'))).toHaveLength(1);
    expect(t.states().at(-1)).toBe('live');
  });

  it('a session-expired close drops that session and resubscribes with a new one, then refetches the devices', async () => {
    const t = await watching();
    await t.goLive();
    t.sockets[0]!.end({ code: CLOSE_SESSION_EXPIRED, reason: 'session expired' });
    expect(t.expired).toEqual(['token-1']);
    expect(t.lastState()).toMatchObject({ kind: 'reconnecting', cause: 'session-ended' });
    await vi.advanceTimersByTimeAsync(250);
    const second = t.sockets[1]!;
    second.handlers.onOpen();
    expect(second.sent[0]).toEqual({ type: 'auth', token: 'token-2' });
    second.receive({ type: 'ready', scopes: [], expiresAt: 'x' });
    expect(second.sent[1]).toMatchObject({ type: 'subscribe', uris: expect.arrayContaining([MANAGER_DEVICES_URI, 'hub:device:d1']) });
    second.receive({ type: 'subscribed', uris: [], unknown: [] });
    await t.settle();
    expect(t.snapshots()).toHaveLength(2);
    expect(second.sent.at(-1)).toEqual({ type: 'subscribe', uris: ['hub:device:d3'] }); // the device the new read found
  });

  it('a drop reconnects with growing backoff, says when the next attempt is, and refetches after it is live again', async () => {
    const t = await watching();
    await t.goLive();
    const start = Date.now();
    t.sockets[0]!.end({ code: 1006, reason: '' });
    const first = t.of('hubs.live').at(-1)!.state;
    expect(first).toMatchObject({ kind: 'reconnecting', attempt: 1, nextAttemptAt: start + 250, cause: 'hub-not-answering' });
    await vi.advanceTimersByTimeAsync(250);
    t.sockets[1]!.end({ code: 1006, reason: '' });
    expect(t.lastState()).toMatchObject({ kind: 'reconnecting', attempt: 2, nextAttemptAt: Date.now() + 500 });
    await vi.advanceTimersByTimeAsync(499);
    expect(t.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await t.goLive(t.sockets[2]);
    await t.settle();
    expect(t.states().at(-1)).toBe('live');
    expect(t.snapshots()).toHaveLength(2);
    expect(t.expired).toEqual([]); // a plain drop keeps the session
  });

  it('"Try now" makes the attempt ahead at once, said as due now; nothing while live or for another hub', async () => {
    const t = await watching();
    await t.goLive();
    t.live.retryNow('hub-1'); // live: nothing to hurry
    expect(t.states()).toEqual(['connecting', 'live']);
    await vi.advanceTimersByTimeAsync(1_000);
    t.sockets[0]!.end({ code: 1006, reason: '' });
    await vi.advanceTimersByTimeAsync(250);
    t.sockets[1]!.end({ code: 1006, reason: '' }); // the second attempt fails too: the next one is 500 ms ahead
    const waitingFor = t.lastState();
    expect(waitingFor).toMatchObject({ kind: 'reconnecting', attempt: 2, nextAttemptAt: Date.now() + 500 });
    t.live.retryNow('hub-2');
    expect(t.sockets).toHaveLength(2);

    t.live.retryNow('hub-1');
    expect(t.lastState()).toEqual({ ...waitingFor, nextAttemptAt: Date.now() });
    await t.settle();
    expect(t.sockets).toHaveLength(3); // at once, not 500 ms later
    t.live.retryNow('hub-1'); // the attempt is under way: no second one
    await vi.advanceTimersByTimeAsync(1_000);
    expect(t.sockets).toHaveLength(3); // and the cancelled timer does not make one either
    await t.goLive(t.sockets[2]);
    expect(t.states().at(-1)).toBe('live');
  });

  it('a socket that could not even connect reports its route lost, so the next attempt chooses a route again', async () => {
    const t = await watching();
    t.sockets[0]!.end({ code: 1006, reason: '' }); // refused before it opened: the hub moved
    expect(t.lost).toEqual(['token-1']);
    expect(t.states().at(-1)).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(250);
    await t.goLive(t.sockets[1]);
    t.sockets[1]!.end({ code: 1006, reason: '' }); // a drop after it was open keeps the route
    expect(t.lost).toEqual(['token-1']);
  });

  it('reconnects when the hub does not answer the authentication', async () => {
    const t = await watching();
    t.sockets[0]!.handlers.onOpen();
    await vi.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    expect(t.sockets[0]!.closed).toBe(true);
    expect(t.states().at(-1)).toBe('reconnecting');
  });

  it('closing closes the socket and stops every retry', async () => {
    const t = await watching();
    await t.goLive();
    t.sockets[0]!.end({ code: 1006, reason: '' });
    t.live.open(null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.sockets).toHaveLength(1);
    expect(t.states().at(-1)).toBe('closed');
  });

  it('sign-out closes the open socket with a reason, and pending events are dropped', async () => {
    const t = await watching();
    const socket = await t.goLive();
    socket.receive(capability('d1', true));
    t.live.signedOut();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(socket.closed).toBe(true);
    expect(t.of('hubs.live').at(-1)).toEqual({ hubId: 'hub-1', state: { kind: 'signed-out' } });
    expect(t.of('hubs.deviceEvents')).toHaveLength(0);
  });

  it('opening another hub closes the first channel', async () => {
    const t = await watching();
    t.live.open('hub-1'); // the same hub again: kept
    t.live.open('hub-2');
    await t.settle();
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[0]!.closed).toBe(true);
  });

  it('restarting the open hub reads it again and opens a new socket; another hub is left alone', async () => {
    const t = await watching();
    t.live.restart('hub-2');
    t.live.restart('hub-1');
    await t.settle();
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets[0]!.closed).toBe(true);
    expect(t.states()).toEqual(['connecting', 'connecting']);
    expect(t.snapshots()).toHaveLength(2);
  });

  it('goes offline without retrying when there is no access, and when the hub has no realtime channel', async () => {
    const denied = setup({ endpoint: async () => Promise.reject(new AppError('forbidden', 'No access to Home.')) });
    denied.live.open('hub-1');
    await denied.settle();
    expect(denied.lastState()).toEqual({ kind: 'hub-refused' });

    const old = setup();
    old.live.open('hub-1');
    await old.settle();
    old.sockets[0]!.end({ code: 1006, reason: '', httpStatus: 404 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(old.sockets).toHaveLength(1);
    expect(old.lastState()).toEqual({ kind: 'no-realtime' });
    old.live.open('hub-1'); // opening again after giving up tries afresh
    await old.settle();
    expect(old.sockets).toHaveLength(2);
    expect(old.states().slice(-2)).toEqual(['no-realtime', 'connecting']); // not "closed" in between: it had ended already
  });

  it('an unreachable hub is retried with backoff', async () => {
    const t = setup({ endpoint: async () => Promise.reject(new AppError('hub-unreachable', 'Hubdesk cannot reach Home.')) });
    t.live.open('hub-1');
    await t.settle();
    expect(t.lastState()).toMatchObject({ kind: 'reconnecting', attempt: 1, cause: 'hub-not-answering' });
  });
});

describe('the open hub: each live state from its own evidence', () => {
  it('a hub that falls silent with its socket open is not responding, and live again when it answers, without a re-read', async () => {
    const t = await watching();
    const socket = await t.goLive();
    const since = t.lastState();
    socket.handlers.onResponding(false);
    expect(t.lastState()).toEqual({ kind: 'not-responding', since: Date.now() });
    expect(socket.closed).toBe(false);
    socket.handlers.onResponding(true);
    expect(t.lastState()).toEqual(since);
    await t.settle();
    expect(t.snapshots()).toHaveLength(1);
    expect(t.sockets).toHaveLength(1);
    socket.end({ code: 1006, reason: '' }); // given up after a longer silence: a reconnect as for any drop
    expect(t.lastState()).toMatchObject({ kind: 'reconnecting', cause: 'hub-not-answering' });
  });

  it('silence before the channel is live is left to the authentication deadline', async () => {
    const t = await watching();
    t.sockets[0]!.handlers.onOpen();
    t.sockets[0]!.handlers.onResponding(false);
    expect(t.states()).toEqual(['connecting']);
  });

  it('a failure while the OS reports no network is offline; an answer from the hub is not', async () => {
    let online = false;
    const t = await watching({ online: () => online });
    t.sockets[0]!.end({ code: 1006, reason: '' });
    expect(t.lastState()).toMatchObject({ kind: 'reconnecting', cause: 'offline' });
    await vi.advanceTimersByTimeAsync(250);
    t.sockets[1]!.end({ code: CLOSE_SESSION_EXPIRED, reason: '' });
    expect(t.lastState()).toMatchObject({ cause: 'session-ended' });
    online = true;
    await vi.advanceTimersByTimeAsync(500);
    t.sockets[2]!.end({ code: 1006, reason: '', httpStatus: 503 });
    expect(t.lastState()).toMatchObject({ cause: 'refused' });
  });

  it('the cloud not answering, or its relay not getting through on a remote route, is cloud-unreachable', async () => {
    const cloud = await watching({ devicesFail: new AppError('cloud-unreachable', 'Hubdesk could not reach the cloud.') });
    expect(cloud.lastState()).toMatchObject({ kind: 'reconnecting', cause: 'cloud-unreachable' });

    const relay = await watching({ route: 'remote' });
    relay.sockets[0]!.end({ code: 1006, reason: '' }); // the relay did not even take the connection
    expect(relay.lastState()).toMatchObject({ cause: 'cloud-unreachable' });
    await vi.advanceTimersByTimeAsync(250);
    relay.sockets[1]!.end({ code: 1006, reason: '', httpStatus: 502 });
    expect(relay.lastState()).toMatchObject({ cause: 'cloud-unreachable' });
    await vi.advanceTimersByTimeAsync(500);
    relay.sockets[2]!.handlers.onOpen();
    relay.sockets[2]!.end({ code: 1006, reason: '' }); // through the relay, then dropped: the hub's side
    expect(relay.lastState()).toMatchObject({ cause: 'hub-not-answering' });
  });

  it('a refused session is refused; one gone from the account, and sign-out, end the channel', async () => {
    const refused = await watching({ devicesFail: new AppError('hub-session-lost', 'Home did not accept a new session.') });
    expect(refused.lastState()).toMatchObject({ kind: 'reconnecting', cause: 'refused' });
    const gone = await watching({ devicesFail: new AppError('hub-not-found', 'This hub is no longer in your account.') });
    expect(gone.lastState()).toEqual({ kind: 'hub-gone' });
    gone.live.signedOut(); // ended already, but the user signed out: said, so the model forgets the hub
    expect(gone.lastState()).toEqual({ kind: 'signed-out' });
    expect(gone.live.view.summary()).toMatchObject({ hubId: null, live: { kind: 'closed' } });
    const signedOut = await watching({ devicesFail: new AppError('signed-out', 'You are signed out.') });
    expect(signedOut.lastState()).toEqual({ kind: 'signed-out' });
  });
});

describe('the open hub: its model', () => {
  it('holds what the window is sent at the moment it is sent, named from the hub sessions', async () => {
    const t = setup();
    const seenAtEmit: unknown[] = [];
    t.live.view.onSummary((summary) => seenAtEmit.push(summary.live.kind));
    t.live.open('hub-1');
    await t.settle();
    const socket = await t.goLive();
    expect(t.live.view.summary()).toMatchObject({ hubId: 'hub-1', hubName: 'Home', live: { kind: 'live' } });
    expect(seenAtEmit.at(-1)).toBe('live');
    socket.handlers.onResponding(false);
    expect(t.live.view.summary().live).toEqual(t.lastState());
    t.live.open(null);
    expect(t.live.view.summary()).toMatchObject({ hubId: null, live: { kind: 'closed' } });
  });

  it('applies each batch to the model before the window gets it, and follows favourites', async () => {
    const t = await watching();
    const socket = await t.goLive();
    t.live.setFavourites('hub-1', ['d1']);
    const onWhenSent: unknown[] = [];
    t.live.view.onCapabilityChange((change) => onWhenSent.push([change.device.id, change.value, t.of('hubs.deviceEvents').length]));
    socket.receive({
      type: 'event',
      uri: MANAGER_DEVICES_URI,
      event: 'device.update',
      data: {
        ...device('d1'),
        capabilitiesObj: { onoff: { id: 'onoff', type: 'boolean', title: 'Turned on', value: false, getable: true, setable: true, lastUpdated: null } },
      },
    });
    socket.receive(capability('d1', true));
    await vi.advanceTimersByTimeAsync(BATCH_INTERVAL_MS);
    expect(onWhenSent).toEqual([['d1', true, 0]]); // the model knew before the batch went out
    expect(t.of('hubs.deviceEvents')).toHaveLength(1);
    expect(t.live.view.summary().favourites).toEqual([{ deviceId: 'd1', name: 'd1', on: true, canToggle: true }]);
  });
});
