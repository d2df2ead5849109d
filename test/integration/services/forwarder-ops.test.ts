/**
 * The forwarder as a service someone runs (docs/services.md, "Running the forwarder alone" and "Production checklist"), over real sockets: health and readiness,
 * Prometheus metrics (on the admin listener: forwarder-admin.test.ts), a graceful drain, and a lingering close for a refused body still on its way.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_GOING_AWAY } from '../../../common/webhook-protocol';
import { type RunningForwarder, startForwarder } from '../../../services/forwarder/forwarder';
import { createWebhookStore, type WebhookRecord } from '../../../services/forwarder/webhook-store';
import { writeAsync } from '../../support/raw-http';
import type { ChannelClosed } from '../../support/webhook-listener';
import { newTapCredential, TestListener } from '../../support/webhook-listener';

const running: RunningForwarder[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((forwarder) => forwarder.close()));
});

async function setup(options: { bodyBytes?: number; drainTimeoutMs?: number } = {}) {
  const store = createWebhookStore();
  const webhook = await store.setKeyPath((await store.create({ name: 'ops', ownerId: 'owner-1' })).id, 'body.device.id');
  const forwarder = await startForwarder({
    store,
    ...(options.bodyBytes && { limits: { bodyBytes: options.bodyBytes } }),
    drainTimeoutMs: options.drainTimeoutMs ?? 5_000,
  });
  running.push(forwarder);
  const post = (body: unknown) =>
    fetch(`${forwarder.url}/webhook/${webhook.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { store, webhook, forwarder, post };
}

const listen = (forwarder: RunningForwarder, webhook: WebhookRecord, listenerId: string, key: string) =>
  TestListener.connect({ forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, listenerId, data: { $key: key } });

/** One metric's value in Prometheus' text format (the first series matching the labels given). */
function metric(text: string, name: string, labels = ''): number {
  const line = text
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}${labels === '' ? ' ' : `{${labels}`}`) || (labels === '' && candidate.startsWith(`${name}{`)));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('health, readiness and metrics', () => {
  it('answers /healthz and /readyz, and counts intake, routing, delivery lag, pending messages and listeners in /metrics', async () => {
    const { forwarder, webhook, post } = await setup();
    expect(await (await fetch(`${forwarder.adminUrl}/healthz`)).json()).toEqual({ status: 'alive' });
    expect(await (await fetch(`${forwarder.adminUrl}/readyz`)).json()).toEqual({ status: 'ready' });

    const lamp = await listen(forwarder, webhook, 'lamp', 'lamp-1');
    const away = await listen(forwarder, webhook, 'away', 'lamp-2');
    await away.close(); // its slot stays, with what it has not acknowledged
    for (const id of ['lamp-1', 'lamp-1', 'lamp-2', 'nobody']) expect((await post({ device: { id } })).status).toBe(202);
    expect((await fetch(`${forwarder.url}/webhook/${webhook.id}`, { method: 'PUT' })).status).toBe(405);
    await lamp.nextMessage();
    await lamp.nextMessage();

    const response = await fetch(`${forwarder.adminUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(metric(text, 'forwarder_intake_requests_total', 'status="202"')).toBe(4);
    expect(metric(text, 'forwarder_intake_requests_total', 'status="405"')).toBe(1);
    expect(metric(text, 'forwarder_routing_total', 'option="key-path",outcome="matched"')).toBe(3);
    expect(metric(text, 'forwarder_routing_total', 'option="key-path",outcome="unmatched"')).toBe(1);
    // Acknowledged by `lamp` (TestListener acknowledges each message): two lags observed.
    await expect.poll(async () => metric(await (await fetch(`${forwarder.adminUrl}/metrics`)).text(), 'forwarder_delivery_lag_seconds_count')).toBe(2);
    expect(metric(text, 'forwarder_pending_messages')).toBe(1); // lamp-2's, waiting for `away`
    expect(metric(text, 'forwarder_pending_bytes')).toBeGreaterThan(0);
    expect(metric(text, 'forwarder_listeners_connected')).toBe(1);
    expect(metric(text, 'forwarder_legacy_queue_requests')).toBe(0);
    // No series names a webhook or a listener.
    expect(text).not.toContain(webhook.id);
    expect(text).not.toContain('lamp');
  });
});

