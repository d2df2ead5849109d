/**
 * A small real client of the forwarder's listener channel (common/webhook-protocol.ts) for tests:
 * answers the challenge with the HMAC proof, registers, records what arrives, and acknowledges
 * messages unless told not to.
 */
import { WebSocket } from 'ws';
import { proofFor } from '../../common/webhook-proof';
import type { WebhookStore } from '../../services/forwarder/webhook-store';
import {
  type DeliveredMessage,
  type DroppedNotice,
  LISTEN_PATH,
  ListenerServerMessageSchema,
  type RegistrationData,
  type TapEvent,
} from '../../common/webhook-protocol';

export interface TestListenerOptions {
  forwarderUrl: string;
  webhookId: string;
  /** The webhook secret (listener) or a tap credential's secret (tap, with credentialId). */
  secret: string;
  /** The tap credential's id; sent only when given. */
  credentialId?: string;
  listenerId: string;
  role?: 'listener' | 'tap';
  hubId?: string;
  /** Sent as is with the registration: a delegation token proving `hubId` (or a bad one, to be refused). */
  delegationToken?: string;
  data?: RegistrationData;
  resumeAfter?: string;
  /** Listener: ask for messages without the parsed body. */
  rawBodyOnly?: boolean;
  /** Listener: ask for `dropped` notices. */
  dropNotices?: boolean;
  /** Tap: the listenerIds whose intakes come without their request. */
  ownListenerIds?: string[];
  /** Acknowledge each message on arrival (default true). */
  autoAck?: boolean;
  /** Answer the server's heartbeat pings (default true); false plays a dead peer. */
  autoPong?: boolean;
}

export class ChannelClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`closed with ${code} ${reason}`);
  }
}

/** Items in arrival order, plus a way to wait for the next one. */
class Inbox<T> {
  readonly all: T[] = [];
  private read = 0;
  private waiters: ((item: T) => void)[] = [];

  push(item: T): void {
    this.all.push(item);
    const waiter = this.waiters.shift();
    if (waiter) {
      this.read++;
      waiter(item);
    }
  }

  next(): Promise<T> {
    if (this.read < this.all.length) return Promise.resolve(this.all[this.read++]!);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export class TestListener {
  readonly messages = new Inbox<DeliveredMessage>();
  readonly taps = new Inbox<TapEvent>();
  readonly notices = new Inbox<DroppedNotice>();
  /** Every `message` and `dropped` frame's kind and id, in arrival order. */
  readonly arrivals: string[] = [];
  /** Resolves when the socket closes (code, reason). */
  readonly closed: Promise<ChannelClosed>;
  resumed = 0;
  /** The webhook's name, as the `registered` frame gave it. */
  webhookName: string | undefined;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve(new ChannelClosed(code, reason.toString()))));
  }

  /** Resolves once registered; rejects with ChannelClosed when the server closes first. */
  static connect(options: TestListenerOptions): Promise<TestListener> {
    const socket = new WebSocket(options.forwarderUrl.replace(/^http/, 'ws') + LISTEN_PATH, { autoPong: options.autoPong ?? true });
    const listener = new TestListener(socket);
    return new Promise((resolve, reject) => {
      socket.on('error', reject);
      void listener.closed.then(reject);
      socket.on('message', (data: Buffer) => {
        const message = ListenerServerMessageSchema.parse(JSON.parse(data.toString('utf8')));
        switch (message.type) {
          case 'challenge':
            socket.send(
              JSON.stringify({
                type: 'register',
                webhookId: options.webhookId,
                proof: proofFor(options.secret, message.nonce),
                role: options.role ?? 'listener',
                listenerId: options.listenerId,
                credentialId: options.credentialId,
                hubId: options.hubId,
                delegationToken: options.delegationToken,
                data: options.data,
                resumeAfter: options.resumeAfter,
                rawBodyOnly: options.rawBodyOnly,
                dropNotices: options.dropNotices,
                ownListenerIds: options.ownListenerIds,
              }),
            );
            break;
          case 'registered':
            listener.resumed = message.resumed;
            listener.webhookName = message.webhookName;
            resolve(listener);
            break;
          case 'message':
            listener.arrivals.push(`message ${message.message.id}`);
            listener.messages.push(message.message);
            if (options.autoAck ?? true) listener.ack(message.message.id);
            break;
          case 'tap':
            listener.taps.push(message.event);
            break;
          case 'dropped':
            listener.arrivals.push(`dropped ${message.through}`);
            listener.notices.push(message);
            break;
        }
      });
    });
  }

  nextMessage(): Promise<DeliveredMessage> {
    return this.messages.next();
  }

  nextTap(): Promise<TapEvent> {
    return this.taps.next();
  }

  ack(id: string): void {
    this.socket.send(JSON.stringify({ type: 'ack', id }));
  }

  /** The message ids received so far. */
  ids(): string[] {
    return this.messages.all.map((message) => message.id);
  }

  async close(): Promise<void> {
    this.socket.close();
    await this.closed;
  }
}

/** TestListener options that open a tap: a new tap credential of the webhook (the webhook secret opens none). */
export async function newTapCredential(
  store: Pick<WebhookStore, 'createTapCredential'>,
  webhookId: string,
): Promise<Pick<TestListenerOptions, 'role' | 'credentialId' | 'secret'>> {
  const credential = await store.createTapCredential(webhookId);
  return { role: 'tap', credentialId: credential.id, secret: credential.secret };
}
