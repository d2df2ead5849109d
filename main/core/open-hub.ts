/**
 * The open hub: what the user is looking at, as one capability (issue 12 §1). Opening a hub reads its
 * devices (with permissions and favourites) and flows once — concurrent readers share one read — and
 * emits them as one `hubs.snapshot`; then its live channel (common/hub-control.ts, docs/hub-realtime.md):
 * one realtime socket on the session's current route, authenticated with the session token, subscribed
 * to the device manager and to every device. Changes go out as `hubs.deviceEvents` batches (one per
 * frame at most, in the hub's order), the channel's state as `hubs.live`.
 *
 * A close for the session (expired, unauthorised) drops that session and reconnects with a new one;
 * any other drop, and a snapshot that could not be read, reconnect with backoff and jitter. After every
 * reconnect the snapshot is read again, since changes made while the socket was down were never sent.
 * Opening the open hub again reads it afresh. Closing, signing out or disposing closes the socket and
 * stops every retry.
 */
import { AppError, serializeError } from '../../common/app-error';
import {
  CLOSE_SESSION_EXPIRED,
  CLOSE_UNAUTHORISED,
  DEVICE_URI_PREFIX,
  deviceUri,
  MANAGER_DEVICES_URI,
  REALTIME_AUTH_TIMEOUT_MS,
  REALTIME_MAX_URIS_PER_MESSAGE,
  type RealtimeClientMessage,
  type RealtimeServerMessage,
  RealtimeServerMessageSchema,
} from '../../common/hub-control';
import type { DeviceEvent, DeviceList, EventPayload, FlowsView, HubSnapshot, LiveStatus } from '../../common/ipc-contract';
import { type Backoff, createBackoff } from './backoff';
import { createEventBatcher, type EventBatcher } from './event-batcher';
import { parseJsonMessage } from '../../common/json-message';
import type { HubSessions, LiveEndpoint } from './hub-sessions';
import { type LiveSocket, type LiveSocketEnd, type OpenLiveSocket, realtimeUrl } from './live-socket';
import type { Clock, Logger } from './ports';
import type { Schedule } from './ports';

export type LiveEvent = 'hubs.snapshot' | 'hubs.live' | 'hubs.deviceEvents';
export type LiveEmit = <E extends LiveEvent>(event: E, payload: EventPayload<E>) => void;

/** How long the hub may take to answer `auth` with `ready` (its own limit plus a margin for the network). */
export const READY_TIMEOUT_MS = REALTIME_AUTH_TIMEOUT_MS + 5_000;

export const SIGNED_OUT_REASON = 'You are signed out.';
export const CLOSED_REASON = 'Live updates are off for this hub.';

export interface OpenHubDeps {
  sessions: Pick<HubSessions, 'liveEndpoint' | 'expire' | 'routeLost' | 'permissions' | 'flows'>;
  /** Reads the device list (with permissions and favourites). */
  fetchDevices(hubId: string): Promise<DeviceList>;
  openSocket: OpenLiveSocket;
  emit: LiveEmit;
  clock: Clock;
  logger: Logger;
  schedule: Schedule;
  backoff?: () => Backoff;
}

export interface OpenHub {
  /** Opens this hub, closing any other (null: none); the open hub again is read afresh. */
  open(hubId: string | null): void;
  /** The open hub, if any. */
  current(): string | null;
  /** If this hub is open, opens it again from scratch (e.g. its route was pinned: the socket may be on another). */
  restart(hubId: string): void;
  /** Closes the channel with a reason for the user (e.g. signed out); no retries. */
  stop(reason: string): void;
  /** Closes the channel without telling anyone (the core is going away). */
  dispose(): void;
}

/** Reasons for the user when the channel is lost; the close reason of the hub is added when it gave one. */
function lostReason(end: LiveSocketEnd): string {
  if (end.httpStatus !== undefined) return `The hub refused the live channel (HTTP ${end.httpStatus}).`;
  if (end.code === CLOSE_SESSION_EXPIRED || end.code === CLOSE_UNAUTHORISED) return 'The hub ended the session; opening a new one.';
  return end.reason ? `The connection to the hub was lost: ${end.reason}` : 'The connection to the hub was lost.';
}

/** Errors that reconnecting cannot mend: the channel goes offline with the reason instead of retrying. */
const isFinal = (error: unknown) => error instanceof AppError && (error.code === 'signed-out' || error.code === 'forbidden' || error.code === 'hub-not-found');

