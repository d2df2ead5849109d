/**
 * Forward to (main/core/webhooks/webhook-forwarding.ts): retries with backoff on a fake timeline, the queue's
 * bounds (oldest dropped, counted), re-deliveries not sent twice; and against a real loopback server,
 * what is sent (hop-by-hop headers left out, the exact bytes, the query), a redirect not followed and
 * the answer read only up to its bound.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ForwardState } from '../../../../../common/forward-target';
import type { RawAnswer, RawRequest } from '../../../../../main/core/shared/raw-request';
import { createForwarding, FORWARD_MAX_ATTEMPTS, type ForwardableMessage, type ForwardProgress } from '../../../../../main/core/webhooks/webhook-forwarding';
import { fakeTimeline } from '../../../../support/fake-timeline';

const message = (id: string, body = `{"n":"${id}"}`): ForwardableMessage => ({
  id,
  headers: { 'content-type': 'application/json', 'x-id': id },
  query: {},
  rawBody: Buffer.from(body).toString('base64'),
});
const answered = (statusCode: number): RawAnswer => ({ status: 'answered', statusCode, headers: [], body: Buffer.alloc(0), truncated: false, durationMs: 3 });

/** A send that answers each request when the test says so. */
function heldSend() {
  const calls: { request: RawRequest; answer(result: RawAnswer): void }[] = [];
  const send = (request: RawRequest) => new Promise<RawAnswer>((resolve) => calls.push({ request, answer: resolve }));
  return { calls, send };
}
const settled = () => new Promise((resolve) => setImmediate(resolve));

function setUp(options: { limits?: Parameters<typeof createForwarding>[0]['limits'] } = {}) {
  const timeline = fakeTimeline();
  const held = heldSend();
  const progress: ForwardProgress[] = [];
  const forwarding = createForwarding({
    url: 'http://127.0.0.1:9/hook',
    clock: timeline.clock,
    schedule: timeline.schedule,
    random: () => 0,
    send: held.send,
    onProgress: (p) => progress.push(p),
    ...options,
  });
  const statesOf = (id: string): ForwardState['state'][] => progress.filter((p) => p.id === id).map((p) => p.forward.state);
  return { timeline, held, progress, forwarding, statesOf };
}

describe('retries', () => {
  it('tries a 500 again after 1 s, 2 s, 4 s … (half the step with no jitter), then succeeds', async () => {
    const { timeline, held, progress, forwarding, statesOf } = setUp();
    forwarding.forward(message('m1'));
    expect(held.calls).toHaveLength(1);
    held.calls[0]!.answer(answered(500));
    await settled();
    const retrying = progress.at(-1)!.forward;
    expect(retrying).toMatchObject({ state: 'retrying', attempt: 1, last: '500', nextAt: timeline.clock.now() + 500 });
    timeline.advance(499);
    expect(held.calls).toHaveLength(1);
    timeline.advance(1);
    expect(held.calls).toHaveLength(2);
    held.calls[1]!.answer({ status: 'failed', reason: 'Couldn’t send it: ECONNREFUSED.', durationMs: 1 });
    await settled();
    expect(progress.at(-1)!.forward).toMatchObject({ state: 'retrying', attempt: 2, last: 'Couldn’t send it: ECONNREFUSED.' });
    timeline.advance(999);
    expect(held.calls).toHaveLength(2);
    timeline.advance(1);
    held.calls[2]!.answer(answered(204));
    await settled();
    expect(progress.at(-1)!.forward).toMatchObject({ state: 'answered', statusCode: 204, attempts: 3 });
    expect(statesOf('m1')).toEqual(['queued', 'sending', 'retrying', 'sending', 'retrying', 'sending', 'answered']);
    expect(forwarding.queue()).toEqual({ queued: 0, dropped: 0 });
  });

  it(`gives up after ${FORWARD_MAX_ATTEMPTS} attempts and says so; a 4xx is an answer, not retried`, async () => {
    const { timeline, held, progress, forwarding } = setUp();
    forwarding.forward(message('m1'));
    for (let attempt = 1; attempt <= FORWARD_MAX_ATTEMPTS; attempt++) {
      held.calls[attempt - 1]!.answer(answered(503));
      await settled();
      timeline.advance(60_000);
    }
    expect(held.calls).toHaveLength(FORWARD_MAX_ATTEMPTS);
    expect(progress.at(-1)!.forward).toMatchObject({ state: 'failed', statusCode: 503, attempts: FORWARD_MAX_ATTEMPTS });
    forwarding.forward(message('m2'));
    held.calls.at(-1)!.answer(answered(404));
    await settled();
    expect(progress.at(-1)!.forward).toMatchObject({ state: 'answered', statusCode: 404, attempts: 1 });
  });

  it('lets the next message go while one waits for its retry, and keeps the order of arrival', async () => {
    const { timeline, held, forwarding } = setUp();
    forwarding.forward(message('m1'));
    forwarding.forward(message('m2'));
    held.calls[0]!.answer(answered(500));
    await settled();
    expect(held.calls[1]!.request.headers).toContainEqual(['x-id', 'm2']);
    timeline.advance(10_000); // m1 is due, but m2 is under way: one at a time
    expect(held.calls).toHaveLength(2);
    held.calls[1]!.answer(answered(200));
    await settled();
    expect(held.calls[2]!.request.headers).toContainEqual(['x-id', 'm1']);
  });
});

