/**
 * The live channel of the watched hub (common/hub-control.ts, DESIGN.md "Realtime (hub)"): one
 * realtime socket on the session's current route, authenticated with the session token, subscribed to
 * the device manager and to every device. Changes go out as `hubs.deviceEvents` batches (one per
 * frame at most, in the hub's order), the channel's state as `hubs.live`.
 *
 * A close for the session (expired, unauthorised) drops that session and reconnects with a new one;
 * any other drop reconnects with backoff and jitter. After every reconnect the device list is fetched
 * again (`hubs.devicesRefreshed`), since changes made while the socket was down were never sent.
 * Unwatching, signing out or disposing closes the socket and stops every retry.
 */
import { AppError } from '../../common/app-error';
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
import type { DeviceEvent, DeviceList, EventPayload, LiveStatus } from '../../common/ipc-contract';
import { type Backoff, createBackoff } from './backoff';
import { createEventBatcher, type EventBatcher } from './event-batcher';
import { parseJsonMessage } from './json-message';
import type { HubSessions, LiveEndpoint } from './hub-sessions';
import { type LiveSocket, type LiveSocketEnd, type OpenLiveSocket, realtimeUrl } from './live-socket';
import type { Clock, Logger } from './ports';
import type { Schedule } from './webhook-channel';

export type LiveEvent = 'hubs.live' | 'hubs.deviceEvents' | 'hubs.devicesRefreshed';
export type LiveEmit = <E extends LiveEvent>(event: E, payload: EventPayload<E>) => void;

/** How long the hub may take to answer `auth` with `ready` (its own limit plus a margin for the network). */
export const READY_TIMEOUT_MS = REALTIME_AUTH_TIMEOUT_MS + 5_000;

export const SIGNED_OUT_REASON = 'You are signed out.';
export const UNWATCHED_REASON = 'Live updates are off for this hub.';

export interface HubLiveDeps {
  sessions: Pick<HubSessions, 'liveEndpoint' | 'expire' | 'knownDeviceIds'>;
  /** Fetches the device list again (with favourites), as `hubs.devices` would. */
  fetchDevices(hubId: string): Promise<DeviceList>;
  openSocket: OpenLiveSocket;
  emit: LiveEmit;
  clock: Clock;
  logger: Logger;
  schedule: Schedule;
  backoff?: () => Backoff;
}

export interface HubLive {
  /** Keeps the live channel of this hub open, closing any other; null closes it. */
  watch(hubId: string | null): void;
  /** If this hub is watched, connects again from scratch (e.g. its route was pinned: the socket may be on another). */
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

export function createHubLive(deps: HubLiveDeps): HubLive {
  const { sessions, emit, clock, logger, schedule } = deps;
  let channel: { hubId: string; active(): boolean; close(): void } | null = null;

  const open = (hubId: string) => {
    const backoff = (deps.backoff ?? createBackoff)();
    const batcher: EventBatcher<DeviceEvent> = createEventBatcher((events) => emit('hubs.deviceEvents', { hubId, events }), schedule);
    const status = (state: LiveStatus['state']) => emit('hubs.live', { hubId, state });
    let stopped = false;
    let socket: LiveSocket | null = null;
    let cancelTimer = () => {};
    /** True once a connection went live: every later one is a reconnect and refetches the list. */
    let wasLive = false;
    let reportedMalformed = false;

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
      let deviceIds: string[];
      try {
        endpoint = await sessions.liveEndpoint(hubId);
        // Watched before its list was fetched: fetch it, so every device is subscribed from the start.
        deviceIds = sessions.knownDeviceIds(hubId) ?? (await deps.fetchDevices(hubId)).devices.map((device) => device.id);
      } catch (error) {
        if (stopped) return;
        if (error instanceof AppError && (error.code === 'signed-out' || error.code === 'forbidden' || error.code === 'hub-not-found')) return goOffline(error.message);
        return retry(error instanceof Error ? error.message : 'Hubdesk could not reach the hub.');
      }
      if (stopped) return;
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
            subscribe([MANAGER_DEVICES_URI, ...deviceIds.map(deviceUri)]);
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
        // Reconnected: whatever changed while the socket was down was never sent, so fetch everything again.
        deps
          .fetchDevices(hubId)
          .then((list) => {
            if (stopped || socket !== current) return;
            subscribe(list.devices.map((device) => deviceUri(device.id)));
            emit('hubs.devicesRefreshed', list);
          })
          .catch((error: unknown) => logger.warn('live: refetching the devices after a reconnect failed', { hubId, error: error instanceof Error ? error.message : String(error) }));
      };

      const current: LiveSocket = deps.openSocket(realtimeUrl(endpoint.baseUrl), {
        onOpen: () => {
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
        onClose: (end) => {
          if (socket !== current || stopped) return;
          logger.info('live: the channel closed', { hubId, code: end.code, httpStatus: end.httpStatus, reason: end.reason.slice(0, 200) });
          if (end.httpStatus === 404) return goOffline('This hub does not offer live updates; reload to see changes.');
          if (end.code === CLOSE_SESSION_EXPIRED || end.code === CLOSE_UNAUTHORISED) sessions.expire(hubId, endpoint.token);
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
    watch(hubId) {
      // Watching the same hub again keeps its channel, unless that one gave up (then it tries afresh).
      if (channel?.hubId === hubId && channel.active()) return;
      close(UNWATCHED_REASON);
      if (hubId !== null) channel = open(hubId);
    },
    restart(hubId) {
      if (channel?.hubId !== hubId) return;
      close(null);
      channel = open(hubId);
    },
    stop: (reason) => close(reason),
    dispose: () => close(null),
  };
}
