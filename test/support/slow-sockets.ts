/**
 * One client's many slow connections, and another client beside it (docs/security.md, "One client's
 * share"): the attacker keeps `sockets` connections open or opening from its own loopback address, each
 * sending a request's head and one byte of a body it never finishes, opens new ones at `perSecond` and
 * reconnects as soon as one is closed; the victim, from another address, asks `count` requests over a
 * keep-alive pool and counts the answers. Used by test/integration/services/address-limits.test.ts and
 * test/bench/slow-sockets.ts.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { createSecureContext, connect as tlsConnect } from 'node:tls';
import { performance } from 'node:perf_hooks';
import { createWebhookStore, type WebhookRecord, type WebhookStore } from '../../services/forwarder/webhook-store';

export const ATTACKER_ADDRESS = '127.0.0.2';
export const VICTIM_ADDRESS = '127.0.0.3';

/** A webhook the forwarder knows, so it reads the attacker's bodies (an unknown one is refused before its body). */
export const SLOW_WEBHOOK: WebhookRecord = {
  id: 'wh_slow',
  name: 'slow',
  ownerId: 'owner',
  secret: 'secret-of-wh_slow',
  keyPath: null,
  legacyFunction: null,
  createdAt: 0,
};

export async function slowWebhookStore(): Promise<WebhookStore> {
  const store = createWebhookStore();
  await store.seed(SLOW_WEBHOOK);
  return store;
}

export interface SlowAttackOptions {
  /** Connections kept open or opening at once. */
  sockets: number;
  /** New connections a second at the most (reconnects included). */
  perSecond: number;
  /** `POST <path>`, with this content type; one byte of a 1,000-byte body is sent. */
  path: string;
  contentType: string;
  /** The CA to trust for an https URL. */
  ca?: string;
}

export interface SlowAttack {
  /** Resolves once the first `sockets` connections have each been accepted or refused. */
  placed: Promise<void>;
  /** Connections attempted, and how many of them the server answered (429, 503, 408) or closed. */
  readonly counts: { attempted: number; answered: number; closed: number };
  stop(): void;
}

export function startSlowAttack(url: string, options: SlowAttackOptions): SlowAttack {
  const target = new URL(url);
  const port = Number(target.port);
  const head = `POST ${options.path} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: ${options.contentType}\r\nContent-Length: 1000\r\n\r\n{`;
  // One context for every connection: made per connection, the CA is parsed again each time, work of the load generator's that would slow the victim beside it.
  const secureContext = target.protocol === 'https:' ? createSecureContext({ ca: options.ca }) : undefined;
  const counts = { attempted: 0, answered: 0, closed: 0 };
  const open = new Set<Socket>();
  const silent = new Set<Socket>();
  let live = 0;
  let stopped = false;
  let settledFirst = 0;
  let placed!: () => void;
  const placedPromise = new Promise<void>((resolve) => (placed = resolve));
  const settleFirst = (first: boolean) => {
    if (first && ++settledFirst === options.sockets) placed();
  };
  const openOne = () => {
    const first = counts.attempted < options.sockets;
    counts.attempted++;
    live++;
    const connectOptions = { host: target.hostname, port, localAddress: ATTACKER_ADDRESS };
    const socket: Socket =
      target.protocol === 'https:' ? tlsConnect({ ...connectOptions, secureContext }, () => accepted()) : netConnect(connectOptions, () => accepted());
    let settled = false;
    const accepted = () => {
      socket.write(head);
      silent.add(socket);
      // Accepted: a refusal comes as an answer or a close, so it is placed once its head is written.
      if (!settled) settleFirst(first);
      settled = true;
    };
    open.add(socket);
    socket.on('data', () => {
      if (silent.delete(socket)) counts.answered++;
    });
    socket.on('error', () => {});
    socket.once('close', () => {
      open.delete(socket);
      silent.delete(socket);
      counts.closed++;
      live--;
      if (!settled) settleFirst(first);
      settled = true;
    });
  };
  // Paced in steps of 10 ms: at most perSecond new connections a second, never more than `sockets` live.
  let budget = 0;
  let last = performance.now();
  const pacer = setInterval(() => {
    const now = performance.now();
    budget = Math.min(options.sockets, budget + ((now - last) * options.perSecond) / 1000);
    last = now;
    while (!stopped && budget >= 1 && live < options.sockets) {
      budget--;
      openOne();
    }
  }, 10);
  return {
    placed: placedPromise,
    counts,
    stop() {
      stopped = true;
      clearInterval(pacer);
      for (const socket of open) socket.destroy();
    },
  };
}

export interface VictimResult {
  answered: number;
  failed: number;
  /** Milliseconds from sending to the whole answer, of the answered requests (for the bench). */
  latencies: number[];
}

/**
 * What the victim asks, with no body and no credentials, and the status that counts as answered: a GET
 * answered 200, or for the forwarder, whose public port has no GET, an intake answered 202.
 */
export interface VictimRequest {
  path: string;
  method: 'GET' | 'POST';
  status: number;
}

export const victimGet = (path: string): VictimRequest => ({ path, method: 'GET', status: 200 });

/** `count` requests to `baseUrl` from VICTIM_ADDRESS over a keep-alive pool of `concurrency`; a request not answered `request.status` within `boundMs` of being sent fails. */
export async function victimRequests(
  baseUrl: string,
  request: VictimRequest,
  options: { count: number; concurrency: number; boundMs: number; ca?: string },
): Promise<VictimResult> {
  const url = baseUrl + request.path;
  const https = url.startsWith('https:');
  const agentOptions = { keepAlive: true, maxSockets: options.concurrency, localAddress: VICTIM_ADDRESS };
  const agent = https ? new HttpsAgent({ ...agentOptions, ca: options.ca }) : new HttpAgent(agentOptions);
  const result: VictimResult = { answered: 0, failed: 0, latencies: [] };
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      let finished = false;
      const done = (status: boolean) => {
        if (finished) return;
        finished = true;
        const elapsed = performance.now() - started;
        // The socket's timeout cuts a silent wait; an answer that trickled in past the bound is late all the same.
        const ok = status && elapsed <= options.boundMs;
        if (ok) result.latencies.push(elapsed);
        result[ok ? 'answered' : 'failed']++;
        resolve();
      };
      const req = (https ? httpsRequest : httpRequest)(url, { agent, method: request.method, timeout: options.boundMs }, (response) => {
        response.resume();
        response.once('end', () => done(response.statusCode === request.status));
        response.once('error', () => done(false));
      });
      req.once('timeout', () => req.destroy(new Error('not answered within the bound')));
      req.once('error', () => done(false));
      req.end();
    });
  let next = 0;
  const worker = async () => {
    while (next++ < options.count) await one();
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  return result;
}
