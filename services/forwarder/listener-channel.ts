/**
 * The listener channel (common/webhook-protocol.ts) on the forwarder's HTTP server at LISTEN_PATH.
 *
 * - Challenge: 32 random bytes (base64url). Proof: hex HMAC-SHA256(secret, nonce), compared in constant
 *   time (common/webhook-proof.ts); a listener proves the webhook secret, a tap one of the owner's tap
 *   credentials (webhook-store.ts). Unknown webhook → CLOSE_UNKNOWN_WEBHOOK; wrong proof, or an unknown
 *   or revoked tap credential → CLOSE_BAD_SECRET; the other role's credential → CLOSE_CREDENTIAL_KIND
 *   with a reason that says what to use; a listener naming a hub it does not prove it acts for →
 *   CLOSE_HUB_NOT_PROVEN, or CLOSE_HUB_CHECK_UNAVAILABLE while the proof cannot be checked (hub-binding.ts;
 *   checked only once the secret is proven); anything malformed, or no `register` within
 *   `registerTimeoutMs` → CLOSE_PROTOCOL_ERROR. Frames are limited to 64 KiB, a registration's `data` to
 *   MAX_REGISTRATION_DATA_BYTES of JSON (CLOSE_PROTOCOL_ERROR, the reason naming the limit).
 * - Revoking a tap credential closes the taps opened with it at once (CLOSE_CREDENTIAL_REVOKED): they
 *   leave the registry before the revocation returns, so not one more intake reaches them.
 * - Listeners get what waits for them re-sent after `resumeAfter`, then live messages: the §2.7 message
 *   with `body`, or without it for a listener that registered `rawBodyOnly`. Where messages wait, and for
 *   how long a listener that stays away keeps them, is the backend's (forwarder-backend.ts); a waiting
 *   message keeps the form it was routed in, even if its listener re-registers otherwise. A second
 *   connection with the same listenerId replaces the first (CLOSE_REPLACED), on this instance or another.
 *   A new listener over the caps (per webhook, per owner) is closed with CLOSE_TOO_MANY_LISTENERS and a
 *   reason the app can show ("this webhook already has 100 listeners; the limit is 100"). When the
 *   backend cannot register it (Redis unreachable), it is closed with CLOSE_GOING_AWAY: it retries.
 * - Taps get every intake with its routing decision; the request (headers, query, raw body; never a
 *   parsed body) is left out for intakes routed to one of the tap's `ownListenerIds`, whose client
 *   receives it as a delivery.
 * - Back-pressure (socket-writer.ts): nothing more is written to a socket holding over HIGH_WATER_BYTES
 *   unsent; the messages wait and go out as acknowledgements arrive. Tap events are skipped instead.
 * - Heartbeat: a ping every `heartbeatMs`; a peer that answered neither of the last two pings is terminated.
 */

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  KeyValueSchema,
  MAX_REGISTRATION_DATA_BYTES,
  type ListenerClientMessage,
  ListenerClientMessageSchema,
  type ListenerServerMessage,
  type RawWebhookMessage,
  type RegistrationData,
  CLOSE_BAD_SECRET,
  CLOSE_CREDENTIAL_KIND,
  CLOSE_CREDENTIAL_REVOKED,
  CLOSE_GOING_AWAY,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_REPLACED,
  CLOSE_TOO_MANY_LISTENERS,
  CLOSE_UNKNOWN_WEBHOOK,
  LISTEN_PATH,
} from '../../common/webhook-protocol';
import { proofMatches } from '../../common/webhook-proof';
import { canonicalKeyValue } from '../../common/key-path';
import type { Logger } from '../../common/logger';
import { startHeartbeat, upgradeOnPath } from '../shared/websocket-endpoint';
import type { ForwarderBackend, IntakeSummary, Opened } from './forwarder-backend';
import type { HubBinding, HubRefusal } from './hub-binding';
import type { ListenerSlot, Refused } from './listener-registry';
import { parseJsonSafely } from './safe-json';
import { HIGH_WATER_BYTES, rememberConnection, type TurnWriter } from './socket-writer';
import type { WebhookRecord, WebhookStore } from './webhook-store';
import { errorMessage } from '../../common/error-message';

