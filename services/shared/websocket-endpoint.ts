/**
 * What the services' WebSocket endpoints (the hub's realtime channel, the forwarder's listener channel)
 * share: accepting upgrades on one path only, and a heartbeat that drops peers that stopped answering.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';

/** An HTTP server 'upgrade' handler: `path` becomes a WebSocket of `wss` ('connection'), anything else 404. */
export function upgradeOnPath(wss: WebSocketServer, path: string): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://service').pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
}

/** Pings in a row a peer may leave unanswered; at the next interval it is dropped. */
const HEARTBEAT_MISSES_ALLOWED = 1;

/**
 * Pings every peer of `wss` every `intervalMs`; a peer that has answered none of the last two pings is
 * terminated (and `onDropped` told). Returns the function that stops it.
 *
 * Made to hold on a busy machine, where this process can be kept from running for longer than an
 * interval (docs/testing.md, "A suite that passes on a busy machine"):
 * - peers are judged in the event loop's check phase (setImmediate), after its poll phase has read what
 *   already arrived: an interval that fires late would otherwise run before a waiting pong is read;
 * - one unanswered ping is forgiven: a ping sent just before this process was held can meet the next
 *   interval before its answer has been read, however quickly the peer answered.
 */
export function startHeartbeat(wss: WebSocketServer, intervalMs: number, onDropped: () => void = () => {}): () => void {
  const unanswered = new WeakMap<WebSocket, number>();
  wss.on('connection', (socket: WebSocket) => {
    unanswered.set(socket, 0);
    socket.on('pong', () => unanswered.set(socket, 0));
  });
  let stopped = false;
  const judge = () => {
    if (stopped) return;
    for (const socket of wss.clients) {
      const misses = unanswered.get(socket) ?? 0;
      if (misses > HEARTBEAT_MISSES_ALLOWED) {
        onDropped();
        socket.terminate();
        continue;
      }
      unanswered.set(socket, misses + 1);
      socket.ping();
    }
  };
  const timer = setInterval(() => setImmediate(judge), intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
