/**
 * webhook-creation.ts against a fake portal (a fetch answering its JSON API) and a fake listener: the calls it
 * makes and with which token, what it registers (the secrets go to the listener, never into the answer or the
 * logs), the first message, the portal's refusals in words, the demo webhook, and making a gone one again.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../../common/app-error';
import type { WebhookRegistrationInput, WebhookView } from '../../../../../common/ipc-contract';
import { requestJson } from '../../../../../main/core/shared/http';
import { createWebhookCreation, portalApiUrl, type WebhookCreationDeps } from '../../../../../main/core/webhooks/webhook-creation';
import { jsonResponse, memoryStore, recordingLogger } from '../../../../support/core-fakes';

const PORTAL = 'http://127.0.0.1:4000/webhooks';
const FORWARDER = 'http://127.0.0.1:5000';
const DEMO = { id: 'wh_demo_now', secret: 'demo-secret-value', tapCredential: 'tc_demo.demo-tap-secret-0123456', keyPath: 'body.device.id' };

function harness(options: { answer?: (method: string, path: string, body: unknown) => Response | undefined; demo?: boolean } = {}) {
  const calls: { method: string; path: string; body: unknown; authorization: string | null }[] = [];
  let made = 0;
  const fetchFn = (async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const path = new URL(url).pathname;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body, authorization: new Headers(init.headers).get('authorization') });
    const special = options.answer?.(method, path, body);
    if (special) return special;
    if (method === 'POST' && path === '/api/webhooks')
      return jsonResponse(201, {
        id: `wh_made_${++made}`,
        name: (body as { name: string }).name,
        secret: `secret-of-${made}-xxxxxxxx`,
        keyPath: null,
        createdAt: 1,
      });
    if (method === 'PUT' && path.endsWith('/key-path')) return jsonResponse(200, { id: path.split('/')[3], keyPath: (body as { keyPath: string }).keyPath });
    if (method === 'POST' && path.endsWith('/tap-credentials'))
      return jsonResponse(201, { webhookId: path.split('/')[3], tapCredential: `tc_${made}.tap-secret-0123456789` });
    return jsonResponse(404, { error: 'not_found', error_description: 'No such endpoint' });
  }) as typeof fetch;
  const added: WebhookRegistrationInput[] = [];
  const views = new Map<string, WebhookView>();
  const removed: string[] = [];
  const logger = recordingLogger();
  const store = memoryStore();
  const deps: WebhookCreationDeps = {
    backend: { portalUrl: PORTAL, webhookUrl: FORWARDER, ...(options.demo && { demoWebhook: DEMO }) },
    listener: {
      add: async (input) => {
        added.push(input);
        const view: WebhookView = {
          id: input.id,
          routing: input.routing,
          hasTapCredential: input.tapCredential !== undefined,
          hasSigningSecret: false,
          intakeUrl: `${FORWARDER}/webhook/${input.id}`,
          connection: { state: 'connecting' },
        };
        views.set(input.id, view);
        return view;
      },
      remove: (id) => {
        removed.push(id);
        views.delete(id);
      },
      list: () => [...views.values()],
    },
    cloud: { withAccessToken: (build, schema) => requestJson(fetchFn, build('access-1'), schema) },
    store,
    logger,
  };
  return { creation: createWebhookCreation(deps), deps, calls, added, removed, views, logger, store };
}

describe('webhook creation', () => {
  it('makes the webhook in the portal with the access token, registers it with its secrets, and answers no secret', async () => {
    const { creation, calls, added, logger } = harness();
    const first = await creation.create({ name: 'Mine', routing: { kind: 'keys', values: ['lamp-1', 7] }, keyPath: 'body.items[1].id' });
    expect(calls.map(({ method, path, body }) => [method, path, body])).toEqual([
      ['POST', '/api/webhooks', { name: 'Mine' }],
      ['PUT', '/api/webhooks/wh_made_1/key-path', { keyPath: 'body.items[1].id' }],
      ['POST', '/api/webhooks/wh_made_1/tap-credentials', undefined],
    ]);
    expect(calls.every((call) => call.authorization === 'Bearer access-1')).toBe(true);
    expect(added).toEqual([
      { id: 'wh_made_1', secret: 'secret-of-1-xxxxxxxx', tapCredential: 'tc_1.tap-secret-0123456789', routing: { kind: 'keys', values: ['lamp-1', 7] } },
    ]);
    expect(first.example).toMatchObject({ url: `${FORWARDER}/webhook/wh_made_1`, body: '{"items":[null,{"id":"lamp-1"}]}' });
    const answered = JSON.stringify(first);
    expect(answered).not.toContain('secret-of-1');
    expect(answered).not.toContain('tap-secret');
    expect(JSON.stringify(logger.lines)).not.toMatch(/secret-of|tap-secret|access-1/);
  });

  it('sets no key path for a hub, and its example carries ?hub=', async () => {
    const { creation, calls } = harness();
    const first = await creation.create({ name: 'For Home', routing: { kind: 'hub', hubId: 'hub-1' } });
    expect(calls.map((call) => call.path)).toEqual(['/api/webhooks', '/api/webhooks/wh_made_1/tap-credentials']);
    expect(first.example?.url).toBe(`${FORWARDER}/webhook/wh_made_1?hub=hub-1`);
  });

  it('says the portal’s refusal in its words, as one line, and registers nothing', async () => {
    const { creation, added } = harness({
      answer: (method, path) =>
        path.endsWith('/key-path')
          ? jsonResponse(400, { error: 'invalid_request', error_description: 'The key path does not parse:\u0007 x\u202e (position 5).' })
          : undefined,
    });
    const refused = creation.create({ name: 'Bad', routing: { kind: 'keys', values: ['a'] }, keyPath: 'body.' });
    await expect(refused).rejects.toMatchObject({
      code: 'invalid-argument',
      message: 'The developer portal refused: The key path does not parse:  x  (position 5).',
    });
    expect(added).toEqual([]);
  });

  it('says when the portal cannot be reached, or when none is configured', async () => {
    const { creation, deps } = harness({ answer: () => Promise.reject(new TypeError('fetch failed')) as never });
    await expect(creation.create({ name: 'x', routing: { kind: 'keys', values: ['a'] } })).rejects.toMatchObject({
      code: 'cloud-unreachable',
      message: 'Hubdesk could not reach the developer portal at http://127.0.0.1:4000.',
    });
    const none = createWebhookCreation({ ...deps, backend: { ...deps.backend, portalUrl: null } });
    await expect(none.create({ name: 'x', routing: { kind: 'keys', values: ['a'] } })).rejects.toBeInstanceOf(AppError);
  });

  it('registers the demo webhook only where there is one', async () => {
    const { creation, added } = harness({ demo: true });
    const first = await creation.useDemo({ kind: 'keys', values: ['my-device'] });
    expect(added).toEqual([{ id: DEMO.id, secret: DEMO.secret, tapCredential: DEMO.tapCredential, routing: { kind: 'keys', values: ['my-device'] } }]);
    expect(first.example?.body).toBe('{"device":{"id":"my-device"}}');
    await expect(harness().creation.useDemo({ kind: 'keys', values: ['a'] })).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  it('makes a gone webhook again as it was made, and removes the old registration', async () => {
    const { creation, calls, added, removed, views } = harness({ demo: true });
    await creation.create({ name: 'Mine', routing: { kind: 'keys', values: ['a'] }, keyPath: "headers['x-id']" });
    const again = await creation.recreate('wh_made_1');
    expect(again.view.id).toBe('wh_made_2');
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/api/webhooks').map((call) => call.body)).toEqual([
      { name: 'Mine' },
      { name: 'Mine' },
    ]);
    expect(calls.at(-2)).toMatchObject({ path: '/api/webhooks/wh_made_2/key-path', body: { keyPath: "headers['x-id']" } });
    expect(again.example?.curl).toContain(`-H 'x-id: a'`);
    expect(removed).toEqual(['wh_made_1']);
    expect([...views.keys()]).toEqual(['wh_made_2']);

    // A registration added by hand, gone: a new webhook in the portal named as the forwarder named it.
    views.set('wh_by_hand', {
      id: 'wh_by_hand',
      webhookName: 'Old name',
      routing: { kind: 'keys', values: ['b'] },
      hasTapCredential: false,
      hasSigningSecret: false,
      intakeUrl: null,
      connection: { state: 'refused', reason: 'gone', gone: true },
    });
    await creation.recreate('wh_by_hand');
    expect(added.at(-1)).toMatchObject({ id: 'wh_made_3', routing: { kind: 'keys', values: ['b'] } });
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/api/webhooks').at(-1)?.body).toEqual({ name: 'Old name' });
    await expect(creation.recreate('wh_unknown')).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  it('moves registrations of an earlier run’s demo webhook to this run’s at start', async () => {
    const earlier = harness({ demo: true });
    await earlier.creation.useDemo({ kind: 'keys', values: ['my-device'] });
    // The app restarts: the embedded forwarder has a new demo webhook; settings and registrations are kept.
    const now = harness({ demo: true });
    now.store.set(`webhooks:origin:${DEMO.id}`, earlier.store.get(`webhooks:origin:${DEMO.id}`));
    const oldView = earlier.views.get(DEMO.id)!;
    now.views.set('wh_demo_before', { ...oldView, id: 'wh_demo_before', label: 'Kitchen' });
    now.store.set('webhooks:origin:wh_demo_before', earlier.store.get(`webhooks:origin:${DEMO.id}`));
    await now.creation.renewDemoRegistrations();
    expect(now.added).toEqual([
      { id: DEMO.id, secret: DEMO.secret, tapCredential: DEMO.tapCredential, routing: { kind: 'keys', values: ['my-device'] }, label: 'Kitchen' },
    ]);
    expect(now.removed).toEqual(['wh_demo_before']);
    expect(now.store.get('webhooks:origin:wh_demo_before')).toBeUndefined();
  });

  it('finds the API beside the portal’s page', () => {
    expect(portalApiUrl('http://127.0.0.1:4000/webhooks')).toBe('http://127.0.0.1:4000/api/webhooks');
    expect(portalApiUrl('https://tools.example/dev/webhooks')).toBe('https://tools.example/dev/api/webhooks');
  });
});
