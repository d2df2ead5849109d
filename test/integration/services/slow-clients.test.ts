/**
 * The connection limits every fastify service gets from createServiceApp (ConnectionLimits): a client
 * that trickles its body, never finishes its headers, or says nothing is cut off with 408; an idle
 * keep-alive connection is closed; connections beyond the cap are closed at once while the ones
 * already open are still served. Run against the cloud, the hub and the tools portal with short
 * limits; the tests wait for the server's answer or close, never for a time.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionLimits } from '../../../services/shared/http-app';
import { FASTIFY_SERVICES, type Running } from '../../support/limited-services';
import { rawExchange, writeAsync } from '../../support/raw-http';

/** Short timeouts so the tests are quick; the cap out of the way. */
const SHORT: Partial<ConnectionLimits> = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, maxConnections: 100 };
/** A cap of two; timeouts out of the way. */
const CAPPED: Partial<ConnectionLimits> = { headersTimeoutMs: 20_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 20_000, maxConnections: 2 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(FASTIFY_SERVICES)('$name', (service) => {
  let short: Running;
  let capped: Running;
  beforeAll(async () => {
    [short, capped] = await Promise.all([service.start(SHORT), service.start(CAPPED)]);
  });
  afterAll(async () => {
    await Promise.all([short?.close(), capped?.close()]);
  });

  const expectServing = async (running: Running) => expect((await fetch(running.url + service.get)).status).toBe(200);

  it('cuts off a body trickled one byte at a time with 408, then serves a normal request', async () => {
    let sent = 0;
    const answer = await rawExchange(short.url, async (socket, answered) => {
      await writeAsync(
        socket,
        `POST ${service.post.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${service.post.contentType}\r\nContent-Length: 1000\r\n\r\n`,
      );
      // The pause paces the trickle; the test waits for the server's answer, not for a time.
      while (!answered() && !socket.destroyed && sent < 1000) {
        await writeAsync(socket, 'a').catch(() => socket.destroy());
        sent++;
        await pause(20);
      }
    });
    expect(answer.status).toBe(408);
    expect(answer.text).toContain('"error":"request_timeout"');
    expect(sent).toBeLessThan(1000); // cut off before the body was complete
    await expectServing(short);
  });

  it('cuts off headers that never end, and a connection that says nothing, with 408', async () => {
    const slowHeaders = await rawExchange(short.url, (socket) => void socket.write(`GET ${service.get} HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
    expect(slowHeaders.status).toBe(408);
    const silent = await rawExchange(short.url, () => {});
    expect(silent.status).toBe(408);
    await expectServing(short);
  });

  it('closes an idle keep-alive connection', async () => {
    const socket = await connected(short.url);
    expect(await get(socket, service.get)).toBe(200);
    await closed(socket); // would time the test out if the server kept it open
  });

  it('closes connections beyond the cap at once and still serves the open ones', async () => {
    const first = await connected(capped.url);
    const second = await connected(capped.url);
    expect(await get(first, service.get)).toBe(200);
    expect(await get(second, service.get)).toBe(200);

    const third = await connected(capped.url);
    let received = '';
    third.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    third.write(`GET ${service.get} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await closed(third);
    expect(received).toBe(''); // closed unanswered

    expect(await get(first, service.get)).toBe(200);
    expect(await get(second, service.get)).toBe(200);
    first.destroy();
    second.destroy();
  });
});

function connected(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

function closed(socket: Socket): Promise<void> {
  socket.on('error', () => {}); // a reset is a close too
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

/** One keep-alive GET on an open socket; resolves with the status once the whole answer is in. */
function get(socket: Socket, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text);
      if (end < 0 || !length || text.length < end + 4 + Number(length[1])) return;
      socket.off('data', onData).off('close', onClose);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)![1]));
    };
    const onClose = () => reject(new Error(`closed before an answer: ${JSON.stringify(text.slice(0, 100))}`));
    socket.on('data', onData).once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}
