/**
 * The open hub: what the user is looking at, as one capability (docs/architecture.md, "Control and the open hub"). Opening a hub reads its
 * devices (with permissions and favourites) and flows once — concurrent readers share one read — and
 * emits them as one `hubs.snapshot`; then its live channel (common/hub-control.ts, docs/hub-realtime.md):
 * one realtime socket on the session's current route, authenticated with the session token, subscribed
 * to the device manager and to every device. Changes go out as `hubs.deviceEvents` batches (one per
 * frame at most, in the hub's order), the channel's state as `hubs.live`.
 *
 * A close for the session (expired, unauthorised) drops that session and reconnects with a new one;
 * any other drop, and a snapshot that could not be read, reconnect with backoff and jitter. After every
 * reconnect the snapshot is read again, since changes made while the socket was down were never sent.
 * A hub that falls silent while its socket stays open is `not-responding` until it answers again (then
 * live again without a re-read: nothing it sent was lost). Each live state is chosen from its own
 * evidence — an error's code, an HTTP status, a close code, the OS's online flag — never from a
 * sentence (docs/hub-realtime.md, "The open hub's model and live states"). Opening the open hub again reads
 * it afresh. Closing, signing out or disposing closes the socket and stops every retry.
 *
 * It owns the open hub's model (open-hub-model.ts): every snapshot, batch and live state goes there the
 * moment it goes to the window, so the tray and the notifications see what the window sees.
 */
import { AppError, serializeError } from '../../../common/app-error';
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
} from '../../../common/hub-control';
import type { DeviceEvent, DeviceList, EventPayload, FlowsView, HubSnapshot, LiveState, ReconnectCause, RouteKind } from '../../../common/ipc-contract';
import { type Backoff, createBackoff } from '../shared';
import { createEventBatcher, type EventBatcher } from './event-batcher';
import { parseJsonMessage } from '../../../common/json-message';
import type { HubSessions, LiveEndpoint } from './hub-sessions';
import { type LiveSocket, type LiveSocketEnd, type OpenLiveSocket, realtimeUrl } from '../shared';
import { createOpenHubModel, type OpenHubView } from './open-hub-model';
import type { Clock, Logger } from '../shared';
import type { Schedule } from '../shared';
import { errorMessage } from '../../../common/error-message';

export type LiveEvent = 'hubs.snapshot' | 'hubs.live' | 'hubs.deviceEvents';
export type LiveEmit = <E extends LiveEvent>(event: E, payload: EventPayload<E>) => void;

/** How long the hub may take to answer `auth` with `ready` (its own limit plus a margin for the network). */
export const READY_TIMEOUT_MS = REALTIME_AUTH_TIMEOUT_MS + 5_000;

/** A relay in front of a remote route answers these when the cloud behind it, or the hub's tunnel, is down. */
const RELAY_DOWN_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

export interface OpenHubDeps {
  sessions: Pick<HubSessions, 'liveEndpoint' | 'expire' | 'routeLost' | 'permissions' | 'flows' | 'hubName'>;
  /** Reads the device list (with permissions and favourites). */
  fetchDevices(hubId: string): Promise<DeviceList>;
  openSocket: OpenLiveSocket;
  emit: LiveEmit;
  /** Whether the operating system reports a network (network-watch.ts `isOnline`): a failure while it does not is `offline`. */
  online(): boolean;
  clock: Clock;
  logger: Logger;
  schedule: Schedule;
  backoff?: () => Backoff;
}

export interface OpenHub {
  /** The open hub's model, for the tray and the notifications. */
  readonly view: OpenHubView;
  /** Opens this hub, closing any other (null: none); the open hub again is read afresh. */
  open(hubId: string | null): void;
  /** The open hub, if any. */
  current(): string | null;
  /** If this hub is open, opens it again from scratch (e.g. its route was pinned: the socket may be on another). */
  restart(hubId: string): void;
  /** If this hub is open and its channel waits for its next attempt, makes that attempt now (the user's "Try now"); otherwise nothing. */
  retryNow(hubId: string): void;
  /** The user signed out: the channel closes (`signed-out`), no retries. */
  signedOut(): void;
  /** The user's favourites of a hub changed. */
  setFavourites(hubId: string, deviceIds: readonly string[]): void;
  /** Closes the channel without telling anyone (the core is going away). */
  dispose(): void;
}

/** The state an error that reconnecting cannot mend ends the channel in, or null when a retry may help. */
function finalStateOf(error: unknown): LiveState | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'signed-out') return { kind: 'signed-out' };
  if (error.code === 'forbidden') return { kind: 'hub-refused' };
  if (error.code === 'hub-not-found') return { kind: 'hub-gone' };
  return null;
}