const MAX_FRAME_BYTES = 64 * 1024;
const MAX_FRAME_DEPTH = 32;
const MAX_KEYS = 1000;
const GOING_AWAY_ANSWER = 'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

export interface ChannelOptions {
  backend: ForwarderBackend;
  /** Where tap frames are queued for the end of the turn (socket-writer.ts). */
  writer: TurnWriter;
  logger: Logger;
  heartbeatMs: number;
  registerTimeoutMs: number;
  /** Whether a listener may have the hub id it names (hub-binding.ts). */
  hubBinding: HubBinding;
  /** A listener acknowledged a message (its id): for the delivery-lag metric. */
  onAcknowledged?(id: string): void;
}

export interface ListenerChannel {
  /** For the HTTP server's 'upgrade' event. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Shows an intake to the webhook's taps open on this instance. */
  tap(webhookId: string, message: RawWebhookMessage, summary: IntakeSummary): void;
  /** Refuses new connections, and closes the open ones with CLOSE_GOING_AWAY; resolves once they are closed. */
  goAway(): Promise<void>;
  close(): void;
}

type Registered = { kind: 'listener'; slot: ListenerSlot } | { kind: 'tap'; webhookId: string };
type Register = Extract<ListenerClientMessage, { type: 'register' }>;

/** Close reasons (at most 123 bytes): they are what a developer sees, so they say what to do. */
export const TAP_NEEDS_CREDENTIAL = "a tap needs the owner's tap credential; create one for this webhook in the developer portal";
export const LISTENER_NEEDS_SECRET = 'a tap credential does not open a listener; a listener proves the webhook secret';
const STORE_UNAVAILABLE = 'the forwarder cannot reach its store just now; reconnect';
export const TOKEN_WITHOUT_HUB = "a delegation token goes only with a listener's hubId";

/** The secret the registration must prove for its role, or why it is refused before any proof is checked. */
function secretFor(store: WebhookStore, webhook: WebhookRecord, message: Register): { secret: string } | { code: number; reason: string } {
  if (message.role === 'listener')
    return message.credentialId === undefined ? { secret: webhook.secret } : { code: CLOSE_CREDENTIAL_KIND, reason: LISTENER_NEEDS_SECRET };
  if (message.credentialId === undefined) return { code: CLOSE_CREDENTIAL_KIND, reason: TAP_NEEDS_CREDENTIAL };
  const credential = store.tapCredential(webhook.id, message.credentialId);
  return credential ? { secret: credential.secret } : { code: CLOSE_BAD_SECRET, reason: 'unknown or revoked tap credential' };
}

/** Why a registration may not name its hub (or carry a token), once its secret is proven; undefined when it may. */
async function hubRefusal(binding: HubBinding, message: Register): Promise<HubRefusal | undefined> {
  const namesHub = message.role === 'listener' && message.hubId !== undefined;
  if (!namesHub) return message.delegationToken === undefined ? undefined : { code: CLOSE_PROTOCOL_ERROR, reason: TOKEN_WITHOUT_HUB };
  return binding.check(message.hubId!, message.delegationToken);
}