describe('acknowledgements', () => {
  it('an ack in any JSON form is taken, as the usual one is (that one is read without a JSON parse); a malformed one closes the channel', async () => {
    const { forwarder, webhook, post } = await setup();
    const listener = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: webhook.id,
      secret: webhook.secret,
      listenerId: 'manual',
      data: { $key: 'lamp-1' },
      autoAck: false,
    });
    const pending = async () => metric(await (await fetch(`${forwarder.adminUrl}/metrics`)).text(), 'forwarder_pending_messages');
    for (let n = 0; n < 3; n++) await post({ device: { id: 'lamp-1' }, n });
    const [first, second, third] = [await listener.nextMessage(), await listener.nextMessage(), await listener.nextMessage()];
    expect(await pending()).toBe(3);
    listener.socket.send(JSON.stringify({ type: 'ack', id: first!.id }));
    listener.socket.send(`{ "id": ${JSON.stringify(second!.id)}, "type": "ack" }`);
    await expect.poll(pending).toBe(1);
    listener.socket.send(`{"type":"ack","id":"${third!.id}","extra":1}`); // not the plain form: the general path, whose schema takes it
    await expect.poll(pending).toBe(0);
    listener.socket.send('{"type":"ack","id":""}');
    expect(((await listener.closed) as ChannelClosed).code).toBe(4400);
  });
});

describe('drain', () => {
  it('takes no new connection, answers the request under way (then 503 to what follows on its connection), tells listeners and taps to go elsewhere (1001), and stops', async () => {
    const { store, forwarder, webhook } = await setup();
    const listener = await listen(forwarder, webhook, 'l1', 'lamp-1');
    const tap = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: webhook.id,
      listenerId: 'tap',
      ...(await newTapCredential(store, webhook.id)),
    });
    const url = new URL(forwarder.url);

    // A request under way: its head is in; its body, and two more requests on the same connection, come once the drain has begun.
    const body = JSON.stringify({ device: { id: 'lamp-1' } });
    const slow = connect(Number(url.port), url.hostname);
    let answers = '';
    slow.on('data', (chunk: Buffer) => (answers += chunk.toString()));
    const slowClosed = new Promise<void>((resolve) => slow.on('close', () => resolve()));
    await writeAsync(slow, `POST /webhook/${webhook.id} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    await expect.poll(() => forwarder.stats().intakeUnderWay).toBe(1);

    const drained = forwarder.drain();
    await expect(fetch(`${forwarder.url}/webhook/${webhook.id}`, { method: 'POST', body: '{}' })).rejects.toThrow(); // no new connection
    // The admin listener still answers, until the forwarder has stopped: not ready.
    const ready = await fetch(`${forwarder.adminUrl}/readyz`);
    expect({ status: ready.status, retryAfter: ready.headers.get('retry-after'), body: await ready.json() }).toEqual({
      status: 503,
      retryAfter: '1',
      body: { status: 'draining' },
    });
    await writeAsync(
      slow,
      `${body}POST /webhook/${webhook.id} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}POST /webhook/${webhook.id} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`,
    );

    expect(((await listener.closed) as ChannelClosed).code).toBe(CLOSE_GOING_AWAY);
    expect(((await tap.closed) as ChannelClosed).code).toBe(CLOSE_GOING_AWAY);
    // The request under way was answered 202 and delivered before the listener was let go.
    expect(listener.messages.all.map((message) => message.body)).toEqual([{ device: { id: 'lamp-1' } }]);
    await drained;
    await slowClosed;
    await expect(fetch(`${forwarder.adminUrl}/readyz`)).rejects.toThrow(); // stopped: the admin listener too
    // What followed on that connection is for another instance: 503 (Retry-After), closing it.
    const statuses = [...answers.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    expect(statuses).toEqual([202, 503]);
    expect(answers).toContain('"error":"draining"');
    expect(answers).toMatch(/^connection: close\r$/im);
    expect(answers).toMatch(/^retry-after: 1\r$/im);
  });
});

describe('lingering close', () => {
  it('a client still sending an oversized body reads the 413 without a reset, and the connection then closes', async () => {
    const { forwarder, webhook } = await setup({ bodyBytes: 64 * 1024 });
    const url = new URL(forwarder.url);
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    const errors: string[] = [];
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // It writes its whole 8 MiB body before reading anything, as a simple client does.
    await writeAsync(socket, `POST /webhook/${webhook.id} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x61), Buffer.from('\r\n')]);
    for (let sent = 0; sent < 128; sent++) await writeAsync(socket, chunk);
    await writeAsync(socket, '0\r\n\r\n');
    socket.end();
    await closed;
    expect(errors).toEqual([]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});
