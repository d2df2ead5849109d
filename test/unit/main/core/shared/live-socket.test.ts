import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { REALTIME_PING, REALTIME_PONG } from '../../../../../common/hub-control';
import {
  GAVE_UP_REASON,
  type LiveSocketEnd,
  REALTIME_GIVE_UP_AFTER_MS,
  REALTIME_PING_MS,
  REALTIME_SILENT_AFTER_MS,
  realtimeUrl,
  wsLiveSocket,
} from '../../../../../main/core/shared/live-socket';
import { type FakeTimeline, fakeTimeline } from '../../../../support/fake-timeline';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const READY = (answersPing: boolean) =>
  JSON.stringify({ type: 'ready', scopes: ['devices'], expiresAt: '2030-01-01T00:00:00.000Z', ...(answersPing && { answersPing }) });

/**
 * A loopback server: upgrades on /api/realtime, 404 elsewhere. It echoes text, closes with 4001 on
 * "bye", answers "auth" and "auth-ping" with a `ready` without and with `answersPing`, and the protocol's
 * ping with its pong. Pongs to WebSocket pings by hand: muted, it answers nothing (a frozen hub).
 */
async function start() {
  const sockets = new WebSocketServer({ noServer: true, autoPong: false });
  const seen = { wsPings: 0, textPings: 0, muted: false };
  server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/api/realtime') return void socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    sockets.handleUpgrade(request, socket, head, (ws) => {
      ws.on('ping', (data) => {
        seen.wsPings++;
        if (!seen.muted) ws.pong(data);
      });
      ws.on('message', (data) => {
        const text = String(data);
        if (text === REALTIME_PING) {
          seen.textPings++;
          if (!seen.muted) ws.send(REALTIME_PONG);
        } else if (text === 'bye') ws.close(4001, 'session expired');
        else if (text === 'auth' || text === 'auth-ping') ws.send(READY(text === 'auth-ping'));
        else ws.send(text);
      });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function connect(url: string, time?: FakeTimeline) {
  const received: string[] = [];
  const responding: boolean[] = [];
  let opened!: () => void;
  let ended!: (end: LiveSocketEnd) => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const end = new Promise<LiveSocketEnd>((resolve) => (ended = resolve));
  const socket = wsLiveSocket(
    undefined,
    time?.schedule,
    time?.clock,
  )(url, {
    onOpen: () => opened(),
    onMessage: (text) => received.push(text),
    onResponding: (value) => responding.push(value),
    onClose: (e) => ended(e),
  });
  return { socket, received, responding, open, end };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
};

describe('realtime socket adapter', () => {
  it('derives ws:// and wss:// from the base URL, keeping its path', () => {
    expect(realtimeUrl('http://192.168.1.5/')).toBe('ws://192.168.1.5/api/realtime');
    expect(realtimeUrl('https://hub.example:4443/prefix')).toBe('wss://hub.example:4443/prefix/api/realtime');
  });

  it('passes text frames and the close code and reason of the hub', async () => {
    const { base } = await start();
    const { socket, received, open, end } = connect(realtimeUrl(base));
    await open;
    socket.send('hello');
    socket.send('bye');
    expect(await end).toEqual({ code: 4001, reason: 'session expired' });
    expect(received).toEqual(['hello']);
  });

  it('reports an HTTP answer instead of an upgrade with its status', async () => {
    const { base } = await start();
    const { end } = connect(`${base.replace('http', 'ws')}/elsewhere`);
    expect(await end).toMatchObject({ httpStatus: 404 });
  });
});

/** A socket on the fake timeline, open; with `auth`, also authenticated (the hub said `ready`, with or without `answersPing`). */
async function openOnTimeline(auth?: 'auth' | 'auth-ping') {
  const { base, seen } = await start();
  const time = fakeTimeline();
  const client = connect(realtimeUrl(base), time);
  let closed = false;
  void client.end.then(() => (closed = true));
  await client.open;
  if (auth) {
    client.socket.send(auth);
    await until(() => client.received.length === 1);
  }
  return { ...client, seen, time, closed: () => closed };
}

describe('realtime socket liveness', () => {
  it("pings with WebSocket pings until the hub says it answers the protocol's ping, then with that; its pongs are not messages", async () => {
    const { socket, received, responding, seen, time } = await openOnTimeline();
    time.advance(REALTIME_PING_MS);
    await until(() => seen.wsPings === 1);
    socket.send('auth-ping');
    await until(() => received.length === 1);
    time.advance(REALTIME_PING_MS);
    await until(() => seen.textPings === 1);
    socket.send('after');
    await until(() => received.length === 2);
    expect(received).toEqual([READY(true), 'after']); // the pong was swallowed
    expect(seen.wsPings).toBe(1);
    expect(responding).toEqual([]);
    socket.close();
  });

  it('keeps WebSocket pings for a hub whose ready says nothing of pings (an older hub would close on an unknown message)', async () => {
    const { socket, seen, time } = await openOnTimeline('auth');
    time.advance(REALTIME_PING_MS);
    time.advance(REALTIME_PING_MS);
    await until(() => seen.wsPings === 2);
    expect(seen.textPings).toBe(0);
    socket.close();
  });

  it('a silent hub is not responding, the socket kept; its next answer makes it responding again', async () => {
    const { socket, responding, seen, time, closed } = await openOnTimeline('auth-ping');
    seen.muted = true;
    time.advance(REALTIME_PING_MS);
    time.advance(REALTIME_SILENT_AFTER_MS - REALTIME_PING_MS);
    expect(responding).toEqual([false]);
    seen.muted = false;
    time.advance(REALTIME_PING_MS); // the next ping is answered
    await until(() => responding.length === 2);
    expect(responding).toEqual([false, true]);
    expect(closed()).toBe(false);
    socket.close();
  });

  it('a hub silent for REALTIME_GIVE_UP_AFTER_MS is given up: onClose says so', async () => {
    const { responding, seen, time, end } = await openOnTimeline();
    seen.muted = true;
    time.advance(REALTIME_GIVE_UP_AFTER_MS);
    expect(await end).toEqual({ code: 1006, reason: GAVE_UP_REASON });
    expect(responding).toEqual([false]);
  });

  it('after close from our side, no report follows', async () => {
    const { socket, responding, seen, time } = await openOnTimeline();
    seen.muted = true;
    socket.close();
    time.advance(REALTIME_GIVE_UP_AFTER_MS);
    expect(responding).toEqual([]);
    expect(time.pending()).toBe(0);
  });
});
