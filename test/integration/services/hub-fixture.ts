/**
 * What the hub's control and realtime tests share: a real cloud with clients of different scopes, a
 * way to open a hub session as one of them, and a realtime client over a real WebSocket that queues
 * what the hub sends and records how it closed.
 */
import { WebSocket, type ClientOptions } from 'ws';
import { expect } from 'vitest';
import { REALTIME_PATH, type RealtimeServerMessage, RealtimeServerMessageSchema } from '../../../common/hub-control';
import { ErrorBodySchema, type Scope } from '../../../common/wire';
import { type RunningCloud, startCloud } from '../../../services/cloud/cloud';
import { delegationToken, signIn, type TestClient } from './oauth-helpers';

export const HUB_USER = { email: 'ada@example.test', password: 'lovelace-1815' };
const client = (id: string): TestClient => ({ id, secret: `${id}-secret`, redirectUri: 'io.example.app:/cb' });
/** Every scope. */
export const FULL = client('full');
/** Look only: devices.readonly and flow.readonly. */
export const READONLY = client('readonly');
/** Flows only, no device scope. */
export const FLOWS_ONLY = client('flows-only');

const SCOPES_OF: Record<string, Scope[]> = {
  full: ['devices', 'flow.start', 'insights.readonly'],
  readonly: ['devices.readonly', 'flow.readonly'],
  'flows-only': ['flow.readonly'],
};

export function startTestCloud(hubIds: string[], now?: () => number): Promise<RunningCloud> {
  return startCloud({
    clients: [FULL, READONLY, FLOWS_ONLY].map((c) => ({
      id: c.id,
      secret: c.secret,
      name: c.id,
      native: true,
      redirectUris: [c.redirectUri],
      scopes: SCOPES_OF[c.id]!,
    })),
    users: [
      {
        _id: 'u1',
        ...HUB_USER,
        firstname: 'Ada',
        lastname: 'Lovelace',
        hubs: hubIds.map((id) => ({ _id: id, name: id, platform: 'local' as const, localUrl: null, localUrlSecure: null, remoteUrl: null })),
      },
    ],
    now,
  });
}

/** A hub session for `c` (a fresh sign-in and delegation token each time). */
export async function openSession(cloudUrl: string, hubUrl: string, c: TestClient, hubId: string): Promise<string> {
  const { access_token } = await signIn(cloudUrl, c, HUB_USER);
  const response = await fetch(`${hubUrl}/api/manager/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: await delegationToken(cloudUrl, access_token, hubId) }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as string;
}

export async function expectError(response: Response, status: number, error?: string) {
  expect(response.status).toBe(status);
  const body = ErrorBodySchema.parse(await response.json());
  if (error) expect(body.error).toBe(error);
}

export interface Closed {
  code: number;
  reason: string;
}

/** A realtime client: every message the hub sends is parsed with the shared schema and queued. */
export class RealtimeTestClient {
  private readonly queue: RealtimeServerMessage[] = [];
  private waiting: ((message: RealtimeServerMessage) => void) | undefined;
  readonly closed: Promise<Closed>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = RealtimeServerMessageSchema.parse(JSON.parse(data.toString('utf8')));
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(message);
      } else this.queue.push(message);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async connect(baseUrl: string, options: ClientOptions = {}): Promise<RealtimeTestClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${REALTIME_PATH}`, options);
    const client = new RealtimeTestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Connects, authenticates and subscribes; returns once the hub said `subscribed`. */
  static async subscribed(baseUrl: string, token: string, uris: string[]): Promise<RealtimeTestClient> {
    const client = await RealtimeTestClient.connect(baseUrl);
    client.send({ type: 'auth', token });
    expect((await client.next()).type).toBe('ready');
    client.send({ type: 'subscribe', uris });
    expect(await client.next()).toMatchObject({ type: 'subscribed' });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message, or a rejection if the socket closes first. */
  next(): Promise<RealtimeServerMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return Promise.race([
      new Promise<RealtimeServerMessage>((resolve) => (this.waiting = resolve)),
      this.closed.then((closed) => Promise.reject(new Error(`closed ${closed.code} ${closed.reason}`))),
    ]);
  }

  close(): Promise<Closed> {
    this.socket.close();
    return this.closed;
  }
}
