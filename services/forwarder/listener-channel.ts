/**
 * The listener channel (common/webhook-protocol.ts) on the forwarder's HTTP server at LISTEN_PATH.
 *
 * - Challenge: 32 random bytes (base64url). Proof: hex HMAC-SHA256(secret, nonce), compared in constant
 *   time (common/webhook-proof.ts); a listener proves the webhook secret, a tap one of the owner's tap
 *   credentials (webhook-store.ts). Unknown webhook → CLOSE_UNKNOWN_WEBHOOK; wrong proof, or an unknown
 *   or revoked tap credential → CLOSE_BAD_SECRET; the other role's credential → CLOSE_CREDENTIAL_KIND
 *   with a reason that says what to use; anything malformed, or no `register` within
 *   `registerTimeoutMs` → CLOSE_PROTOCOL_ERROR. Frames are limited to 64 KiB.
 * - Revoking a tap credential closes the taps opened with it at once (CLOSE_CREDENTIAL_REVOKED): they
 *   leave the registry before the revocation returns, so not one more intake reaches them.
 * - Listeners get their resume buffer (ResumeBuffer) re-sent after `resumeAfter`, then live messages:
 *   the §2.7 message with `body`, or without it for a listener that registered `rawBodyOnly`. Each form
 *   is serialised once per intake (only when some target wants it) and shared by those targets' buffers;
 *   a buffered message keeps the form it was routed in, even if its listener re-registers otherwise.
 *   A listener that stays away `forgetAfterMs` (10 minutes) is forgotten with its buffer. A second
 *   connection with the same listenerId replaces the first (CLOSE_REPLACED). A new listener over the
 *   registry's caps (per webhook, per owner) is closed with CLOSE_TOO_MANY_LISTENERS and a reason the app
 *   can show ("this webhook already has 100 listeners; the limit is 100").
 * - Taps get every intake with its routing decision; the request (headers, query, raw body; never a
 *   parsed body) is left out for intakes routed to one of the tap's `ownListenerIds`, whose client
 *   receives it as a delivery.
 * - Resume buffers answer to the forwarder-wide ResumeBudget: after each delivery it evicts what is over
 *   it (logged here, with the listener but never the payload).
 * - Back-pressure: nothing more is written to a socket holding over HIGH_WATER_BYTES unsent; the messages
 *   wait in the resume buffer and go out as acknowledgements arrive. Tap events are skipped instead.
 * - Heartbeat: a ping every `heartbeatMs`; a peer that has not answered the previous ping is terminated.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  KeyValueSchema,
  type ListenerClientMessage,
  ListenerClientMessageSchema,
  type ListenerServerMessage,
  type RawWebhookMessage,
  type RegistrationData,
  type TapEvent,
  type WebhookMessage,
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
import type { ListenerRegistry, ListenerSlot } from './listener-registry';
import type { QueuedMessage, ResumeBuffer } from './resume-buffer';
import type { EvictionReport } from './resume-budget';
import { sequenceOf } from './message-ids';
import { parseJsonSafely } from './safe-json';
import type { WebhookRecord, WebhookStore } from './webhook-store';

export const HIGH_WATER_BYTES = 1024 * 1024;
const MAX_FRAME_BYTES = 64 * 1024;
const MAX_FRAME_DEPTH = 32;
const MAX_KEYS = 1000;
const GOING_AWAY_ANSWER = 'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

export interface ChannelOptions {
  store: WebhookStore;
  registry: ListenerRegistry;
  logger: Logger;
  heartbeatMs: number;
  registerTimeoutMs: number;
  forgetAfterMs: number;
  /** A listener acknowledged a message (its id): for the delivery-lag metric. */
  onAcknowledged?(id: string): void;
}

