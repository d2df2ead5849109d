/**
 * The official client's realtime (docs/interface.md A.7, "Realtime"; docs/hub-realtime.md, "The official
 * client's realtime"): homey-api 3.x speaks socket.io 2 (engine.io protocol 3) over a WebSocket at
 * OFFICIAL_REALTIME_PATH of the hub's base URL. Beside the hub's own channel (realtime.ts), fed by the
 * same home changes, on the same listeners and behind the same per-address gate.
 *
 * - Root namespace: `handshakeClient` {token, homeyId} within `authTimeoutMs`, answered
 *   `(null, {namespace: '/api'})`, or `({statusCode: 401})` for a session the hub does not have (the
 *   client then logs in again and retries). Then the client joins OFFICIAL_NAMESPACE, which admits only
 *   a connection that has handshaken with a live session.
 * - `/api`: `subscribe` / `unsubscribe` by URI (`homey:manager:devices`, `homey:device:<id>`), answered
 *   `(err)`; both need `devices.readonly` (403) and a device the hub has (404). Events come as
 *   `(event, data)` on the URI: `device.create` / `device.update` / `device.delete` on the manager,
 *   `capability` {capabilityId, value, transactionId, transactionTime} on a device.
 * - `/api`: `api` {uri, operation, args} is answered `(err, result)` by the hub's own route for it
 *   (official-api.ts), with the connection's session; at most MAX_API_CALLS_IN_FLIGHT at once (429 beyond).
 * - Every message is checked (zod, and an acknowledgement where the client waits for one); anything
 *   else, an event the hub does not know included, closes that connection. A message over
 *   `maxMessageBytes` is refused by engine.io, which closes the connection (maxHttpBufferSize).
 * - The session's end (logout, expireSessions, its expiresAt) closes its connections, as on the hub's own
 *   channel; so does more than `maxBufferedBytes` waiting to be sent (a reader too slow).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Namespace, Server, type Socket } from 'socket.io';
import { z } from 'zod';
import { REALTIME_AUTH_TIMEOUT_MS, REALTIME_MAX_CLIENT_MESSAGE_BYTES } from '../../common/hub-control';
import type { Logger } from '../../common/logger';
import { ErrorBodySchema } from '../../common/wire';
import type { DemoHome, HomeChange } from './demo-home';
import { grants } from './scope-grants';
import type { HubSessionStore } from './hub-sessions';
import { type OfficialApiError, OfficialApiCallSchema, type RouteRequest, routeRequestOf } from './official-api';
import { watchSessionExpiry } from './session-expiry';
import { Subscribers } from './subscribers';

export const OFFICIAL_REALTIME_PATH = '/socket.io/';
export const OFFICIAL_NAMESPACE = '/api';
export const OFFICIAL_MANAGER_DEVICES_URI = 'homey:manager:devices';
export const OFFICIAL_DEVICE_URI_PREFIX = 'homey:device:';
/** `api` calls of one connection under way at once; the client itself sends them one per caller. */
export const MAX_API_CALLS_IN_FLIGHT = 16;
export const OFFICIAL_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** The hub's answer to a route request: its status and its JSON body (undefined when it had none). */
export interface RouteAnswer {
  status: number;
  body: unknown;
}
/** Runs a route request for the session `token` through the hub's own routes. */
export type RouteCaller = (request: RouteRequest & { token: string }) => Promise<RouteAnswer>;

export interface OfficialRealtimeOptions {
  hubId: string;
  home: DemoHome;
  sessions: HubSessionStore;
  callRoute: RouteCaller;
  now: () => number;
  logger: Logger;
  authTimeoutMs?: number;
  maxBufferedBytes?: number;
  maxMessageBytes?: number;
}

export interface OfficialRealtime {
  /** Whether an upgrade request is for this channel (its path). */
  accepts(request: IncomingMessage): boolean;
  /** For the 'upgrade' event of each of the hub's servers, behind their per-address gate. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every handshaken connection (the hub ended all sessions). */
  expireAll(): void;
  /** Closes the connections of one session (its client logged out). */
  endSession(token: string): void;
  /** Closes every connection and stops listening to the home. */
  close(): void;
}

type Transport = Socket['conn'];

/** One client's engine.io connection: its root socket, its session once handshaken, what waits to be sent. */
interface Connection {
  root: Socket;
  token?: string;
  stopWatchingExpiry?: () => void;
  apiCallsInFlight: number;
  /** Bytes of packets engine.io holds for the connection, not yet handed to its WebSocket. */
  queuedBytes: number;
}

const HandshakeSchema = z.object({ token: z.string().min(1).max(8192), homeyId: z.string().max(200) });
const UriSchema = z.string().min(1).max(300);
const Acknowledgement = z.custom<(...args: unknown[]) => void>((value) => typeof value === 'function');

