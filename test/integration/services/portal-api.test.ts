/**
 * The developer portal's JSON API against the real stack over real sockets: the cloud verifies the access
 * token, the webhook made through the API is taken by the forwarder (a listener registers with its secret,
 * a tap with its tap credential, and a POST routed by its key path arrives), another user's webhook is
 * refused like an unknown one, bad input is a clear 400, no or a bad token a 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTapCredential } from '../../../common/webhook-protocol';
import { type RunningStack, startStack } from '../../../services/stack';
import { TestListener } from '../../support/webhook-listener';
import { signIn } from './oauth-helpers';

let stack: RunningStack;
let token: string;

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
  const { info } = stack;
  ({ access_token: token } = await signIn(info.auth_url, { id: info.client.id, secret: info.client.secret, redirectUri: info.client.redirect_uri }, info.user));
});
afterAll(() => stack.close());

async function call(
  method: string,
  path: string,
  body?: unknown,
  bearer: string | null = token,
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${stack.info.tools_url}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

describe('the portal JSON API', () => {
  it('creates a webhook, sets its key path and makes a tap credential, all of which the forwarder takes', async () => {
    const created = await call('POST', '/webhooks', { name: '  First webhook ' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
    const { id, secret } = created.json as { id: string; secret: string };
    expect(created.json).toMatchObject({ name: 'First webhook', keyPath: null });
    // Owned by the token's user: the demo account, which owns the demo webhook too.
    expect(stack.webhooks.get(id)).toMatchObject({ ownerId: stack.webhooks.get(stack.info.webhook.id)!.ownerId, secret });

    expect(await call('PUT', `/webhooks/${id}/key-path`, { keyPath: 'body.device.id' })).toMatchObject({
      status: 200,
      json: { id, keyPath: 'body.device.id' },
    });
    const tap = await call('POST', `/webhooks/${id}/tap-credentials`);
    expect(tap.status).toBe(201);
    const credential = parseTapCredential(tap.json.tapCredential as string)!;
    expect(credential).toBeTruthy();

    const listener = await TestListener.connect({
      forwarderUrl: stack.info.webhook_url,
      webhookId: id,
      secret,
      listenerId: 'api-listener',
      data: { $key: 'lamp-1' },
    });
    const tapListener = await TestListener.connect({
      forwarderUrl: stack.info.webhook_url,
      webhookId: id,
      secret: credential.secret,
      role: 'tap',
      credentialId: credential.id,
      listenerId: 'api-tap',
    });
    try {
      const intake = await fetch(`${stack.info.webhook_url}/webhook/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device: { id: 'lamp-1' } }),
      });
      expect(intake.status).toBe(202);
      expect((await listener.messages.next()).body).toEqual({ device: { id: 'lamp-1' } });
      expect((await tapListener.taps.next()).routing.matched).toEqual([{ listenerId: 'api-listener' }]);
    } finally {
      listener.socket.close();
      tapListener.socket.close();
    }
  });

  it('refuses another user’s webhook like an unknown one', async () => {
    const others = await stack.webhooks.create({ name: 'Not yours', ownerId: 'user-somebody-else' });
    for (const [method, path, body] of [
      ['PUT', `/webhooks/${others.id}/key-path`, { keyPath: 'body.x' }],
      ['POST', `/webhooks/${others.id}/tap-credentials`, undefined],
      ['PUT', '/webhooks/wh_nonexistent/key-path', { keyPath: 'body.x' }],
    ] as const) {
      const answer = await call(method, path, body);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ error: 'not_found', error_description: 'No such webhook.' });
    }
    expect(stack.webhooks.get(others.id)!.keyPath).toBeNull();
    expect(stack.webhooks.tapCredentials(others.id)).toEqual([]);
  });

  it('answers bad input with a 400 that says what was expected', async () => {
    const { id } = (await call('POST', '/webhooks', { name: 'Key paths' })).json as { id: string };
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/webhooks', { name: '' }, /"name"/],
      ['POST', '/webhooks', { name: 'x'.repeat(101) }, /1 to 100 characters/],
      ['POST', '/webhooks', { name: 'ok', owner: 'someone' }, /"name"/],
      ['POST', '/webhooks', '{not json', /not JSON/],
      ['PUT', `/webhooks/${id}/key-path`, { keyPath: 'body..x' }, /does not parse: .*position \d+/],
      ['PUT', `/webhooks/${id}/key-path`, { keyPath: 42 }, /"keyPath"/],
    ];
    for (const [method, path, body, description] of cases) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
      expect(answer.json.error_description).toMatch(description);
    }
    expect(stack.webhooks.get(id)!.keyPath).toBeNull();
  });

  it('answers 401 without a token and with one the cloud does not know, and creates nothing', async () => {
    const owner = stack.webhooks.get(stack.info.webhook.id)!.ownerId;
    const before = stack.webhooks.list(owner).length;
    const none = await call('POST', '/webhooks', { name: 'No token' }, null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="hubdesk-portal"');
    const wrong = await call('POST', '/webhooks', { name: 'Bad token' }, 'not-a-token-the-cloud-issued');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_token');
    expect(stack.webhooks.list(owner)).toHaveLength(before);
  });
});
