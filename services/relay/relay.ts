/**
 * The hubs' remote route: a TCP relay in front of a hub that holds every chunk of data for
 * `latencyMs` in each direction, as a path over the internet would. The app's route selection
 * then meets a remote route that is realistically slower than the LAN ones.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export const DEFAULT_RELAY_LATENCY_MS = 80;

export interface RelayOptions {
  /** The hub's base URL (`http://host:port`); only host and port are used. */
  target: string;
  /** Added to each direction; default DEFAULT_RELAY_LATENCY_MS, 0 forwards at once. */
  latencyMs?: number;
  host?: string;
  port?: number;
}

export interface RunningRelay {
  /** The relay's base URL (`http://host:port`): the hub's remote address. */
  url: string;
  close(): Promise<void>;
}

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const latencyMs = options.latencyMs ?? DEFAULT_RELAY_LATENCY_MS;
  if (!Number.isInteger(latencyMs) || latencyMs < 0) throw new RangeError(`latencyMs must be a non-negative integer, not ${latencyMs}`);
  const target = new URL(options.target);
  const targetHost = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));

  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    }
    forwardDelayed(client, upstream, latencyMs);
    forwardDelayed(upstream, client, latencyMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostPart}:${address.port}`,
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Copies `from` to `to`, each chunk, the end and a failure arriving `latencyMs` later. Timers of the
 * same duration fire in the order they were set, so the byte order is kept.
 */
function forwardDelayed(from: Socket, to: Socket, latencyMs: number): void {
  const later = (action: () => void): void => {
    if (latencyMs === 0) action();
    else setTimeout(action, latencyMs);
  };
  from.on('data', (chunk: Buffer) => {
    later(() => {
      // Back-pressure: stop reading while the other side's buffer is full.
      if (!to.destroyed && !to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
  });
  from.on('end', () => later(() => to.end()));
  // A reset or refused connection on one side cuts the other; a clean end was passed on above and
  // closes the other side once its data is flushed. The error itself is the peer's to see, not ours.
  from.on('error', () => undefined);
  from.on('close', () => {
    if (!from.readableEnded) later(() => to.destroy());
  });
}