export interface ListenerChannel {
  /** For the HTTP server's 'upgrade' event. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Queues a routed message for each target and sends what the sockets can take. */
  deliver(message: WebhookMessage, sequence: number, targets: readonly ListenerSlot[]): void;
  /** Shows an intake to the webhook's taps. */
  tap(webhookId: string, message: RawWebhookMessage, intake: Pick<TapEvent, 'method' | 'size' | 'routing' | 'rejected'>): void;
  /** Whether any tap of the webhook is open (refusals are tapped only then: a flood of them costs nothing otherwise). */
  tapped(webhookId: string): boolean;
  /** Refuses new connections, and closes the open ones with CLOSE_GOING_AWAY; resolves once they are closed. */
  goAway(): Promise<void>;
  close(): void;
}

type Registered = { kind: 'listener'; slot: ListenerSlot } | { kind: 'tap'; webhookId: string };
type Register = Extract<ListenerClientMessage, { type: 'register' }>;

/** Close reasons (at most 123 bytes): they are what a developer sees, so they say what to do. */
export const TAP_NEEDS_CREDENTIAL = "a tap needs the owner's tap credential; create one for this webhook in the developer portal";
export const LISTENER_NEEDS_SECRET = 'a tap credential does not open a listener; a listener proves the webhook secret';

/** The secret the registration must prove for its role, or why it is refused before any proof is checked. */
function secretFor(store: WebhookStore, webhook: WebhookRecord, message: Register): { secret: string } | { code: number; reason: string } {
  if (message.role === 'listener') return message.credentialId === undefined ? { secret: webhook.secret } : { code: CLOSE_CREDENTIAL_KIND, reason: LISTENER_NEEDS_SECRET };
  if (message.credentialId === undefined) return { code: CLOSE_CREDENTIAL_KIND, reason: TAP_NEEDS_CREDENTIAL };
  const credential = store.tapCredential(webhook.id, message.credentialId);
  return credential ? { secret: credential.secret } : { code: CLOSE_BAD_SECRET, reason: 'unknown or revoked tap credential' };
}