/** Why reading the hub or opening its session failed, from the error's code. */
function causeOfError(error: unknown): ReconnectCause {
  if (error instanceof AppError && (error.code === 'cloud-unreachable' || error.code === 'cloud-error')) return 'cloud-unreachable';
  if (error instanceof AppError && error.code === 'hub-session-lost') return 'refused';
  return 'hub-not-answering';
}

/**
 * Why the socket ended, from its close code and HTTP status: on a remote route, a socket that never
 * opened or a relay's 502–504 means the cloud's relay did not get through.
 */
function causeOfEnd(end: LiveSocketEnd, opened: boolean, route: RouteKind): ReconnectCause {
  if (end.code === CLOSE_SESSION_EXPIRED || end.code === CLOSE_UNAUTHORISED) return 'session-ended';
  if (route === 'remote' && (end.httpStatus === undefined ? !opened : RELAY_DOWN_STATUSES.has(end.httpStatus))) return 'cloud-unreachable';
  return end.httpStatus === undefined ? 'hub-not-answering' : 'refused';
}

export function createOpenHub(deps: OpenHubDeps): OpenHub {
  const { sessions, clock, logger, schedule } = deps;
  const model = createOpenHubModel((hubId) => sessions.hubName(hubId), logger);
  /** Everything the window is sent goes to the model first, at the same moment. */
  const emit: LiveEmit = (event, payload) => {
    if (event === 'hubs.snapshot') model.snapshot(payload as EventPayload<'hubs.snapshot'>);
    else if (event === 'hubs.live') model.live(payload as EventPayload<'hubs.live'>);
    else {
      const batch = payload as EventPayload<'hubs.deviceEvents'>;
      model.events(batch.hubId, batch.events);
    }
    deps.emit(event, payload);
  };
  let channel: { hubId: string; active(): boolean; refresh(): void; retryNow(): void; close(): void } | null = null;

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
      logger.warn('hubs: reading the open hub failed', { hubId, error: errorMessage(error) });
      return { snapshot: { status: 'error', hubId, error: serializeError(error) }, error };
    }
  };

  const open = (hubId: string) => {
    const backoff = (deps.backoff ?? createBackoff)();
    const batcher: EventBatcher<DeviceEvent> = createEventBatcher((events) => emit('hubs.deviceEvents', { hubId, events }), schedule);
    /** The channel's state as last said: said again whenever the hub is opened again (a reloaded view starts unknowing). */
    let lastState: LiveState = { kind: 'connecting' };
    const status = (state: LiveState) => {
      lastState = state;
      emit('hubs.live', { hubId, state });
    };
    let stopped = false;
    let socket: LiveSocket | null = null;
    let cancelTimer = () => {};
    /** True while the channel waits for its next attempt (`cancelTimer` cancels it). */
    let waiting = false;
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

    /** Tries again after the backoff. Not reaching the hub or the cloud while the OS reports no network is `offline`; an answer (refused, session ended) proves a network. */
    const retry = (cause: ReconnectCause) => {
      socket = null;
      cancelTimer();
      if (stopped) return;
      const delay = backoff.next();
      const unreached = cause === 'hub-not-answering' || cause === 'cloud-unreachable';
      status({ kind: 'reconnecting', attempt: backoff.attempts(), nextAttemptAt: clock.now() + delay, cause: unreached && !deps.online() ? 'offline' : cause });
      waiting = true;
      cancelTimer = schedule(() => {
        waiting = false;
        void connect();
      }, delay);
    };

    /** The attempt ahead, made now: said as due now (the same cause), then live or another retry. */
    const retryNow = () => {
      if (!waiting || stopped || lastState.kind !== 'reconnecting') return;
      waiting = false;
      cancelTimer();
      status({ ...lastState, nextAttemptAt: clock.now() });
      void connect();
    };

    const end = (state: LiveState) => {
      stopped = true;
      socket?.close();
      socket = null;
      cancelTimer();
      batcher.dispose();
      status(state);
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
        const final = finalStateOf(error);
        return final ? end(final) : retry(causeOfError(error));
      }
      if (stopped) return;
      const initialIds = deviceIds ?? [];
      const subscribed = new Set<string>();
      const subscribe = (uris: string[]) => {
        const fresh = uris.filter((uri) => !subscribed.has(uri));
        for (const uri of fresh) subscribed.add(uri);
        for (let i = 0; i < fresh.length; i += REALTIME_MAX_URIS_PER_MESSAGE)
          send({ type: 'subscribe', uris: fresh.slice(i, i + REALTIME_MAX_URIS_PER_MESSAGE) });
      };
      const send = (message: RealtimeClientMessage) => current.send(JSON.stringify(message));
      let live = false;
      let liveSince = '';

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
              if (message.uri.startsWith(DEVICE_URI_PREFIX))
                batcher.push({ kind: 'capability', deviceId: message.uri.slice(DEVICE_URI_PREFIX.length), ...message.data });
            } else if (message.event === 'device.delete') {
              batcher.push({ kind: 'removed', deviceId: message.data.id });
            } else {
              batcher.push({ kind: 'device', device: message.data });
              subscribe([deviceUri(message.data.id)]); // a new device: its values from now on
            }
            return;
          case 'unsubscribed':
          case 'pong': // the heartbeat's answer, read by live-socket.ts
            return;
          case 'error':
            logger.warn('live: the hub could not act on a message', { hubId, message: message.message.slice(0, 200) });
            return;
        }
      };

      const becameLive = () => {
        live = true;
        backoff.reset();
        liveSince = new Date(clock.now()).toISOString();
        status({ kind: 'live', since: liveSince });
        if (!wasLive) return void (wasLive = true);
        // Reconnected: whatever changed while the socket was down was never sent, so read everything again.
        void refresh().then(({ snapshot }) => {
          if (stopped || socket !== current || snapshot.status !== 'loaded') return;
          subscribe(snapshot.devices.devices.map((device) => deviceUri(device.id)));
        });
      };

      let opened = false;
      const current: LiveSocket = deps.openSocket(
        realtimeUrl(endpoint.baseUrl),
        {
          onOpen: () => {
            opened = true;
            send({ type: 'auth', token: endpoint.token });
            cancelTimer = schedule(() => {
              if (socket !== current) return;
              logger.warn('live: the hub did not answer the authentication in time; reconnecting', { hubId });
              current.close();
              retry('hub-not-answering');
            }, READY_TIMEOUT_MS);
          },
          onMessage: (text) => {
            if (socket !== current) return;
            const message = parseJsonMessage(RealtimeServerMessageSchema, text);
            if (message) return onMessage(message);
            if (!reportedMalformed) logger.warn('live: ignoring a message that is not in the realtime protocol', { hubId, size: text.length });
            reportedMalformed = true;
          },
          onResponding: (responding) => {
            if (socket !== current || stopped || !live) return;
            logger.info(responding ? 'live: the hub answers again' : 'live: the hub stopped answering', { hubId });
            // Back to live without a re-read: the socket stayed open, so nothing the hub sent was lost.
            status(responding ? { kind: 'live', since: liveSince } : { kind: 'not-responding', since: clock.now() });
          },
          onClose: (ended) => {
            if (socket !== current || stopped) return;
            logger.info('live: the channel closed', { hubId, code: ended.code, httpStatus: ended.httpStatus, reason: ended.reason.slice(0, 200) });
            if (ended.httpStatus === 404) return end({ kind: 'no-realtime' });
            const cause = causeOfEnd(ended, opened, endpoint.route);
            if (cause === 'session-ended') sessions.expire(hubId, endpoint.token);
            // Not even connected (refused, unreachable, TLS): the route is gone, e.g. the hub moved; choose again.
            else if (!opened && ended.httpStatus === undefined) sessions.routeLost(hubId, endpoint.token);
            retry(cause);
          },
        },
        endpoint.namedHub,
      );
      socket = current;
    };

    status({ kind: 'connecting' });
    void connect();
    return {
      hubId,
      active: () => !stopped,
      refresh: () => {
        emit('hubs.live', { hubId, state: lastState });
        void refresh();
      },
      retryNow,
      close() {
        stopped = true;
        cancelTimer();
        batcher.dispose();
        socket?.close();
        socket = null;
      },
    };
  };

  /**
   * Closes the channel and says why: `closed` unless the channel had ended already (it said why then),
   * `signed-out` always (the model forgets the hub); nothing when the core is going away (null).
   */
  const close = (state: LiveState | null) => {
    if (!channel) return;
    const { hubId } = channel;
    const wasActive = channel.active();
    channel.close();
    channel = null;
    if (state !== null && (wasActive || state.kind === 'signed-out')) emit('hubs.live', { hubId, state });
  };

  return {
    view: model,
    open(hubId) {
      // The open hub again keeps its channel and is read afresh, unless the channel gave up (then it starts over).
      if (channel?.hubId === hubId && channel.active()) return channel.refresh();
      close({ kind: 'closed' });
      if (hubId !== null) channel = open(hubId);
    },
    current: () => channel?.hubId ?? null,
    restart(hubId) {
      if (channel?.hubId !== hubId) return;
      close(null);
      channel = open(hubId);
    },
    retryNow(hubId) {
      if (channel?.hubId === hubId) channel.retryNow();
    },
    signedOut: () => close({ kind: 'signed-out' }),
    setFavourites: (hubId, deviceIds) => model.favourites(hubId, deviceIds),
    dispose: () => close(null),
  };
}
