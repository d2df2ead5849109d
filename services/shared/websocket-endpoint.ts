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

/**
 * Pings every peer of `wss` every `intervalMs`; a peer that has not answered the previous ping is
 * terminated (and `onDropped` told). Returns the function that stops it.
 */
export function startHeartbeat(wss: WebSocketServer, intervalMs: number, onDropped: () => void = () => {}): () => void {
  const alive = new WeakSet<WebSocket>();
  wss.on('connection', (socket: WebSocket) => {
    alive.add(socket);
    socket.on('pong', () => alive.add(socket));
  });
  const timer = setInterval(() => {
    for (const socket of wss.clients) {
      if (!alive.has(socket)) {
        onDropped();
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
