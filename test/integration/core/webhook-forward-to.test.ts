/**
 * Forward to (docs/webhooks-app.md, "Forward to") in the app core against the real reference forwarder,
 * over real sockets: a local server receives each delivered message with its method, headers (no
 * hop-by-hop ones) and exact bytes; a 500 is tried again until it is answered; a local server that
 * never answers holds its own queue only, while the listener goes on acknowledging to the forwarder.
 * The edits that set Forward to and the signing secret keep the registration (same listener).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForwardReport } from '../../../common/forward-target';
import type { WebhookEntry, WebhookStatus } from '../../../common/ipc-contract';
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { ackKey } from '../../../main/core/webhooks/webhook-registrations';
import { type RunningStack, startStack } from '../../../services/stack';
import { fakeCipher, memoryStore, recordingLogger } from '../../support/core-fakes';
import { stackBackend } from '../../support/stack-backend';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let stack: RunningStack;
let core: HubdeskCore;
const store = memoryStore();
const entries: WebhookEntry[] = [];
const statuses: WebhookStatus[] = [];
const forwards: ForwardReport[] = [];
const servers: ReturnType<typeof createServer>[] = [];
const webhookId = () => stack.info.webhook.id;

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A local server on loopback answering with `answer` (or never, when it returns undefined). */
async function localServer(answer: (request: Received, response: ServerResponse) => void): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) };
      received.push(one);
      answer(one, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function post(body: Buffer | string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${stack.info.webhook_url}/webhook/${webhookId()}?source=ci`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const finalOf = (id: string) => forwards.findLast((report) => report.id === id && (report.forward.state === 'answered' || report.forward.state === 'failed'));

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
  core = await createHubdeskCore({
    backend: { ...stackBackend(stack.info), webhookUrl: stack.info.webhook_url },
    cipher: fakeCipher(),
    store,
    openExternal: async () => {},
    logger: recordingLogger(),
  });
  core.onEvent('webhooks.entry', (entry) => entries.push(entry));
  core.onEvent('webhooks.status', (status) => statuses.push(status));
  core.onEvent('webhooks.forward', (report) => forwards.push(report));
  const { id, secret } = stack.info.webhook;
  await core.handlers['webhooks.add']({ id, secret, routing: { kind: 'keys', values: ['lamp-1'] } });
  await until(() => statuses.findLast((s) => s.webhookId === id)?.connection.state === 'connected');
});
afterAll(async () => {
  await core?.dispose();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await stack?.close();
});

describe('Forward to', () => {
  it('sends each delivered message to the local server: the method, the headers without hop-by-hop ones, the exact bytes', async () => {
    const local = await localServer((_request, response) => response.writeHead(204).end());
    const view = await core.handlers['webhooks.edit']({ id: webhookId(), forwardTo: local.url });
    expect(view.forwardTo).toBe(local.url);
    const body = Buffer.from('{"device":{"id":"lamp-1"},"text":"héllo"}');
    const id = await post(body, { 'x-signature': 'sig-1' });
    await until(() => finalOf(id) !== undefined);
    expect(finalOf(id)!.forward).toMatchObject({ state: 'answered', statusCode: 204, attempts: 1 });
    expect(local.received).toHaveLength(1);
    const [got] = local.received;
    expect(got!.method).toBe('POST');
    expect(got!.url).toBe('/hook?source=ci');
    expect(got!.body.equals(body)).toBe(true);
    expect(got!.headers['x-signature']).toBe('sig-1');
    expect(got!.headers['content-type']).toBe('application/json');
    // The same headers the inspector kept, less what HTTP computes (hop-by-hop ones: the unit test).
    const kept = await core.handlers['inspector.message'](webhookId(), id);
    const { host: _h, 'content-length': _l, connection: _c, ...expected } = kept.status === 'kept' ? kept.message.headers : {};
    const { host: _sh, 'content-length': _sl, connection: _sc, ...sent } = got!.headers;
    expect(sent).toEqual(expected);

    // One click sends it again.
    await core.handlers['webhooks.forwardAgain'](webhookId(), id);
    await until(() => local.received.length === 2);
    expect(local.received[1]!.body.equals(body)).toBe(true);
  });

  it('tries a 500 again until the local server answers', async () => {
    let calls = 0;
    const local = await localServer((_request, response) => response.writeHead(++calls === 1 ? 500 : 200).end('ok'));
    await core.handlers['webhooks.edit']({ id: webhookId(), forwardTo: local.url });
    const id = await post('{"device":{"id":"lamp-1"},"n":500}');
    await until(() => finalOf(id) !== undefined);
    const states = forwards.filter((report) => report.id === id).map((report) => report.forward.state);
    expect(states).toEqual(['queued', 'sending', 'retrying', 'sending', 'answered']);
    expect(forwards.find((report) => report.id === id && report.forward.state === 'retrying')!.forward).toMatchObject({ last: '500', attempt: 1 });
    expect(finalOf(id)!.forward).toMatchObject({ state: 'answered', statusCode: 200, attempts: 2 });
    expect(local.received).toHaveLength(2);
  });

  it('a local server that never answers holds only its own queue: the listener acknowledges every message meanwhile', async () => {
    // Takes the requests and never answers them (a hung development server).
    const local = await localServer(() => {});
    await core.handlers['webhooks.edit']({ id: webhookId(), forwardTo: local.url });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await post(`{"device":{"id":"lamp-1"},"hung":${n}}`));
    // Each one acknowledged to the forwarder (the saved resume point is the last), …
    await until(() => store.get(ackKey(webhookId())) === ids.at(-1));
    await until(() => ids.every((id) => entries.some((entry) => entry.id === id)));
    // … while the first is still waiting for the local server and the rest queue behind it.
    expect(local.received).toHaveLength(1);
    expect(forwards.findLast((report) => report.id === ids[0])!.forward).toEqual({ state: 'sending', attempt: 1 });
    expect(forwards.at(-1)!.queue).toEqual({ queued: 5, dropped: 0 });
  });

  it('clearing Forward to stops it; the registration (and its listener) stays', async () => {
    const view = await core.handlers['webhooks.edit']({ id: webhookId(), forwardTo: null });
    expect(view.forwardTo).toBeUndefined();
    expect(view.connection.state).toBe('connected');
    const before = forwards.length;
    const id = await post('{"device":{"id":"lamp-1"},"after":"clear"}');
    await until(() => entries.some((entry) => entry.id === id));
    expect(forwards.length).toBe(before);
    await expect(core.handlers['webhooks.forwardAgain'](webhookId(), id)).rejects.toThrow(/no Forward-to URL/);
  });
});
