/**
 * A cap on the forwarder server's concurrent TCP connections, intake and listener channel together
 * (docs/security.md, "Byte budgets"): every connection may hold memory outside the resume budget — a request body being read
 * (up to the intake's body limit) or a listener socket's unsent bytes (up to HIGH_WATER_BYTES plus one
 * frame) — so their number bounds that memory.
 *
 * Node's own `server.maxConnections` destroys an excess connection without a word; here it gets a
 * `503` in the services' JSON error shape with `Retry-After` and `Connection: close` (a WebSocket client
 * sees it as the upgrade's answer), and is closed once that is written. Such a socket is marked so that
 * a request Node parses from it before it closes is not served.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Listener sockets and intake connections together; see docs/security.md for what each may hold. */
export const DEFAULT_MAX_CONNECTIONS = 1000;
const RETRY_AFTER_SECONDS = 5;

export interface ConnectionLimit {
  /** Connections open now (the refused ones not counted). */
  readonly open: number;
  /** False for a connection that was refused: its requests and upgrades must be ignored. */
  admits(socket: Socket): boolean;
}

export function limitConnections(server: Server, max: number, onRefused: () => void = () => {}): ConnectionLimit {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxConnections must be a positive integer, got ${max}`);
  const refused = new WeakSet<Socket>();
  let open = 0;
  const body = JSON.stringify({
    error: 'temporarily_unavailable',
    error_description: `The forwarder has ${max} open connections, its limit; try again later.`,
  });
  const answer =
    `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
    `Retry-After: ${RETRY_AFTER_SECONDS}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  // Before Node's own listener, so the refusal is the first thing the peer reads.
  server.prependListener('connection', (socket: Socket) => {
    if (open >= max) {
      refused.add(socket);
      onRefused();
      socket.on('error', () => {});
      socket.end(answer);
      socket.once('finish', () => socket.destroy());
      return;
    }
    open++;
    socket.once('close', () => open--);
  });
  return {
    get open() {
      return open;
    },
    admits: (socket) => !refused.has(socket),
  };
}
