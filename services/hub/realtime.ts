/**
 * The hub's realtime channel (common/hub-control.ts, docs/interface.md A.3) at REALTIME_PATH,
 * attached to the 'upgrade' event of each of the hub's servers (HTTP and HTTPS; the relay passes
 * it through as bytes).
 *
 * - The first message must be `auth` with a session token within `authTimeoutMs`
 *   (CLOSE_AUTH_TIMEOUT); an unknown or expired session, or one without `devices.readonly` (or
 *   `devices`), is closed with CLOSE_UNAUTHORISED. Then `ready` {scopes, expiresAt}.
 * - `subscribe` / `unsubscribe` by URI: MANAGER_DEVICES_URI for device create/update/delete,
 *   deviceUri(id) for capability events. URIs of devices the hub does not have come back in
 *   `unknown`; other URIs get an `error` message (the socket stays open).
 * - Malformed JSON, a message that fits no schema, binary frames, a second `auth`: CLOSE_PROTOCOL_ERROR.
 *   Frames over REALTIME_MAX_CLIENT_MESSAGE_BYTES are refused by ws (1009).
 * - The session's end closes the socket with CLOSE_SESSION_EXPIRED: at its expiresAt (a timer per
 *   socket) or at once on `expireAll()` (the hub's expireSessions).
 * - A socket holding more than `maxBufferedBytes` unsent is closed with CLOSE_TOO_SLOW rather than
 *   letting the hub's memory grow; the app refetches on reconnect.
 * - `ping` (after `auth`) is answered with `pong` at once, as `ready` announces (`answersPing`): the
 *   app's liveness check, end to end through any relay (docs/hub-realtime.md, "Liveness").
 * - Heartbeat: a ping every `heartbeatMs`; a peer that answered neither of the last two is terminated.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  CLOSE_AUTH_TIMEOUT,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_SESSION_EXPIRED,
  CLOSE_TOO_SLOW,
  CLOSE_UNAUTHORISED,
  DEVICE_URI_PREFIX,
  deviceUri,
  MANAGER_DEVICES_URI,
  REALTIME_AUTH_TIMEOUT_MS,
  REALTIME_MAX_CLIENT_MESSAGE_BYTES,
  REALTIME_PATH,
  REALTIME_PONG,
  type RealtimeClientMessage,
  RealtimeClientMessageSchema,
  type RealtimeServerMessage,
} from '../../common/hub-control';
import { parseJsonMessage } from '../../common/json-message';
import type { Logger } from '../../common/logger';
import { startHeartbeat, upgradeOnPath } from '../shared/websocket-endpoint';
import type { DemoHome, HomeChange } from './demo-home';
import { grants } from './scope-grants';
import type { HubSessionStore } from './hub-sessions';
import { watchSessionExpiry } from './session-expiry';
import { Subscribers } from './subscribers';

export const REALTIME_HEARTBEAT_MS = 30_000;
export const REALTIME_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const CLOSE_GOING_AWAY = 1001;
/** How long a socket closed by the hub may take to finish the closing handshake before it is cut. */
export const REALTIME_CLOSE_GRACE_MS = 1_000;

export interface RealtimeOptions {
  hubId: string;
  home: DemoHome;
  sessions: HubSessionStore;
  now: () => number;
  logger: Logger;
  authTimeoutMs?: number;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  closeGraceMs?: number;
}

export interface RealtimeChannel {
  /** For the 'upgrade' event of each of the hub's servers. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every authenticated socket with CLOSE_SESSION_EXPIRED (the hub ended all sessions). */
  expireAll(): void;
  /** Closes the sockets of one session with CLOSE_SESSION_EXPIRED (its client logged out). */
  endSession(token: string): void;
  /** Closes every socket with 1001 and stops listening to the home. */
  close(): void;
}

interface Client {
  socket: WebSocket;
  token?: string;
  stopWatchingExpiry?: () => void;
}

