/**
 * Per-address limits under a listener's global ones (docs/security.md, "One client's share"): what one
 * client network (networkOf: an IPv4 address, an IPv6 /64) may hold of a listener — connections open,
 * new connections a second, requests in flight — so that one client's many slow connections cannot take
 * the slots every client shares.
 *
 * A connection over its address's limits is refused as it arrives, before any of it is read: on a plain
 * listener with `429` in the services' JSON error shape, `Retry-After` and `Connection: close`; on a TLS
 * listener it is closed (an answer would cost the handshake the limit saves). Such a socket is marked, so
 * that a request or upgrade Node parses from it before it closes is not served. A request beyond its
 * address's requests in flight is answered 429 and not served; a lingering close reads what is still
 * coming of its body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIPv4, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Server as TlsServer } from 'node:tls';
import { lingerOnClose } from './lingering-close';
import { networkOf } from './login-throttle';

export interface AddressLimits {
  /** Connections one address may hold open at once on a listener (WebSockets included). */
  maxConnectionsPerAddress: number;
  /** New connections one address may open a second, on average (a token bucket)… */
  newConnectionsPerSecondPerAddress: number;
  /** …and at once, after a quiet while (the bucket's size). */
  newConnectionBurstPerAddress: number;
  /** Requests of one address received (headers in) and not yet answered. */
  maxRequestsPerAddress: number;
  /**
   * Addresses or CIDR blocks counted against the global limits only: a reverse proxy in front, whose
   * connections carry every client's requests and which limits each client itself (docs/services.md).
   */
  exemptAddresses: readonly string[];
}

/** docs/security.md ("One client's share") says why these numbers. */
export const DEFAULT_ADDRESS_LIMITS: AddressLimits = {
  maxConnectionsPerAddress: 100,
  newConnectionsPerSecondPerAddress: 100,
  newConnectionBurstPerAddress: 100,
  maxRequestsPerAddress: 50,
  exemptAddresses: [],
};

/** How often addresses that hold nothing and whose bucket is full again are forgotten. */
const SWEEP_MS = 10_000;
const RETRY_AFTER_SECONDS = 1;

export type AddressRefusal = 'connections' | 'rate' | 'requests';

interface Entry {
  open: number;
  inFlight: number;
  tokens: number;
  refilledAt: number;
}

