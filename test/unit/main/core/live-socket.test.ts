import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { type LiveSocketEnd, realtimeUrl, wsLiveSocket } from '../../../../main/core/live-socket';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A loopback server: upgrades on /api/realtime (echoing, then closing with 4001 on "bye"), 404 elsewhere. */
async function start(): Promise<string> {
  const sockets = new WebSocketServer({ noServer: true });
  server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/api/realtime') return void socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    sockets.handleUpgrade(request, socket, head, (ws) => ws.on('message', (data) => (String(data) === 'bye' ? ws.close(4001, 'session expired') : ws.send(String(data)))));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function connect(url: string) {
  const received: string[] = [];
  let opened!: () => void;
  let ended!: (end: LiveSocketEnd) => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const end = new Promise<LiveSocketEnd>((resolve) => (ended = resolve));
  const socket = wsLiveSocket()(url, { onOpen: () => opened(), onMessage: (text) => received.push(text), onResponding: () => {}, onClose: (e) => ended(e) });
  return { socket, received, open, end };
}

describe('realtime socket adapter', () => {
  it('derives ws:// and wss:// from the base URL, keeping its path', () => {
    expect(realtimeUrl('http://192.168.1.5/')).toBe('ws://192.168.1.5/api/realtime');
    expect(realtimeUrl('https://hub.example:4443/prefix')).toBe('wss://hub.example:4443/prefix/api/realtime');
  });

  it('passes text frames and the close code and reason of the hub', async () => {
    const base = await start();
    const { socket, received, open, end } = connect(realtimeUrl(base));
    await open;
    socket.send('hello');
    socket.send('bye');
    expect(await end).toEqual({ code: 4001, reason: 'session expired' });
    expect(received).toEqual(['hello']);
  });

  it('reports an HTTP answer instead of an upgrade with its status', async () => {
    const base = await start();
    const { end } = connect(`${base.replace('http', 'ws')}/elsewhere`);
    expect(await end).toMatchObject({ httpStatus: 404 });
  });
});
