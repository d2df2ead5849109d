/**
 * A TCP listener that accepts every connection and never sends a byte: the worst kind of dead route,
 * since a client sees no refusal and must rely on its deadline. Connections are held until close().
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SilentListener {
  /** An https URL on the listener (TLS never completes, as no ServerHello is sent). */
  url: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startSilentListener(): Promise<SilentListener> {
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    open.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
