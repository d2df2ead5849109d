/**
 * The services' heartbeat (services/shared/websocket-endpoint.ts) over real loopback sockets: a peer that
 * answers every ping stays, even when this process is kept from running for several intervals at a time
 * (as on a busy machine: the interval then fires before the waiting pong is read), and a peer that never
 * answers is dropped.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startHeartbeat, upgradeOnPath } from '../../../../services/shared/websocket-endpoint';

const INTERVAL_MS = 20;

/** Keeps this thread busy for `ms`, as a descheduled process or a long turn would: no timer, no socket is served meanwhile. */
function holdTheLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* busy */
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function endpoint(): Promise<{ url: string; dropped: () => number }> {
  const server: Server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', upgradeOnPath(wss, '/live'));
  let dropped = 0;
  const stop = startHeartbeat(wss, INTERVAL_MS, () => dropped++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    stop();
    for (const client of wss.clients) client.terminate();
    wss.close();
    server.close();
    await once(server, 'close');
  });
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/live`, dropped: () => dropped };
}

async function connect(url: string, options: { autoPong?: boolean } = {}): Promise<WebSocket> {
  const socket = new WebSocket(url, options);
  cleanups.push(() => socket.terminate());
  await once(socket, 'open');
  return socket;
}

describe('startHeartbeat', () => {
  it('keeps a peer that answers every ping while the process is held for several intervals after each one', async () => {
    const { url, dropped } = await endpoint();
    const healthy = await connect(url);
    let pings = 0;
    // The pong is sent before 'ping' is emitted; the hold then lets the next interval fall due before it is read.
    healthy.on('ping', () => {
      pings++;
      holdTheLoop(INTERVAL_MS * 4);
    });
    const dropping = once(healthy, 'close').then(([code]) => {
      throw new Error(`the healthy peer was dropped (${String(code)})`);
    });
    while (pings < 5) await Promise.race([once(healthy, 'ping'), dropping]);
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    expect(dropped()).toBe(0);
  });

  it('drops a peer that does not answer, and keeps the one that does', async () => {
    const { url, dropped } = await endpoint();
    const healthy = await connect(url);
    const silent = await connect(url, { autoPong: false });
    const [code] = (await once(silent, 'close')) as [number];
    expect(code).toBe(1006); // terminated, no close frame
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    expect(dropped()).toBe(1);
  });

  it('answers 404 to an upgrade on another path', async () => {
    const { url } = await endpoint();
    const stray = new WebSocket(url.replace('/live', '/elsewhere'));
    const [, response] = (await once(stray, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(404);
  });
});