export function createOpenHub(deps: OpenHubDeps): OpenHub {
  const { sessions, emit, clock, logger, schedule } = deps;
  let channel: { hubId: string; active(): boolean; refresh(): void; close(): void } | null = null;

  const readFlows = async (hubId: string): Promise<FlowsView> => {
    if ((await deps.sessions.permissions(hubId)).flows === 'none') return { status: 'none' };
    try {
      return { status: 'loaded', list: await deps.sessions.flows(hubId) };
    } catch (error) {
      return { status: 'error', error: serializeError(error) };
    }
  };

  /** The hub as a whole; the error is kept for deciding whether to retry. */
  const readSnapshot = async (hubId: string): Promise<{ snapshot: HubSnapshot; error?: unknown }> => {
    try {
      const [devices, flows] = await Promise.all([deps.fetchDevices(hubId), readFlows(hubId)]);
      return { snapshot: { status: 'loaded', hubId, devices, flows } };
    } catch (error) {
      logger.warn('hubs: reading the open hub failed', { hubId, error: error instanceof Error ? error.message : String(error) });
      return { snapshot: { status: 'error', hubId, error: serializeError(error) }, error };
    }
  };

  const open = (hubId: string) => {
    const backoff = (deps.backoff ?? createBackoff)();
    const batcher: EventBatcher<DeviceEvent> = createEventBatcher((events) => emit('hubs.deviceEvents', { hubId, events }), schedule);
    /** The channel's state as last said: said again whenever the hub is opened again (a reloaded view starts unknowing). */
    let lastState: LiveStatus['state'] = { state: 'connecting' };
    const status = (state: LiveStatus['state']) => {
      lastState = state;
      emit('hubs.live', { hubId, state });
    };
    let stopped = false;
    let socket: LiveSocket | null = null;
    let cancelTimer = () => {};
    /** True once a connection went live: every later one is a reconnect and reads the snapshot again. */
    let wasLive = false;
    let reportedMalformed = false;
    /** The devices of the last snapshot emitted (null until one was read): the socket subscribes to them. */
    let deviceIds: string[] | null = null;
    /** The read in flight: whoever asks for the snapshot meanwhile shares it. */
    let reading: ReturnType<typeof readSnapshot> | null = null;

    /** Reads the snapshot (or joins the read in flight) and emits it, unless the hub was closed meanwhile. */
    const refresh = (): ReturnType<typeof readSnapshot> => {
      reading ??= readSnapshot(hubId).then((read) => {
        reading = null;
        if (stopped) return read;
        if (read.snapshot.status === 'loaded') deviceIds = read.snapshot.devices.devices.map((device) => device.id);
        emit('hubs.snapshot', read.snapshot);
        return read;
      });
      return reading;
    };

    const retry = (reason: string) => {
      socket = null;
      cancelTimer();
      if (stopped) return;
      const delay = backoff.next();
      status({ state: 'reconnecting', attempt: backoff.attempts(), nextRetryAt: clock.now() + delay, reason });
      cancelTimer = schedule(() => void connect(), delay);
    };

    const goOffline = (reason: string) => {
      stopped = true;
      socket?.close();
      socket = null;
      cancelTimer();
      batcher.dispose();
      status({ state: 'offline', reason });
    };

    const connect = async () => {
      if (stopped) return;
      let endpoint: LiveEndpoint;
      try {
        // The snapshot first (every device is then subscribed from the start), read again until one arrives.
        if (deviceIds === null) {
          const { error } = await refresh();
          if (error !== undefined) throw error;
        }
        endpoint = await sessions.liveEndpoint(hubId);
      } catch (error) {
        if (stopped) return;
        if (isFinal(error)) return goOffline((error as AppError).message);
        return retry(error instanceof Error ? error.message : 'Hubdesk could not reach the hub.');
      }
      if (stopped) return;
      const initialIds = deviceIds ?? [];
      const subscribed = new Set<string>();
      const subscribe = (uris: string[]) => {
        const fresh = uris.filter((uri) => !subscribed.has(uri));
        for (const uri of fresh) subscribed.add(uri);
        for (let i = 0; i < fresh.length; i += REALTIME_MAX_URIS_PER_MESSAGE) send({ type: 'subscribe', uris: fresh.slice(i, i + REALTIME_MAX_URIS_PER_MESSAGE) });
      };
      const send = (message: RealtimeClientMessage) => current.send(JSON.stringify(message));
      let live = false;

      const onMessage = (message: RealtimeServerMessage) => {
        switch (message.type) {
          case 'ready':
            cancelTimer();
            subscribe([MANAGER_DEVICES_URI, ...initialIds.map(deviceUri)]);
            return;
          case 'subscribed':
            if (!live) becameLive();
            return;
          case 'event':
            if (message.event === 'capability') {
              if (message.uri.startsWith(DEVICE_URI_PREFIX)) batcher.push({ kind: 'capability', deviceId: message.uri.slice(DEVICE_URI_PREFIX.length), ...message.data });
            } else if (message.event === 'device.delete') {
              batcher.push({ kind: 'removed', deviceId: message.data.id });
            } else {
              batcher.push({ kind: 'device', device: message.data });
              subscribe([deviceUri(message.data.id)]); // a new device: its values from now on
            }
            return;
          case 'unsubscribed':
            return;
          case 'error':
            logger.warn('live: the hub could not act on a message', { hubId, message: message.message.slice(0, 200) });
            return;
        }
      };

      const becameLive = () => {
        live = true;
        backoff.reset();
        status({ state: 'live', since: new Date(clock.now()).toISOString() });
        if (!wasLive) return void (wasLive = true);
        // Reconnected: whatever changed while the socket was down was never sent, so read everything again.
        void refresh().then(({ snapshot }) => {
          if (stopped || socket !== current || snapshot.status !== 'loaded') return;
          subscribe(snapshot.devices.devices.map((device) => deviceUri(device.id)));
        });
      };

      let opened = false;
      const current: LiveSocket = deps.openSocket(realtimeUrl(endpoint.baseUrl), {
        onOpen: () => {
          opened = true;
          send({ type: 'auth', token: endpoint.token });
          cancelTimer = schedule(() => {
            if (socket !== current) return;
            logger.warn('live: the hub did not answer the authentication in time; reconnecting', { hubId });
            current.close();
            retry('The hub did not answer in time.');
          }, READY_TIMEOUT_MS);
        },
        onMessage: (text) => {
          if (socket !== current) return;
          const message = parseJsonMessage(RealtimeServerMessageSchema, text);
          if (message) return onMessage(message);
          if (!reportedMalformed) logger.warn('live: ignoring a message that is not in the realtime protocol', { hubId, size: text.length });
          reportedMalformed = true;
        },
        onResponding: () => {}, // not shown yet (docs/hub-realtime.md, "Liveness")
        onClose: (end) => {
          if (socket !== current || stopped) return;
          logger.info('live: the channel closed', { hubId, code: end.code, httpStatus: end.httpStatus, reason: end.reason.slice(0, 200) });
          if (end.httpStatus === 404) return goOffline('This hub does not offer live updates; reload to see changes.');
          if (end.code === CLOSE_SESSION_EXPIRED || end.code === CLOSE_UNAUTHORISED) sessions.expire(hubId, endpoint.token);
          // Not even connected (refused, unreachable, TLS): the route is gone, e.g. the hub moved; choose again.
          else if (!opened && end.httpStatus === undefined) sessions.routeLost(hubId, endpoint.token);
          retry(lostReason(end));
        },
      }, endpoint.namedHub);
      socket = current;
    };

    status({ state: 'connecting' });
    void connect();
    return {
      hubId,
      active: () => !stopped,
      refresh: () => {
        emit('hubs.live', { hubId, state: lastState });
        void refresh();
      },
      close() {
        stopped = true;
        cancelTimer();
        batcher.dispose();
        socket?.close();
        socket = null;
      },
    };
  };

  const close = (reason: string | null) => {
    if (!channel) return;
    const { hubId } = channel;
    const wasActive = channel.active();
    channel.close();
    channel = null;
    if (reason !== null && wasActive) emit('hubs.live', { hubId, state: { state: 'offline', reason } });
  };

  return {
    open(hubId) {
      // The open hub again keeps its channel and is read afresh, unless the channel gave up (then it starts over).
      if (channel?.hubId === hubId && channel.active()) return channel.refresh();
      close(CLOSED_REASON);
      if (hubId !== null) channel = open(hubId);
    },
    current: () => channel?.hubId ?? null,
    restart(hubId) {
      if (channel?.hubId !== hubId) return;
      close(null);
      channel = open(hubId);
    },
    stop: (reason) => close(reason),
    dispose: () => close(null),
  };
}