export function createOfficialRealtime(options: OfficialRealtimeOptions): OfficialRealtime {
  const { hubId, home, sessions, logger, now } = options;
  const maxBufferedBytes = options.maxBufferedBytes ?? OFFICIAL_MAX_BUFFERED_BYTES;
  // The engine is attached to a server that never listens: upgrades reach it from the hub's listeners
  // through their per-address gate (handleUpgrade below), never from a listener of engine.io's own.
  const io = new Server(createServer(), {
    path: OFFICIAL_REALTIME_PATH.slice(0, -1),
    allowEIO3: true,
    transports: ['websocket'],
    serveClient: false,
    perMessageDeflate: false,
    httpCompression: false,
    maxHttpBufferSize: options.maxMessageBytes ?? REALTIME_MAX_CLIENT_MESSAGE_BYTES,
  });
  const connections = new Map<Transport, Connection>();
  const subscribers = new Subscribers<Socket>();

  const close = (connection: Connection, why: string) => {
    logger.info('hub: official realtime connection closed', { hubId, why });
    connection.root.disconnect(true);
  };

  const pendingBytes = (connection: Connection) => connection.queuedBytes + connection.root.conn.request.socket.writableLength;
  const publish = (uri: string, event: string, data: unknown) => {
    for (const socket of subscribers.audience(uri)) {
      const connection = connections.get(socket.conn);
      if (!connection) continue;
      if (pendingBytes(connection) > maxBufferedBytes) {
        logger.warn('hub: official realtime client too slow, closed', { hubId });
        close(connection, 'too slow');
        continue;
      }
      socket.emit(uri, event, data);
    }
  };
  const stopListening = home.onChange((change: HomeChange) => {
    switch (change.type) {
      case 'capability': {
        const { capabilityId, value, transactionId, time } = change.data;
        return publish(`${OFFICIAL_DEVICE_URI_PREFIX}${change.deviceId}`, 'capability', {
          capabilityId,
          value,
          transactionId,
          transactionTime: Date.parse(time),
        });
      }
      case 'device.delete':
        publish(OFFICIAL_MANAGER_DEVICES_URI, 'device.delete', { id: change.deviceId });
        return subscribers.forgetUri(`${OFFICIAL_DEVICE_URI_PREFIX}${change.deviceId}`);
      case 'device.create':
      case 'device.update':
        return publish(OFFICIAL_MANAGER_DEVICES_URI, change.type, change.device);
    }
  });

  /** Counts the bytes engine.io queues for the connection until it hands them to the WebSocket. */
  const countQueuedBytes = (connection: Connection) => {
    const bytesOf = (packet: { data?: unknown }) => (typeof packet.data === 'string' ? Buffer.byteLength(packet.data) : 0);
    connection.root.conn.on('packetCreate', (packet: { data?: unknown }) => (connection.queuedBytes += bytesOf(packet)));
    connection.root.conn.on('flush', (packets: { data?: unknown }[]) => (connection.queuedBytes -= packets.reduce((sum, packet) => sum + bytesOf(packet), 0)));
  };

  const handshake = (connection: Connection, payload: z.infer<typeof HandshakeSchema>, ack: (...args: unknown[]) => void) => {
    if (payload.homeyId !== hubId) return ack(apiError(404, 'unknown_hub', `This is hub ${hubId}.`));
    const session = sessions.find(payload.token);
    if (!session) return ack(apiError(401, 'invalid_token', 'The session is missing, invalid or expired.'));
    connection.stopWatchingExpiry?.();
    connection.token = payload.token;
    connection.stopWatchingExpiry = watchSessionExpiry(sessions, payload.token, session, now, () => close(connection, 'session expired'));
    ack(null, { namespace: OFFICIAL_NAMESPACE });
  };

  io.on('connection', (root: Socket) => {
    const connection: Connection = { root, apiCallsInFlight: 0, queuedBytes: 0 };
    connections.set(root.conn, connection);
    countQueuedBytes(connection);
    const deadline = setTimeout(() => {
      if (connection.token === undefined) close(connection, 'no handshake in time');
    }, options.authTimeoutMs ?? REALTIME_AUTH_TIMEOUT_MS);
    deadline.unref();
    root.onAny((event: string, ...args: unknown[]) => {
      const payload = HandshakeSchema.safeParse(args[0]);
      const ack = Acknowledgement.safeParse(args[1]);
      if (event !== 'handshakeClient' || args.length !== 2 || !payload.success || !ack.success) return close(connection, 'malformed handshake');
      handshake(connection, payload.data, ack.data);
    });
    root.conn.once('close', () => {
      clearTimeout(deadline);
      connection.stopWatchingExpiry?.();
      connections.delete(root.conn);
    });
  });

  const api: Namespace = io.of(OFFICIAL_NAMESPACE);
  // Only a connection handshaken with a live session joins /api; the client then handshakes again.
  api.use((socket, next) => {
    const token = connections.get(socket.conn)?.token;
    next(token !== undefined && sessions.find(token) ? undefined : new Error('Handshake with a live session first (handshakeClient).'));
  });
  api.on('connection', (socket: Socket) => {
    const connection = connections.get(socket.conn)!; // the middleware found it
    socket.onAny((event: string, ...args: unknown[]) => {
      const handled = onApiMessage(connection, socket, event, args);
      if (!handled) close(connection, `malformed ${event.slice(0, 20)}`);
    });
    socket.on('disconnect', () => subscribers.removeClient(socket));
  });

  /** Handles one message on /api; false when it is malformed. */
  const onApiMessage = (connection: Connection, socket: Socket, event: string, args: unknown[]): boolean => {
    const ack = args.length === 2 ? Acknowledgement.safeParse(args[1]) : undefined;
    if (ack && !ack.success) return false;
    const answer = ack?.data ?? (() => {});
    if (event === 'subscribe' || event === 'unsubscribe') {
      const uri = UriSchema.safeParse(args[0]);
      if (!uri.success || args.length > 2) return false;
      if (event === 'unsubscribe') subscribers.remove(socket, uri.data);
      else {
        const refusal = subscribeRefusal(connection, uri.data);
        if (refusal) return (answer(refusal), true);
        subscribers.add(socket, uri.data);
      }
      answer(null);
      return true;
    }
    const call = OfficialApiCallSchema.safeParse(args[0]);
    if (event !== 'api' || !call.success || !ack) return false;
    const route = routeRequestOf(call.data);
    if (!route.ok) return (answer(route.error), true);
    if (connection.apiCallsInFlight >= MAX_API_CALLS_IN_FLIGHT)
      return (answer(apiError(429, 'too_many_requests', `At most ${MAX_API_CALLS_IN_FLIGHT} calls at once on one connection.`)), true);
    connection.apiCallsInFlight++;
    void options
      .callRoute({ ...route.request, token: connection.token! })
      .then((response) => (response.status < 300 ? answer(null, response.body) : answer(routeError(response))))
      .catch(() => answer(apiError(500, 'server_error', 'The hub could not answer.')))
      .finally(() => connection.apiCallsInFlight--);
    return true;
  };

  /** Why the connection may not subscribe to `uri`, or undefined when it may. */
  const subscribeRefusal = (connection: Connection, uri: string): OfficialApiError | undefined => {
    const session = sessions.find(connection.token!);
    if (!session) return apiError(401, 'invalid_token', 'The session is missing, invalid or expired.');
    const isDevice = uri.startsWith(OFFICIAL_DEVICE_URI_PREFIX);
    if (uri !== OFFICIAL_MANAGER_DEVICES_URI && !isDevice)
      return apiError(404, 'unknown_uri', 'Only homey:manager:devices and homey:device:<id> can be subscribed to.');
    if (!grants(session.scopes, 'devices.readonly')) return apiError(403, 'insufficient_scope', 'The devices.readonly scope is required.');
    if (isDevice && !home.has(uri.slice(OFFICIAL_DEVICE_URI_PREFIX.length))) return apiError(404, 'unknown_device', 'There is no such device on this hub.');
    return undefined;
  };

  const endWhere = (matches: (connection: Connection) => boolean) => {
    for (const connection of [...connections.values()]) if (connection.token !== undefined && matches(connection)) close(connection, 'session ended');
  };

  return {
    accepts: (request) => new URL(request.url ?? '/', 'http://hub').pathname === OFFICIAL_REALTIME_PATH,
    handleUpgrade: (request, socket, head) => io.engine.handleUpgrade(request, socket, head),
    expireAll: () => endWhere(() => true),
    endSession: (token) => endWhere((connection) => connection.token === token),
    close() {
      stopListening();
      void io.close();
    },
  };
}

function apiError(statusCode: number, error: string, description: string): OfficialApiError {
  return { statusCode, error, error_description: description };
}

/** A route's refusal as the client reads it: its error body, or a sentence for a body that has none. */
function routeError(response: RouteAnswer): OfficialApiError {
  const body = ErrorBodySchema.safeParse(response.body);
  return body.success
    ? apiError(response.status, body.data.error, body.data.error_description ?? body.data.error)
    : apiError(response.status, 'error', `The hub answered ${response.status}.`);
}
