/**
 * A small forwarder listener channel for unit tests of the app's listener: real `ws` sockets on
 * 127.0.0.1, the real challenge/HMAC handshake (a listener proves the webhook secret, a tap one of the
 * `tapCredentials`, as the reference forwarder requires), and hooks to send frames, drop sockets, see
 * acks and revoke a tap credential.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { INSPECTOR_PAGE_MAX_ENTRIES, type WebhookEntry } from '../../../../common/ipc-contract';
import { proofMatches } from '../../../../common/webhook-proof';
import type { WebhookInspector } from '../../../../main/core/webhooks/webhook-inspector';
import {
  CLOSE_BAD_SECRET,
  CLOSE_CREDENTIAL_KIND,
  CLOSE_CREDENTIAL_REVOKED,
  CLOSE_UNKNOWN_WEBHOOK,
  LISTEN_PATH,
  type ListenerClientMessage,
  ListenerClientMessageSchema,
  type ListenerServerMessage,
  type RawWebhookMessage,
  type TapEvent,
} from '../../../../common/webhook-protocol';

export type Register = Extract<ListenerClientMessage, { type: 'register' }>;

export interface Peer {
  socket: WebSocket;
  register: Register;
}

export interface FakeListenServer {
  url: string;
  /** Every registration with a valid proof, in order (reconnects included; one closed by `refuse` too). */
  registrations: Register[];
  acks: string[];
  peers(role?: 'listener' | 'tap'): Peer[];
  send(role: 'listener' | 'tap', frame: ListenerServerMessage | string): void;
  /** Muted, the server answers no ping (a frozen forwarder, as the app sees it); unmuted, it answers the next. */
  mute(muted: boolean): void;
  /** Resolves once the server has received `count` pings in all. */
  pinged(count: number): Promise<void>;
  /** Drops every open socket without a close handshake. */
  dropAll(): void;
  /** Resolves once `count` registrations have been received in total. */
  registered(count: number): Promise<void>;
  acked(count: number): Promise<void>;
  /** Closes the taps opened with the credential (CLOSE_CREDENTIAL_REVOKED) and refuses it from now on. */
  revoke(credentialId: string): void;
  close(): Promise<void>;
}

export const FAKE_TAP_REFUSAL = 'a tap needs a tap credential (fake forwarder)';

export interface FakeListenServerOptions {
  port?: number;
  /** Tap credentials the server accepts, id → secret (for any of its webhooks). */
  tapCredentials?: Record<string, string>;
  /** The name the `registered` frame gives each webhook, as the portal's owner named it (none by default, as older forwarders). */
  names?: Record<string, string>;
  /** Closes a proven registration with this code and reason instead of registering it (a forwarder refusing its hub id). */
  refuse?: (register: Register) => { code: number; reason: string } | undefined;
}

