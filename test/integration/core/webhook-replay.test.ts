/**
 * Replay and signatures (docs/webhooks-app.md, "Replay" and "Signatures") in the app core against the real reference forwarder: a
 * signed intake is received and verified; a replay to the intake is received by the forwarder and
 * delivered to the app again, a replay to a development server on loopback brings it the same bytes
 * and headers, an edited replay sends the edits, and a replay to a port nobody listens on fails with a
 * sentence. The signing secret never leaves main.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_RESPONSE_MAX_BYTES, type WebhookEntry, type WebhookStatus } from '../../../common/ipc-contract';
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { type RunningStack, startStack } from '../../../services/stack';
import { fakeCipher, memoryStore, recordingLogger } from '../../support/core-fakes';
import { stackBackend } from '../../support/stack-backend';

const SIGNING_SECRET = 'gh-signing-secret-for-replay';

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let stack: RunningStack;
let core: HubdeskCore;
let devServer: ReturnType<typeof createServer>;
let devUrl = '';
let devAnswer = { status: 201, body: Buffer.from('{"ok":true}') };
const devReceived: Received[] = [];
const entries: WebhookEntry[] = [];
const statuses: WebhookStatus[] = [];
const logs = recordingLogger();

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
  devServer = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      devReceived.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(devAnswer.status, { 'content-type': 'application/json', 'x-dev': 'yes' }).end(devAnswer.body);
    });
  });
  await new Promise<void>((resolve) => devServer.listen(0, '127.0.0.1', resolve));
  devUrl = `http://127.0.0.1:${(devServer.address() as AddressInfo).port}/hooks/dev`;
  core = await createHubdeskCore({
    backend: { ...stackBackend(stack.info), webhookUrl: stack.info.webhook_url },
    cipher: fakeCipher(),
    store: memoryStore(),
    openExternal: async () => {},
    logger: logs,
  });
  core.onEvent('webhooks.entry', (entry) => entries.push(entry));
  core.onEvent('webhooks.status', (status) => statuses.push(status));
  const { id, secret } = stack.info.webhook;
  await core.handlers['webhooks.add']({ id, secret, routing: { kind: 'keys', values: ['lamp-1'] }, signingSecret: SIGNING_SECRET });
  await until(() => statuses.findLast((s) => s.webhookId === id)?.connection.state === 'connected');
});
afterAll(async () => {
  await core?.dispose();
  await new Promise((resolve) => devServer?.close(resolve));
  await stack?.close();
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** POSTs bytes to the intake, signed GitHub's way unless `signature` is given; resolves with the message id once the app has it. */
async function postSigned(body: string, signature?: string): Promise<string> {
  const response = await fetch(`${stack.info.webhook_url}/webhook/${stack.info.webhook.id}?source=ci`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signature ?? `sha256=${createHmac('sha256', SIGNING_SECRET).update(body).digest('hex')}`,
      'x-custom': 'kept as received',
    },
    body,
  });
  expect(response.status).toBe(202);
  const { id } = (await response.json()) as { id: string };
  await until(() => entries.some((entry) => entry.id === id));
  return id;
}

const webhookId = () => stack.info.webhook.id;

describe('signatures of received messages', () => {
  it('a message signed with the registration’s secret is valid; a tampered one is a mismatch', async () => {
    const body = '{"device":{"id":"lamp-1"},"on":true}';
    const good = await postSigned(body);
    const bad = await postSigned(body, `sha256=${createHmac('sha256', SIGNING_SECRET).update(`${body} `).digest('hex')}`);
    expect(await core.handlers['inspector.message'](webhookId(), good)).toMatchObject({ status: 'kept', signature: { status: 'valid', scheme: 'github' } });
    expect(await core.handlers['inspector.message'](webhookId(), bad)).toMatchObject({
      status: 'kept',
      signature: { status: 'invalid', scheme: 'github', reason: 'mismatch' },
    });
    const views = await core.handlers['webhooks.list']();
    expect(views[0]).toMatchObject({ hasSigningSecret: true, intakeUrl: `${stack.info.webhook_url}/webhook/${webhookId()}` });
    expect(JSON.stringify(views) + JSON.stringify(logs.lines)).not.toContain(SIGNING_SECRET);
  });
});

