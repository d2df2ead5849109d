/**
 * Routing option 3 through the real legacy runner (QuickJS in worker threads): one sandbox entry per
 * request decides for every registration, and a function that never returns is stopped while the
 * forwarder keeps serving.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningForwarder, startForwarder } from '../../../services/forwarder/forwarder';
import { createLegacyRunner, type LegacyRunner } from '../../../services/forwarder/legacy/legacy-runner';
import { createWebhookStore, type WebhookRecord, type WebhookStore } from '../../../services/forwarder/webhook-store';
import { newTapCredential, TestListener, type TestListenerOptions } from '../../support/webhook-listener';

let store: WebhookStore;
let runner: LegacyRunner;
let forwarder: RunningForwarder;
const open: TestListener[] = [];

const legacyWebhook = (id: string, legacyFunction: string): WebhookRecord => ({
  id,
  name: id,
  ownerId: 'owner-1',
  secret: `secret-of-${id}`,
  keyPath: null,
  legacyFunction,
  createdAt: 0,
});

const byRoom = legacyWebhook('wh_by_room', 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }');
const forever = legacyWebhook('wh_forever', '(hubData, webhookData) => { while (true) {} }');

beforeAll(async () => {
  store = createWebhookStore();
  await store.seed(byRoom);
  await store.seed(forever);
  runner = createLegacyRunner();
  forwarder = await startForwarder({ store, legacyRunner: runner });
});
afterAll(async () => {
  await forwarder.close();
  await runner.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close()));
});

async function listen(webhook: WebhookRecord, listenerId: string, extra: Partial<TestListenerOptions> = {}): Promise<TestListener> {
  const listener = await TestListener.connect({ forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, listenerId, ...extra });
  open.push(listener);
  return listener;
}

async function post(webhook: WebhookRecord, body: unknown): Promise<string> {
  const response = await fetch(`${forwarder.url}/webhook/${webhook.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

describe('legacy function routing', () => {
  it('delivers to exactly the listeners whose data the function accepts', async () => {
    const kitchen = await listen(byRoom, 'kitchen', { data: { room: 'kitchen' } });
    const hall = await listen(byRoom, 'hall', { data: { room: 'hall' } });
    const kitchen2 = await listen(byRoom, 'kitchen-2', { data: { room: 'kitchen' } });
    const tap = await listen(byRoom, 'tap', await newTapCredential(store, byRoom.id));

    const id = await post(byRoom, { room: 'kitchen' });
    expect((await kitchen.nextMessage()).id).toBe(id);
    expect((await kitchen2.nextMessage()).id).toBe(id);
    const decision = (await tap.nextTap()).routing;
    expect(decision.option).toBe('legacy');
    expect(decision.matched.map((m) => m.listenerId).sort()).toEqual(['kitchen', 'kitchen-2']);

    const marker = await post(byRoom, { room: 'hall' });
    expect((await hall.nextMessage()).id).toBe(marker);
    expect(hall.ids()).toEqual([marker]);
  });

  it('stops a function that loops forever, says so on the tap, and serves the next request', async () => {
    await listen(forever, 'victim', { data: { room: 'any' } });
    const tap = await listen(forever, 'tap', await newTapCredential(store, forever.id));
    await post(forever, { room: 'any' });
    const decision = (await tap.nextTap()).routing;
    expect(decision).toMatchObject({ option: 'legacy', matched: [], reason: expect.stringContaining('timeout') });

    const kitchen = await listen(byRoom, 'kitchen', { data: { room: 'kitchen' } });
    const next = await post(byRoom, { room: 'kitchen' });
    expect((await kitchen.nextMessage()).id).toBe(next);
  });
});