export function createListenerChannel(options: ChannelOptions): ListenerChannel {
  const { backend, logger, writer } = options;
  const { store, registry } = backend;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const stopHeartbeat = startHeartbeat(wss, options.heartbeatMs, () => logger.info('forwarder: peer missed a heartbeat, dropped'));

  const closeRevokedTaps = store.onTapCredentialRevoked((webhookId, credentialId) => {
    for (const socket of registry.tapsOf(webhookId, credentialId)) {
      registry.removeTap(webhookId, socket);
      backend.tapClosed(webhookId, socket);
      socket.close(CLOSE_CREDENTIAL_REVOKED, 'the tap credential was revoked in the developer portal');
      logger.info('forwarder: tap closed, its credential was revoked', { webhookId, credentialId });
    }
  });

  /** The slot once registered and resumed; undefined when the socket was closed instead. */
  const registerListener = async (socket: WebSocket, webhook: WebhookRecord, message: Register): Promise<ListenerSlot | undefined> => {
    const tooLarge = registrationDataRefusal(message.data);
    if (tooLarge !== undefined) {
      socket.close(CLOSE_PROTOCOL_ERROR, tooLarge);
      return undefined;
    }
    const keys = registrationKeys(message.data);
    if (keys === undefined) {
      socket.close(CLOSE_PROTOCOL_ERROR, '$key must be a string, number or boolean; $keys a list of them');
      return undefined;
    }
    let opened: Opened | Refused;
    try {
      opened = await backend.open(
        webhook,
        message.listenerId,
        { hubId: message.hubId, data: message.data, keys, rawBodyOnly: message.rawBodyOnly === true, dropNotices: message.dropNotices === true },
        message.resumeAfter,
        socket,
      );
    } catch (error) {
      logger.warn('forwarder: a listener could not be registered', { webhookId: webhook.id, listenerId: message.listenerId, error: errorMessage(error) });
      socket.close(CLOSE_GOING_AWAY, STORE_UNAVAILABLE);
      return undefined;
    }
    if ('refused' in opened) {
      logger.warn('forwarder: listener refused', { webhookId: webhook.id, listenerId: message.listenerId, reason: opened.refused });
      socket.close(CLOSE_TOO_MANY_LISTENERS, opened.refused);
      return undefined;
    }
    const { slot, waiting } = opened;
    // It may have closed while the backend registered it: then it is away at once (unless another connection has it).
    if (socket.readyState !== WebSocket.OPEN) {
      if (!slot.socket) backend.away(slot, socket);
      return undefined;
    }
    if (slot.socket && slot.socket !== socket) slot.socket.close(CLOSE_REPLACED, 'replaced by a newer connection');
    slot.socket = socket;
    send(socket, { type: 'registered', listenerId: message.listenerId, resumed: waiting, webhookName: webhook.name });
    backend.pump(slot);
    return slot;
  };

  const registerTap = async (socket: WebSocket, webhook: WebhookRecord, message: Register): Promise<boolean> => {
    registry.addTap(webhook.id, socket, { credentialId: message.credentialId!, ownListenerIds: new Set(message.ownListenerIds) });
    try {
      await backend.tapOpened(webhook.id, socket);
    } catch (error) {
      registry.removeTap(webhook.id, socket);
      logger.warn('forwarder: a tap could not be registered', { webhookId: webhook.id, error: errorMessage(error) });
      socket.close(CLOSE_GOING_AWAY, STORE_UNAVAILABLE);
      return false;
    }
    send(socket, { type: 'registered', listenerId: message.listenerId, resumed: 0, webhookName: webhook.name });
    return true;
  };

  /** Checks a registration's proof and registers it; what it registered, or undefined when the socket was closed instead. */
  const register = async (socket: WebSocket, nonce: string, message: Register): Promise<Registered | undefined> => {
    let webhook = store.get(message.webhookId);
    let expected = webhook && secretFor(store, webhook, message);
    // Unknown here may be just created on another instance: once more after catching up, before refusing.
    if (!webhook || ('code' in expected! && expected.code === CLOSE_BAD_SECRET)) {
      // Redis unreachable: what is known here is all there is to go by.
      await Promise.resolve(backend.sync()).catch(() => {});
      webhook = store.get(message.webhookId);
      expected = webhook && secretFor(store, webhook, message);
    }
    if (socket.readyState !== WebSocket.OPEN) return undefined;
    if (!webhook || !expected) return void socket.close(CLOSE_UNKNOWN_WEBHOOK, 'unknown webhook');
    const refusal =
      'code' in expected
        ? expected
        : proofMatches(expected.secret, nonce, message.proof)
          ? await hubRefusal(options.hubBinding, message)
          : { code: CLOSE_BAD_SECRET, reason: 'wrong secret' };
    if (socket.readyState !== WebSocket.OPEN) return undefined;
    if (refusal) {
      logger.warn('forwarder: registration refused', {
        webhookId: webhook.id,
        role: message.role,
        hubId: message.hubId,
        code: refusal.code,
        reason: refusal.reason,
      });
      return void socket.close(refusal.code, refusal.reason);
    }
    let registered: Registered | undefined;
    if (message.role === 'tap') {
      if (await registerTap(socket, webhook, message)) registered = { kind: 'tap', webhookId: webhook.id };
      // Closed while the tap was being registered: it leaves again.
      if (registered && socket.readyState !== WebSocket.OPEN) closeTap(webhook.id, socket);
    } else {
      const slot = await registerListener(socket, webhook, message);
      if (slot) registered = { kind: 'listener', slot };
    }
    if (registered) logger.info('forwarder: registered', { webhookId: webhook.id, role: message.role, listenerId: message.listenerId });
    return registered;
  };

  const onConnection = (socket: WebSocket, request: IncomingMessage) => {
    rememberConnection(socket, request.socket);
    const nonce = randomBytes(32).toString('base64url');
    let registered: Registered | undefined;
    /** A registration is under way (the backend may answer later): nothing else is read meanwhile. */
    let registering = false;
    const deadline = setTimeout(() => socket.close(CLOSE_PROTOCOL_ERROR, 'no registration in time'), options.registerTimeoutMs);
    deadline.unref();

    socket.on('message', (data: RawData, isBinary: boolean) => {
      const message = isBinary ? undefined : parseClientMessage(data);
      if (!message) return socket.close(CLOSE_PROTOCOL_ERROR, 'malformed message');
      if (message.type === 'ack') {
        if (registered?.kind !== 'listener') return socket.close(CLOSE_PROTOCOL_ERROR, 'ack before registering as a listener');
        backend.acknowledge(registered.slot, message.id);
        options.onAcknowledged?.(message.id);
        return;
      }
      if (registered || registering) return socket.close(CLOSE_PROTOCOL_ERROR, 'already registered');
      // A registration refused by the caps leaves `registered` unset while its socket closes: no second try on it.
      if (socket.readyState !== WebSocket.OPEN) return;
      clearTimeout(deadline);
      registering = true;
      register(socket, nonce, message)
        .then((done) => (registered = done))
        .catch((error: unknown) => {
          logger.error('forwarder: a registration failed', { error: errorMessage(error) });
          socket.close(CLOSE_GOING_AWAY, STORE_UNAVAILABLE);
        })
        .finally(() => (registering = false));
    });

    socket.on('close', () => {
      clearTimeout(deadline);
      if (registered?.kind === 'tap') closeTap(registered.webhookId, socket);
      else if (registered?.kind === 'listener' && registered.slot.socket === socket) {
        registered.slot.socket = undefined;
        backend.away(registered.slot, socket);
      }
    });
    socket.on('error', () => socket.terminate());
    send(socket, { type: 'challenge', nonce });
  };
  wss.on('connection', onConnection);

  const closeTap = (webhookId: string, socket: WebSocket) => {
    if (!registry.of(webhookId)?.taps.has(socket)) return;
    registry.removeTap(webhookId, socket);
    backend.tapClosed(webhookId, socket);
  };

  let goingAway = false;
  const upgrade = upgradeOnPath(wss, LISTEN_PATH);
  return {
    // While going away, a new connection is refused before the handshake: it would only be closed again.
    handleUpgrade: (request, socket, head) => (goingAway ? void socket.end(GOING_AWAY_ANSWER) : upgrade(request, socket, head)),
    tap(webhookId, message, summary) {
      const taps = registry.of(webhookId)?.taps;
      if (!taps?.size) return; // the hot path: most webhooks have no tap open
      const event = { id: message.id, receivedAt: message.receivedAt, ...summary };
      const frame = (withRequest: boolean) =>
        JSON.stringify({
          type: 'tap',
          event: withRequest ? { ...event, request: { headers: message.headers, query: message.query, rawBody: message.rawBody } } : event,
        } satisfies ListenerServerMessage);
      let full: string | undefined;
      let routingOnly: string | undefined;
      for (const [socket, tap] of taps) {
        if (socket.readyState !== WebSocket.OPEN) continue;
        if (socket.bufferedAmount > HIGH_WATER_BYTES) logger.warn('forwarder: tap too slow, event skipped', { webhookId });
        else if (summary.routing.matched.some((match) => tap.ownListenerIds.has(match.listenerId))) writer.tapSoon(socket, (routingOnly ??= frame(false)));
        else writer.tapSoon(socket, (full ??= frame(true)));
      }
    },
    async goAway() {
      goingAway = true;
      const open = [...wss.clients];
      const closed = open.map(
        (socket) => new Promise<void>((resolve) => (socket.readyState === WebSocket.CLOSED ? resolve() : socket.once('close', () => resolve()))),
      );
      for (const socket of open) socket.close(CLOSE_GOING_AWAY, 'the forwarder is shutting down; reconnect');
      await Promise.all(closed);
    },
    close() {
      closeRevokedTaps();
      stopHeartbeat();
      for (const socket of wss.clients) socket.terminate();
      wss.close();
    },
  };
}