describe('replay', () => {
  it('to the intake: the forwarder takes it again (202) and delivers it to the app as a new message with the same bytes', async () => {
    const body = '{"device":{"id":"lamp-1"},"n":1}';
    const id = await postSigned(body);
    const before = entries.length;
    const result = await core.handlers['inspector.replay']({ webhookId: webhookId(), id, target: 'intake' });
    expect(result).toMatchObject({ status: 'answered', statusCode: 202, url: `${stack.info.webhook_url}/webhook/${webhookId()}?source=ci` });
    const answered = result.status === 'answered' ? (JSON.parse(result.body) as { id: string }) : undefined;
    expect(answered?.id).toBeTruthy();
    expect(answered?.id).not.toBe(id);
    await until(() => entries.length > before && entries.some((entry) => entry.id === answered!.id));
    const again = await core.handlers['inspector.message'](webhookId(), answered!.id);
    const original = await core.handlers['inspector.message'](webhookId(), id);
    expect(again.status === 'kept' && original.status === 'kept').toBe(true);
    if (again.status !== 'kept' || original.status !== 'kept') return;
    expect(again.message.rawBody).toBe(original.message.rawBody);
    expect(again.message.headers).toMatchObject({ 'x-custom': 'kept as received', 'x-hub-signature-256': original.message.headers['x-hub-signature-256'] });
    // The same bytes and signature: still valid.
    expect(again.signature).toEqual({ status: 'valid', scheme: 'github' });
  });

  it('to a development server: the same method, headers (no hop-by-hop ones, nothing added) and bytes; the answer shown', async () => {
    const body = '{"device":{"id":"lamp-1"},"text":"héllo \\u0000"}';
    const id = await postSigned(body);
    devReceived.length = 0;
    const result = await core.handlers['inspector.replay']({ webhookId: webhookId(), id, target: devUrl });
    expect(result).toMatchObject({ status: 'answered', statusCode: 201, body: '{"ok":true}', bodyKind: 'text', truncated: false, url: devUrl });
    expect(result.status === 'answered' && result.headers).toContainEqual(['x-dev', 'yes']);
    expect(devReceived).toHaveLength(1);
    const [got] = devReceived;
    expect(got!.method).toBe('POST');
    expect(got!.url).toBe('/hooks/dev');
    expect(got!.body.toString()).toBe(body);
    // Exactly the headers as received (fetch's own user-agent and accept among them), nothing added but what HTTP needs.
    const original = await core.handlers['inspector.message'](webhookId(), id);
    const kept = original.status === 'kept' ? original.message.headers : {};
    const { host: _h, 'content-length': _l, connection: _c, ...sent } = got!.headers;
    const { host: _oh, 'content-length': _ol, connection: _oc, ...expected } = kept;
    expect(sent).toEqual(expected);
    expect(sent['x-custom']).toBe('kept as received');
  });

  it('edited: the given headers and body are what is sent', async () => {
    const id = await postSigned('{"device":{"id":"lamp-1"}}');
    devReceived.length = 0;
    const edited = Buffer.from('{"device":{"id":"lamp-2"}}');
    const result = await core.handlers['inspector.replay']({
      webhookId: webhookId(),
      id,
      target: devUrl,
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Edited', 'yes'],
        ['Connection', 'close'],
      ],
      body: edited.toString('base64'),
    });
    expect(result.status).toBe('answered');
    expect(devReceived[0]!.body.equals(edited)).toBe(true);
    expect(devReceived[0]!.headers['x-edited']).toBe('yes');
    expect(devReceived[0]!.headers['x-custom']).toBeUndefined();
  });

  it('a large answer is cut at its bound; a closed port and a gone message fail with a sentence', async () => {
    const id = await postSigned('{"device":{"id":"lamp-1"}}');
    devAnswer = { status: 500, body: Buffer.alloc(REPLAY_RESPONSE_MAX_BYTES + 10_000, 0x61) };
    try {
      const big = await core.handlers['inspector.replay']({ webhookId: webhookId(), id, target: devUrl });
      expect(big).toMatchObject({ status: 'answered', statusCode: 500, truncated: true });
      expect(big.status === 'answered' && big.body.length).toBe(REPLAY_RESPONSE_MAX_BYTES);
    } finally {
      devAnswer = { status: 201, body: Buffer.from('{"ok":true}') };
    }

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await core.handlers['inspector.replay']({ webhookId: webhookId(), id, target: `http://127.0.0.1:${port}/x` });
    expect(refused).toMatchObject({ status: 'failed', reason: expect.stringMatching(/refused/) });

    expect(await core.handlers['inspector.replay']({ webhookId: webhookId(), id: 'no-such-message', target: 'intake' })).toMatchObject({
      status: 'failed',
      url: null,
      reason: expect.stringMatching(/no longer keeps/),
    });
  });
});