/** The counts per client network; no sockets, so it can be tested with a clock alone. */
export class AddressTable {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: AddressLimits,
    private readonly now: () => number = Date.now,
  ) {
    for (const [name, value] of Object.entries(limits)) {
      if (typeof value === 'number' && !(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Counts a new connection of `key` until `closed`, or says why it is refused (then nothing is counted). */
  openConnection(key: string): AddressRefusal | undefined {
    const entry = this.refilled(key);
    if (entry.open >= this.limits.maxConnectionsPerAddress) return 'connections';
    if (entry.tokens < 1) return 'rate';
    entry.tokens--;
    entry.open++;
    return undefined;
  }

  closed(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.open--;
  }

  /** Counts a request of `key` until `answered`; false when it has its limit in flight already. */
  startRequest(key: string): boolean {
    const entry = this.refilled(key);
    if (entry.inFlight >= this.limits.maxRequestsPerAddress) return false;
    entry.inFlight++;
    return true;
  }

  answered(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.inFlight--;
  }

  /** Forgets the addresses that hold nothing and could open a full burst again. */
  sweep(): void {
    for (const key of this.entries.keys()) {
      const entry = this.refilled(key);
      if (entry.open === 0 && entry.inFlight === 0 && entry.tokens >= this.limits.newConnectionBurstPerAddress) this.entries.delete(key);
    }
  }

  private refilled(key: string): Entry {
    const now = this.now();
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { open: 0, inFlight: 0, tokens: this.limits.newConnectionBurstPerAddress, refilledAt: now };
      this.entries.set(key, entry);
    }
    const rate = this.limits.newConnectionsPerSecondPerAddress;
    entry.tokens = Math.min(this.limits.newConnectionBurstPerAddress, entry.tokens + (Math.max(0, now - entry.refilledAt) * rate) / 1000);
    entry.refilledAt = now;
    return entry;
  }
}

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;
type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface AddressGate {
  /** False for a connection refused here (its requests and upgrades must be ignored); true for one exempt or counted. */
  admits(socket: Socket): boolean;
  /** `handler`, but a request of a refused connection is ignored and one beyond its address's requests in flight answered 429. */
  requests(handler: RequestHandler): RequestHandler;
  /** `handler`, but an upgrade of a refused connection is ignored. */
  upgrades(handler: UpgradeHandler): UpgradeHandler;
}

/** Attaches the limits to `server` (its own counts: a service's HTTP and HTTPS listeners are limited each). */
export function limitAddresses(server: Server, limits: AddressLimits, onRefused: (reason: AddressRefusal) => void = () => {}): AddressGate {
  const table = new AddressTable(limits);
  const exempt = exemptList(limits.exemptAddresses);
  const refused = new WeakSet<Socket>();
  const keys = new WeakMap<Socket, string>();
  const answerOnRefusal = !(server instanceof TlsServer);
  const sweeper = setInterval(() => table.sweep(), SWEEP_MS).unref();
  server.once('close', () => clearInterval(sweeper));
  // Before Node's own listener, so the refusal is the first thing the peer reads.
  server.prependListener('connection', (socket: Socket) => {
    // Already refused by the global cap (connection-limit.ts), or gone.
    if (socket.writableEnded || socket.destroyed) return;
    const address = plainAddress(socket.remoteAddress ?? '');
    if (exempt.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')) return;
    const key = networkOf(address);
    const refusal = table.openConnection(key);
    if (refusal) {
      refused.add(socket);
      onRefused(refusal);
      socket.on('error', () => {});
      if (answerOnRefusal) {
        socket.end(tooManyAnswer(refusal));
        socket.once('finish', () => socket.destroy());
      } else socket.destroy();
      return;
    }
    keys.set(socket, key);
    socket.once('close', () => table.closed(key));
  });
  const admits = (socket: Socket) => !refused.has(socket);
  return {
    admits,
    requests: (handler) => (request, response) => {
      if (!admits(request.socket)) return;
      const key = keys.get(request.socket);
      if (key === undefined) return handler(request, response);
      if (!table.startRequest(key)) {
        onRefused('requests');
        // Only a body still on its way needs reading (and dropping) before the close.
        if (request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0) lingerOnClose(request);
        response.writeHead(429, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'retry-after': String(RETRY_AFTER_SECONDS),
          connection: 'close',
        });
        response.end(refusalBody('requests'));
        return;
      }
      response.once('close', () => table.answered(key));
      handler(request, response);
    },
    upgrades: (handler) => (request, socket, head) => {
      if (admits(request.socket)) handler(request, socket, head);
    },
  };
}

const DESCRIPTIONS: Record<AddressRefusal, string> = {
  connections: 'Your address has as many connections open as one address may; close one or try again later.',
  rate: 'Your address opened new connections faster than one address may; try again later.',
  requests: 'Your address has as many requests under way as one address may; try again when one is answered.',
};

function refusalBody(reason: AddressRefusal): string {
  return JSON.stringify({ error: 'too_many_requests', error_description: DESCRIPTIONS[reason] });
}

function tooManyAnswer(reason: AddressRefusal): string {
  const body = refusalBody(reason);
  return (
    `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
    `Retry-After: ${RETRY_AFTER_SECONDS}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** An IPv4 address a dual-stack listener reports as IPv4-mapped IPv6 (`::ffff:192.0.2.1`), as IPv4. */
function plainAddress(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

/** `192.0.2.7`, `10.0.0.0/8`, `2001:db8::/32`: a bad entry throws, so a typo cannot silently exempt nothing. */
export function exemptList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    try {
      if (prefix === undefined) list.addAddress(address, type);
      else if (/^\d{1,3}$/.test(prefix)) list.addSubnet(address, Number(prefix), type);
      else throw new Error('bad prefix');
    } catch {
      throw new RangeError(`not an address or CIDR block: ${entry}`);
    }
  }
  return list;
}