describe('the queue', () => {
  it('drops the oldest waiting message when full in count, and counts the drops', async () => {
    const { held, progress, forwarding, statesOf } = setUp({ limits: { maxMessages: 3 } });
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) forwarding.forward(message(id));
    // m1 is under way; m2 and m3 were pushed out by m4 and m5.
    expect(statesOf('m2')).toEqual(['queued', 'dropped']);
    expect(statesOf('m3')).toEqual(['queued', 'dropped']);
    expect(forwarding.queue()).toEqual({ queued: 3, dropped: 2 });
    expect(progress.at(-1)!.queue).toEqual({ queued: 3, dropped: 2 });
    held.calls[0]!.answer(answered(200));
    await settled();
    expect(held.calls.map((call) => call.request.headers.find(([name]) => name === 'x-id')![1])).toEqual(['m1', 'm4']);
  });

  it('drops the oldest when full in bytes', () => {
    const { forwarding, statesOf } = setUp({ limits: { maxBytes: 3_000 } });
    forwarding.forward(message('m1', 'a'.repeat(1_000)));
    forwarding.forward(message('m2', 'b'.repeat(1_000)));
    expect(forwarding.queue()).toEqual({ queued: 2, dropped: 0 });
    forwarding.forward(message('m3', 'c'.repeat(1_000)));
    expect(statesOf('m2')).toEqual(['queued', 'dropped']);
    expect(forwarding.queue()).toEqual({ queued: 2, dropped: 1 });
  });

  it('does not send a re-delivered message twice, but does when asked again', async () => {
    const { held, forwarding } = setUp();
    forwarding.forward(message('m1'));
    held.calls[0]!.answer(answered(200));
    await settled();
    forwarding.forward(message('m1'));
    expect(held.calls).toHaveLength(1);
    forwarding.forward(message('m1'), { again: true });
    expect(held.calls).toHaveLength(2);
  });

  it('forwards nothing more once stopped, and reports nothing of what was under way', async () => {
    const { held, progress, forwarding } = setUp();
    forwarding.forward(message('m1'));
    forwarding.forward(message('m2'));
    forwarding.stop();
    const reported = progress.length;
    held.calls[0]!.answer(answered(200));
    await settled();
    forwarding.forward(message('m3'));
    expect(held.calls).toHaveLength(1);
    expect(progress).toHaveLength(reported);
  });
});

describe('against a real loopback server', () => {
  let server: ReturnType<typeof createServer> | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function serve(handler: (request: IncomingMessage, body: Buffer, response: ServerResponse) => void): Promise<string> {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => handler(request, Buffer.concat(chunks), response));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function forwardOnce(url: string, sent: ForwardableMessage, limits?: Parameters<typeof createForwarding>[0]['limits']): Promise<ForwardState> {
    const timeline = fakeTimeline();
    return new Promise((resolve) => {
      const forwarding = createForwarding({
        url,
        clock: timeline.clock,
        schedule: timeline.schedule,
        limits,
        onProgress: ({ forward }) => {
          if (forward.state === 'answered' || forward.state === 'failed' || forward.state === 'retrying') resolve(forward);
        },
      });
      forwarding.forward(sent);
    });
  }

  it('sends the method, the headers without hop-by-hop ones, the exact bytes and the query', async () => {
    const received: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }[] = [];
    const url = await serve((request, body, response) => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      response.writeHead(202).end();
    });
    const bytes = Buffer.from([0xff, 0x00, 0x7b, 0x0a, 0xc3]);
    const state = await forwardOnce(`${url}/hook?from=local`, {
      id: 'm1',
      headers: {
        'content-type': 'application/octet-stream',
        'x-signature': 'sig',
        connection: 'x-secret-hop',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        te: 'trailers',
        'proxy-authorization': 'Basic eA==',
        host: 'forwarder.example',
      },
      query: { hub: 'home', 'a b': 'c&d' },
      rawBody: bytes.toString('base64'),
    });
    expect(state).toMatchObject({ state: 'answered', statusCode: 202 });
    const [one] = received;
    expect(one!.method).toBe('POST');
    expect(one!.url).toBe('/hook?from=local&hub=home&a+b=c%26d');
    expect(one!.body.equals(bytes)).toBe(true);
    expect(one!.headers['x-signature']).toBe('sig');
    expect(one!.headers['content-type']).toBe('application/octet-stream');
    expect(one!.headers['content-length']).toBe(String(bytes.length));
    expect(one!.headers.host).toBe(new URL(url).host);
    for (const hop of ['keep-alive', 'transfer-encoding', 'upgrade', 'te', 'proxy-authorization', 'x-secret-hop']) expect(one!.headers[hop]).toBeUndefined();
    expect(one!.headers.connection).not.toBe('x-secret-hop');
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const paths: string[] = [];
    const url = await serve((request, _body, response) => {
      paths.push(request.url!);
      if (request.url === '/hook') response.writeHead(307, { location: '/elsewhere' }).end();
      else response.writeHead(200).end();
    });
    const state = await forwardOnce(`${url}/hook`, message('m1'));
    expect(state).toMatchObject({ state: 'answered', statusCode: 307 });
    expect(paths).toEqual(['/hook']);
  });

  it('reads the answer only up to its bound', async () => {
    let written = 0;
    const url = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      // An endless answer: only a reader that stops at its bound ends.
      const more = () => {
        while (response.write(chunk)) written += chunk.length;
        written += chunk.length;
        if (written < 64 * 1024 * 1024) response.once('drain', more);
        else response.end();
      };
      more();
    });
    const state = await forwardOnce(`${url}/hook`, message('m1'), { maxAnswerBytes: 1024 });
    expect(state).toMatchObject({ state: 'answered', statusCode: 200 });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});