export function createRealtimeChannel(options: RealtimeOptions): RealtimeChannel {
  const { home, sessions, logger, now, hubId } = options;
  const maxBufferedBytes = options.maxBufferedBytes ?? REALTIME_MAX_BUFFERED_BYTES;
  const wss = new WebSocketServer({ noServer: true, maxPayload: REALTIME_MAX_CLIENT_MESSAGE_BYTES });
  const clients = new Set<Client>();
  const subscribers = new Subscribers<Client>();
  const stopHeartbeat = startHeartbeat(wss, options.heartbeatMs ?? REALTIME_HEARTBEAT_MS);

  const closeClient = (client: Client, code: number, reason: string) => {
    if (client.socket.readyState !== WebSocket.OPEN && client.socket.readyState !== WebSocket.CONNECTING) return;
    client.socket.close(code, reason);
    setTimeout(() => client.socket.terminate(), options.closeGraceMs ?? REALTIME_CLOSE_GRACE_MS).unref();
  };

  const send = (client: Client, text: string) => {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    if (client.socket.bufferedAmount > maxBufferedBytes) {
      logger.warn('hub: realtime client too slow, closed', { hubId });
      return closeClient(client, CLOSE_TOO_SLOW, 'The client reads too slowly; reconnect and refetch the devices.');
    }
    client.socket.send(text);
  };
  const reply = (client: Client, message: RealtimeServerMessage) => send(client, JSON.stringify(message));
  const publish = (uri: string, message: RealtimeServerMessage) => {
    const audience = subscribers.audience(uri);
    if (audience.size === 0) return;
    const text = JSON.stringify(message);
    for (const client of audience) send(client, text);
  };

  const stopListening = home.onChange((change: HomeChange) => {
    switch (change.type) {
      case 'capability':
        return publish(deviceUri(change.deviceId), { type: 'event', uri: deviceUri(change.deviceId), event: 'capability', data: change.data });
      case 'device.delete':
        publish(MANAGER_DEVICES_URI, { type: 'event', uri: MANAGER_DEVICES_URI, event: 'device.delete', data: { id: change.deviceId } });
        return subscribers.forgetUri(deviceUri(change.deviceId));
      case 'device.create':
      case 'device.update':
        return publish(MANAGER_DEVICES_URI, { type: 'event', uri: MANAGER_DEVICES_URI, event: change.type, data: change.device });
    }
  });

  const authenticate = (client: Client, token: string) => {
    const session = sessions.find(token);
    if (!session) return closeClient(client, CLOSE_UNAUTHORISED, 'The session is missing, invalid or expired.');
    if (!grants(session.scopes, 'devices.readonly')) return closeClient(client, CLOSE_UNAUTHORISED, 'The session lacks the devices.readonly scope.');
    client.token = token;
    client.stopWatchingExpiry = watchSessionExpiry(sessions, token, session, now, () =>
      closeClient(client, CLOSE_SESSION_EXPIRED, 'The session has expired; open a new session and reconnect.'),
    );
    reply(client, { type: 'ready', scopes: [...session.scopes], expiresAt: new Date(session.expiresAt).toISOString(), answersPing: true });
  };

  const subscribe = (client: Client, uris: readonly string[]) => {
    const accepted: string[] = [];
    const unknown: string[] = [];
    const invalid: string[] = [];
    for (const uri of new Set(uris)) {
      if (uri === MANAGER_DEVICES_URI || (uri.startsWith(DEVICE_URI_PREFIX) && home.has(uri.slice(DEVICE_URI_PREFIX.length)))) accepted.push(uri);
      else (uri.startsWith(DEVICE_URI_PREFIX) ? unknown : invalid).push(uri);
    }
    for (const uri of accepted) subscribers.add(client, uri);
    reply(client, { type: 'subscribed', uris: accepted, unknown });
    if (invalid.length > 0)
      reply(client, {
        type: 'error',
        message: `Not a subscribable URI: ${invalid
          .slice(0, 5)
          .map((uri) => JSON.stringify(uri.slice(0, 100)))
          .join(', ')}${invalid.length > 5 ? ` and ${invalid.length - 5} more` : ''}.`,
      });
  };

  const unsubscribe = (client: Client, uris: readonly string[]) => {
    const removed = [...new Set(uris)].filter((uri) => subscribers.remove(client, uri));
    reply(client, { type: 'unsubscribed', uris: removed });
  };

  const onMessage = (client: Client, message: RealtimeClientMessage) => {
    if (message.type === 'auth') {
      if (client.token !== undefined) return closeClient(client, CLOSE_PROTOCOL_ERROR, 'Already authenticated.');
      return authenticate(client, message.token);
    }
    if (client.token === undefined) return closeClient(client, CLOSE_PROTOCOL_ERROR, 'The first message must be auth.');
    if (message.type === 'ping') send(client, REALTIME_PONG);
    else if (message.type === 'subscribe') subscribe(client, message.uris);
    else unsubscribe(client, message.uris);
  };

  wss.on('connection', (socket: WebSocket) => {
    const client: Client = { socket };
    clients.add(client);
    const authDeadline = setTimeout(() => {
      if (client.token === undefined) closeClient(client, CLOSE_AUTH_TIMEOUT, 'No auth message in time.');
    }, options.authTimeoutMs ?? REALTIME_AUTH_TIMEOUT_MS);
    authDeadline.unref();
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const message = isBinary ? undefined : parseClientMessage(data);
      if (!message) return closeClient(client, CLOSE_PROTOCOL_ERROR, 'Malformed message: expected JSON auth, subscribe, unsubscribe or ping.');
      onMessage(client, message);
    });
    socket.on('close', () => {
      clearTimeout(authDeadline);
      client.stopWatchingExpiry?.();
      subscribers.removeClient(client);
      clients.delete(client);
    });
    socket.on('error', () => socket.terminate());
  });

  return {
    handleUpgrade: upgradeOnPath(wss, REALTIME_PATH),
    expireAll() {
      for (const client of clients) if (client.token !== undefined) closeClient(client, CLOSE_SESSION_EXPIRED, SESSION_ENDED);
    },
    endSession(token) {
      for (const client of clients) if (client.token === token) closeClient(client, CLOSE_SESSION_EXPIRED, SESSION_ENDED);
    },
    close() {
      stopListening();
      stopHeartbeat();
      for (const client of clients) closeClient(client, CLOSE_GOING_AWAY, 'The hub is shutting down.');
      wss.close();
    },
  };
}

const SESSION_ENDED = 'The hub ended the session; open a new session and reconnect.';

function parseClientMessage(data: RawData): RealtimeClientMessage | undefined {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
  return parseJsonMessage(RealtimeClientMessageSchema, text);
}