export function createListenerChannel(options: ChannelOptions): ListenerChannel {
  const { store, registry, logger } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const stopHeartbeat = startHeartbeat(wss, options.heartbeatMs, () => logger.info('forwarder: peer missed a heartbeat, dropped'));

  /** The TCP connection under each listener's WebSocket (from its upgrade request), to cork it while frames are written. */
  const connectionOf = new WeakMap<WebSocket, Socket>();
  const flush = (slot: ListenerSlot) => {
    const socket = slot.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const connection = connectionOf.get(socket);
    // Corked, the frames written here leave in one write (a writev), not one system call each.
    connection?.cork();
    slot.buffer.flush((message) => {
      if (socket.bufferedAmount > HIGH_WATER_BYTES) return false;
      socket.send(message.frame);
      return true;
    });
    connection?.uncork();
  };
  /**
   * Deliveries are flushed together once per turn of the event loop, as the intake's answers are
   * (answer-batch.ts): each write to a listener's socket that finds the listener asleep wakes it, and
   * on a virtual machine that wake-up costs several times the write. Measured in docs/benchmarks.md.
   * Tap events wait for the same turn and go after the deliveries, so an app holding both sockets gets
   * an intake's delivery (with its body) before the tap event that leaves the body out for it.
   */
  const toFlush = new Set<ListenerSlot>();
  let tapFrames: Array<{ socket: WebSocket; frame: string }> = [];
  let flushing = false;
  const flushAll = () => {
    flushing = false;
    for (const slot of toFlush) flush(slot);
    toFlush.clear();
    const frames = tapFrames;
    tapFrames = [];
    for (const { socket, frame } of frames) if (socket.readyState === WebSocket.OPEN) socket.send(frame);
  };
  const scheduleFlush = () => {
    if (flushing) return;
    flushing = true;
    setImmediate(flushAll);
  };
  const flushSoon = (slot: ListenerSlot) => {
    toFlush.add(slot);
    scheduleFlush();
  };
  const sendTapSoon = (socket: WebSocket, frame: string) => {
    tapFrames.push({ socket, frame });
    scheduleFlush();
  };

  const closeRevokedTaps = store.onTapCredentialRevoked((webhookId, credentialId) => {
    for (const socket of registry.tapsOf(webhookId, credentialId)) {
      registry.removeTap(webhookId, socket);
      socket.close(CLOSE_CREDENTIAL_REVOKED, 'the tap credential was revoked in the developer portal');
      logger.info('forwarder: tap closed, its credential was revoked', { webhookId, credentialId });
    }
  });

  const registerListener = (socket: WebSocket, webhook: WebhookRecord, message: Register): ListenerSlot | undefined => {
    const keys = registrationKeys(message.data);
    if (keys === undefined) {
      socket.close(CLOSE_PROTOCOL_ERROR, '$key must be a string, number or boolean; $keys a list of them');
      return undefined;
    }
    const slot = registry.register(webhook, message.listenerId, { hubId: message.hubId, data: message.data, keys, rawBodyOnly: message.rawBodyOnly === true });
    if ('refused' in slot) {
      logger.warn('forwarder: listener refused, too many listeners', { webhookId: webhook.id, listenerId: message.listenerId, reason: slot.refused });
      socket.close(CLOSE_TOO_MANY_LISTENERS, slot.refused);
      return undefined;
    }
    clearTimeout(slot.forgetTimer);
    slot.forgetTimer = undefined;
    if (slot.socket && slot.socket !== socket) slot.socket.close(CLOSE_REPLACED, 'replaced by a newer connection');
    slot.socket = socket;
    slot.buffer.rewind(message.resumeAfter === undefined ? undefined : sequenceOf(message.resumeAfter));
    send(socket, { type: 'registered', listenerId: message.listenerId, resumed: slot.buffer.size, webhookName: webhook.name });
    flush(slot);
    return slot;
  };

  const onConnection = (socket: WebSocket, request: IncomingMessage) => {
    connectionOf.set(socket, request.socket);
    const nonce = randomBytes(32).toString('base64url');
    let registered: Registered | undefined;
    const deadline = setTimeout(() => socket.close(CLOSE_PROTOCOL_ERROR, 'no registration in time'), options.registerTimeoutMs);
    deadline.unref();

    socket.on('message', (data: RawData, isBinary: boolean) => {
      const message = isBinary ? undefined : parseClientMessage(data);
      if (!message) return socket.close(CLOSE_PROTOCOL_ERROR, 'malformed message');
      if (message.type === 'ack') {
        if (registered?.kind !== 'listener') return socket.close(CLOSE_PROTOCOL_ERROR, 'ack before registering as a listener');
        registered.slot.buffer.acknowledge(message.id);
        options.onAcknowledged?.(message.id);
        return flushSoon(registered.slot);
      }
      if (registered) return socket.close(CLOSE_PROTOCOL_ERROR, 'already registered');
      // A registration refused by the caps leaves `registered` unset while its socket closes: no second try on it.
      if (socket.readyState !== WebSocket.OPEN) return;
      clearTimeout(deadline);
      const webhook = store.get(message.webhookId);
      if (!webhook) return socket.close(CLOSE_UNKNOWN_WEBHOOK, 'unknown webhook');
      const expected = secretFor(store, webhook, message);
      const refusal = 'code' in expected ? expected : proofMatches(expected.secret, nonce, message.proof) ? undefined : { code: CLOSE_BAD_SECRET, reason: 'wrong secret' };
      if (refusal) {
        logger.warn('forwarder: registration refused', { webhookId: webhook.id, role: message.role, code: refusal.code, reason: refusal.reason });
        return socket.close(refusal.code, refusal.reason);
      }
      if (message.role === 'tap') {
        registry.addTap(webhook.id, socket, { credentialId: message.credentialId!, ownListenerIds: new Set(message.ownListenerIds) });
        registered = { kind: 'tap', webhookId: webhook.id };
        send(socket, { type: 'registered', listenerId: message.listenerId, resumed: 0, webhookName: webhook.name });
      } else {
        const slot = registerListener(socket, webhook, message);
        if (!slot) return;
        registered = { kind: 'listener', slot };
      }
      logger.info('forwarder: registered', { webhookId: webhook.id, role: message.role, listenerId: message.listenerId });
    });

    socket.on('close', () => {
      clearTimeout(deadline);
      if (registered?.kind === 'tap') registry.removeTap(registered.webhookId, socket);
      else if (registered?.kind === 'listener' && registered.slot.socket === socket) {
        const slot = registered.slot;
        slot.socket = undefined;
        slot.forgetTimer = setTimeout(() => registry.forget(slot), options.forgetAfterMs);
        slot.forgetTimer.unref();
      }
    });
    socket.on('error', () => socket.terminate());
    send(socket, { type: 'challenge', nonce });
  };
  wss.on('connection', onConnection);

  let goingAway = false;
  const upgrade = upgradeOnPath(wss, LISTEN_PATH);
  return {
    // While going away, a new connection is refused before the handshake: it would only be closed again.
    handleUpgrade: (request, socket, head) => (goingAway ? void socket.end(GOING_AWAY_ANSWER) : upgrade(request, socket, head)),
    deliver(message, sequence, targets) {
      if (targets.length === 0) return;
      const queue = (form: WebhookMessage | RawWebhookMessage): QueuedMessage => ({ id: message.id, sequence, frame: JSON.stringify({ type: 'message', message: form } satisfies ListenerServerMessage) });
      let withBody: QueuedMessage | undefined;
      let rawOnly: QueuedMessage | undefined;
      for (const slot of targets) {
        const queued = slot.rawBodyOnly ? (rawOnly ??= queue(withoutBody(message))) : (withBody ??= queue(message));
        const dropped = slot.buffer.add(queued);
        if (dropped > 0 && worthReporting(slot.buffer.dropped - dropped, slot.buffer.dropped)) {
          logger.warn('forwarder: resume buffer full, oldest messages dropped', { webhookId: slot.webhookId, listenerId: slot.listenerId, dropped: slot.buffer.dropped });
        }
      }
      // Before anything is sent: what the budget evicts now is never written to a socket.
      registry.enforceBudget();
      for (const slot of targets) flushSoon(slot);
    },
    tap(webhookId, message, intake) {
      const taps = registry.of(webhookId)?.taps;
      if (!taps?.size) return; // the hot path: most webhooks have no tap open
      const event = { id: message.id, receivedAt: message.receivedAt, ...intake };
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
        else if (intake.routing.matched.some((match) => tap.ownListenerIds.has(match.listenerId))) sendTapSoon(socket, (routingOnly ??= frame(false)));
        else sendTapSoon(socket, (full ??= frame(true)));
      }
    },
    tapped: (webhookId) => (registry.of(webhookId)?.taps?.size ?? 0) > 0,
    async goAway() {
      goingAway = true;
      const open = [...wss.clients];
      const closed = open.map((socket) => new Promise<void>((resolve) => (socket.readyState === WebSocket.CLOSED ? resolve() : socket.once('close', () => resolve()))));
      for (const socket of open) socket.close(CLOSE_GOING_AWAY, 'the forwarder is shutting down; reconnect');
      await Promise.all(closed);
    },
    close() {
      closeRevokedTaps();
      stopHeartbeat();
      for (const slot of registry.allSlots()) clearTimeout(slot.forgetTimer);
      for (const socket of wss.clients) socket.terminate();
      wss.close();
    },
  };
}

/** For the forwarder's ResumeBudget: logs evictions with the listener they hit, rate-limited like drops. */
export function logBudgetEvictions(logger: Logger, budgetBytes: number): EvictionReport {
  return (buffer: ResumeBuffer, evicted: number) => {
    if (!worthReporting(buffer.dropped - evicted, buffer.dropped)) return;
    logger.warn('forwarder: resume budget exceeded, oldest messages of the largest buffer evicted', {
      webhookId: buffer.owner?.webhookId,
      listenerId: buffer.owner?.listenerId,
      evicted,
      dropped: buffer.dropped,
      budgetBytes,
    });
  };
}

/** Drops are logged the first time, then once per hundred (a listener away for long drops many). */
function worthReporting(droppedBefore: number, droppedNow: number): boolean {
  return droppedBefore === 0 || Math.floor(droppedBefore / 100) < Math.floor(droppedNow / 100);
}

function withoutBody({ body: _body, ...message }: WebhookMessage): RawWebhookMessage {
  return message;
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