function send(socket: WebSocket, message: ListenerServerMessage): void {
  socket.send(JSON.stringify(message));
}

/**
 * An ack exactly as `JSON.stringify` writes it (the app's, and most clients'): one per message, so it is
 * read without a JSON parse and a schema check. An id of 1 to 200 characters with no quote, backslash or
 * control character is the same as text and as JSON, and is what the schema accepts. Any other form of
 * ack takes the general path.
 */
// eslint-disable-next-line no-control-regex -- control characters are what the class excludes
const PLAIN_ACK = /^\{"type":"ack","id":"([^"\\\u0000-\u001f]{1,200})"\}$/;

function parseClientMessage(data: RawData): ListenerClientMessage | undefined {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
  const ack = PLAIN_ACK.exec(text);
  if (ack) return { type: 'ack', id: ack[1]! };
  const parsed = parseJsonSafely(text, MAX_FRAME_DEPTH);
  if (!parsed.ok) return undefined;
  const message = ListenerClientMessageSchema.safeParse(parsed.value);
  return message.success ? message.data : undefined;
}

/** Why a registration's `data` is refused for its size (a close reason naming the limit), or undefined when it fits. */
export function registrationDataRefusal(data: RegistrationData | undefined): string | undefined {
  if (data === undefined) return undefined;
  const bytes = Buffer.byteLength(JSON.stringify(data));
  return bytes > MAX_REGISTRATION_DATA_BYTES ? `registration data is ${bytes} bytes of JSON; the limit is ${MAX_REGISTRATION_DATA_BYTES}` : undefined;
}

/** The canonical `$key` / `$keys` values, or undefined when they are malformed. */
function registrationKeys(data: RegistrationData | undefined): string[] | undefined {
  if (!data) return [];
  const values: unknown[] = [];
  if (Object.hasOwn(data, '$key')) values.push(data.$key);
  if (Object.hasOwn(data, '$keys')) {
    if (!Array.isArray(data.$keys) || data.$keys.length > MAX_KEYS) return undefined;
    values.push(...data.$keys);
  }
  const keys = new Set<string>();
  for (const value of values) {
    const key = KeyValueSchema.safeParse(value).success ? canonicalKeyValue(value) : undefined;
    if (key === undefined) return undefined;
    keys.add(key);
  }
  return [...keys];
}
