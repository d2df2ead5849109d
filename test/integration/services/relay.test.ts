/**
 * The relay over real sockets: bytes pass both ways in order, each direction held for the latency
 * (measured as a lower bound: the relay can only add time), ends and failures are passed on, and
 * close() ends the connections through it.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningRelay, startRelay } from '../../../services/relay/relay';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

/** A server that sends back every byte it receives, and ends the connection after a `.`. */
async function startEchoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      if (chunk.toString().endsWith('.')) socket.end(chunk);
      else socket.write(chunk);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function relayTo(target: string, latencyMs?: number): Promise<RunningRelay> {
  const relay = await startRelay({ target, latencyMs });
  cleanup.push(() => relay.close());
  return relay;
}

async function connectTo(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  cleanup.push(async () => void socket.destroy());
  return socket;
}

const nextData = (socket: Socket) => new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
const closed = (socket: Socket) => new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));

describe('relay', () => {
  it('forwards both ways and adds its latency in each direction', async () => {
    const { url } = await startEchoServer();
    const relay = await relayTo(url, 60);
    const socket = await connectTo(relay.url);
    const started = performance.now();
    socket.write('ping');
    expect(await nextData(socket)).toBe('ping');
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 60 - 2); // timer granularity
  });

  it.each([0, 20])('with latency %i, keeps the order of many chunks and passes a clean end on after the data', async (latencyMs) => {
    const { url } = await startEchoServer();
    const relay = await relayTo(url, latencyMs);
    const socket = await connectTo(relay.url);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.once('end', resolve));
    const words = Array.from({ length: 50 }, (_, i) => `word${i} `);
    for (const word of words) {
      socket.write(word);
      await new Promise((resolve) => setImmediate(resolve));
    }
    socket.write('.');
    await ended;
    expect(received).toBe(`${words.join('')}.`);
  });

  it('closes the client connection when the target refuses it', async () => {
    const { url, server } = await startEchoServer();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const relay = await relayTo(url, 0);
    const socket = await connectTo(relay.url);
    expect(await closed(socket)).toBe(true);
  });

  it('ends the connections through it on close', async () => {
    const { url } = await startEchoServer();
    const relay = await startRelay({ target: url, latencyMs: 0 });
    const socket = await connectTo(relay.url);
    socket.write('x');
    expect(await nextData(socket)).toBe('x');
    const whenClosed = closed(socket);
    await relay.close();
    expect(await whenClosed).toBe(true);
    await expect(connectTo(relay.url)).rejects.toThrow();
  });

  it('refuses a latency that is not a non-negative integer', async () => {
    await expect(startRelay({ target: 'http://127.0.0.1:1', latencyMs: -1 })).rejects.toThrow(RangeError);
    await expect(startRelay({ target: 'http://127.0.0.1:1', latencyMs: Number.NaN })).rejects.toThrow(RangeError);
  });
});