export async function startFakeListenServer(webhooks: Record<string, string>, options: FakeListenServerOptions = {}): Promise<FakeListenServer> {
  const tapCredentials = new Map(Object.entries(options.tapCredentials ?? {}));
  // Pongs by hand, so that a muted server can leave pings unanswered.
  const server = new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0, path: LISTEN_PATH, autoPong: false });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const registrations: Register[] = [];
  const acks: string[] = [];
  const peers: Peer[] = [];
  const waiters: (() => void)[] = [];
  const notify = () => waiters.splice(0).forEach((wake) => wake());
  let muted = false;
  let pings = 0;
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (done() ? resolve() : waiters.push(check));
      check();
    });

  server.on('connection', (socket) => {
    const nonce = randomBytes(16).toString('hex');
    socket.on('ping', (data) => {
      pings++;
      if (!muted) socket.pong(data);
      notify();
    });
    socket.send(JSON.stringify({ type: 'challenge', nonce } satisfies ListenerServerMessage));
    socket.on('message', (data) => {
      const message = ListenerClientMessageSchema.parse(JSON.parse(data.toString()));
      if (message.type === 'ack') {
        acks.push(message.id);
        return notify();
      }
      if (webhooks[message.webhookId] === undefined) return socket.close(CLOSE_UNKNOWN_WEBHOOK, 'unknown webhook');
      if (message.role === 'tap' && message.credentialId === undefined) return socket.close(CLOSE_CREDENTIAL_KIND, FAKE_TAP_REFUSAL);
      const secret = message.role === 'tap' ? tapCredentials.get(message.credentialId!) : webhooks[message.webhookId];
      if (secret === undefined || !proofMatches(secret, nonce, message.proof)) return socket.close(CLOSE_BAD_SECRET, 'bad secret');
      const refusal = options.refuse?.(message);
      if (refusal) {
        registrations.push(message);
        notify();
        return socket.close(refusal.code, refusal.reason);
      }
      const peer = { socket, register: message };
      peers.push(peer);
      socket.on('close', () => peers.splice(peers.indexOf(peer), 1));
      registrations.push(message);
      const webhookName = options.names?.[message.webhookId];
      socket.send(
        JSON.stringify({
          type: 'registered',
          listenerId: message.listenerId,
          resumed: 0,
          ...(webhookName !== undefined && { webhookName }),
        } satisfies ListenerServerMessage),
      );
      notify();
    });
  });

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    registrations,
    acks,
    peers: (role) => peers.filter((peer) => role === undefined || peer.register.role === role),
    send(role, frame) {
      for (const peer of peers) if (peer.register.role === role) peer.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    },
    mute: (value) => void (muted = value),
    pinged: (count) => until(() => pings >= count),
    dropAll: () => [...server.clients].forEach((client) => client.terminate()),
    registered: (count) => until(() => registrations.length >= count),
    acked: (count) => until(() => acks.length >= count),
    revoke(credentialId) {
      tapCredentials.delete(credentialId);
      for (const peer of peers) if (peer.register.credentialId === credentialId) peer.socket.close(CLOSE_CREDENTIAL_REVOKED, 'revoked (fake forwarder)');
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** A delivery as the app's listener receives it (it registers `rawBodyOnly`): the raw body, no parsed body. */
export function webhookMessage(id: string, body: unknown = { device: { id: 'lamp-1' } }): RawWebhookMessage {
  const raw = JSON.stringify(body);
  return {
    id,
    receivedAt: '2026-01-01T00:00:00.000Z',
    headers: { 'content-type': 'application/json' },
    query: {},
    rawBody: Buffer.from(raw).toString('base64'),
  };
}

/**
 * A tap event of the body `{device: {id: "lamp-1"}}`, matched to `matchedListenerId` when given. It
 * carries the request unless `request` is false: the forwarder leaves it out for an intake routed to
 * one of the tap's own listeners.
 */
export function tapEvent(id: string, matchedListenerId?: string, { request = true }: { request?: boolean } = {}): TapEvent {
  const { id: _id, receivedAt, ...carried } = webhookMessage(id);
  return {
    id,
    receivedAt,
    method: 'POST',
    size: Buffer.byteLength(carried.rawBody, 'base64'),
    ...(request && { request: carried }),
    routing: {
      option: 'key-path',
      keyPath: 'body.device.id',
      value: 'lamp-1',
      matched: matchedListenerId ? [{ listenerId: matchedListenerId }] : [],
      ...(matchedListenerId ? {} : { reason: 'no registration has $key "lamp-1"' }),
    },
  };
}

/** A schedule the test drives: nothing runs until the test fires it. */
export function manualSchedule() {
  const tasks: { run: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    tasks,
    schedule: (run: () => void, ms: number) => {
      const task = { run, ms, cancelled: false };
      tasks.push(task);
      return () => void (task.cancelled = true);
    },
    /** Live tasks scheduled with exactly `ms`. */
    pending: (ms?: number) => tasks.filter((task) => !task.cancelled && (ms === undefined || task.ms === ms)),
    fire(task: { run: () => void; cancelled: boolean }) {
      task.cancelled = true;
      task.run();
    },
  };
}

/** Every entry an inspector lists, newest first, page after page. */
export function listed(inspector: Pick<WebhookInspector, 'snapshot'>): WebhookEntry[] {
  const out: WebhookEntry[] = [];
  let before: number | undefined;
  for (;;) {
    const page = inspector.snapshot({ limit: INSPECTOR_PAGE_MAX_ENTRIES, ...(before !== undefined && { before }) });
    out.push(...page.entries);
    if (page.nextCursor === null) return out;
    before = page.nextCursor;
  }
}
