/**
 * services/shared/accept-backlog.ts over real loopback connections: connections made while the event loop
 * is busy wait in the kernel and are accepted one per turn, which it reports as being behind; a connection
 * that finds no queue is not.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchAcceptBacklog } from '../../../../services/shared/accept-backlog';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listening(): Promise<{ port: number; seen: boolean[]; backlog: ReturnType<typeof watchAcceptBacklog> }> {
  const seen: boolean[] = [];
  server = createServer((socket) => socket.on('error', () => {}));
  const backlog = watchAcceptBacklog(server, 4);
  // After the watcher's own listener: what it says once it counted this connection.
  server.on('connection', () => seen.push(backlog.behind));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, seen, backlog };
}

const connected = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', resolve).on('error', reject);
    sockets.push(socket);
  });

describe('watchAcceptBacklog', () => {
  it('is behind while connections that queued in the kernel are accepted, and not once they are', async () => {
    const { port, seen, backlog } = await listening();
    // Made in one turn: all twelve wait in the kernel before the server accepts the first.
    await Promise.all(Array.from({ length: 12 }, () => connected(port)));
    await vi.waitFor(() => expect(seen).toHaveLength(12), { interval: 1 });
    // Accepted one per turn: the fourth and later found the queue behind them.
    expect(seen.slice(0, 3)).toEqual([false, false, false]);
    expect(seen.slice(3).every(Boolean)).toBe(true);
    expect(backlog.acceptingTurns).toBe(12);
    // The queue is empty again: a turn without a connection ended the count.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(backlog.behind).toBe(false);
  });

  it('is not behind for connections that each find no queue', async () => {
    const { port, seen } = await listening();
    for (let i = 0; i < 6; i++) {
      await connected(port);
      await vi.waitFor(() => expect(seen).toHaveLength(i + 1), { interval: 1 });
      // A turn with nothing to accept before the next connection is made.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen).toEqual([false, false, false, false, false, false]);
  });
});
