/**
 * A loopback TCP proxy the tests can cut: `drop()` ends every connection through it and refuses new
 * ones until `restore()`, so a real client sees a real network failure while the server keeps running.
 * With `tls` it terminates TLS in front of a plain server (an https service behind a certificate).
 */
import { createServer, connect, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  url: string;
  /** Connections accepted and piped through so far. */
  connections(): number;
  drop(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string, options: { tls?: { key: string; cert: string } } = {}): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let accepting = true;
  let accepted = 0;
  const pipe = (client: Socket) => {
    if (!accepting) return client.destroy();
    accepted++;
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const server = options.tls ? createTlsServer(options.tls, pipe) : createServer(pipe);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    drop() {
      accepting = false;
      for (const socket of open) socket.destroy();
    },
    restore: () => void (accepting = true),
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
