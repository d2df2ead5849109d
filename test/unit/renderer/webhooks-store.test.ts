import { describe, expect, it } from 'vitest';
import { createWebhooksStore, entryKey, RENDERER_INSPECTOR_CAPACITY } from '../../../renderer/src/stores/webhooks-store';
import { flush, ok } from './fake-bridge';
import { entry, fakeWebhooksBridge, webhookView } from './fake-webhooks-bridge';

function setup(capacity?: number) {
  const fake = fakeWebhooksBridge();
  const flushes: (() => void)[] = [];
  const store = createWebhooksStore(fake.bridge, { capacity, scheduleFlush: (run) => void flushes.push(run) });
  const runFlushes = () => flushes.splice(0).forEach((run) => run());
  return { fake, store, runFlushes };
}

async function loaded(capacity?: number) {
  const context = setup(capacity);
  context.fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1')]));
  context.fake.waiting('inspector.snapshot')[0]!.resolve(ok([]));
  await flush();
  return context;
}

const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);

describe('webhooks store', () => {
  it('loads the registrations and the snapshot kept in main', async () => {
    const { fake, store } = setup();
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1', { connection: { state: 'connected' } })]));
    fake.waiting('inspector.snapshot')[0]!.resolve(ok([entry('m2'), entry('m1')]));
    await flush();
    expect(store.getState().registrations).toMatchObject({ status: 'loaded', views: [{ id: 'wh1' }] });
    expect(store.getState().connections).toEqual({ wh1: { state: 'connected' } });
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
  });

  it('keeps events that arrived before the snapshot in front of it, without duplicates', async () => {
    const { fake, store, runFlushes } = setup();
    fake.emit('webhooks.entry', entry('m2', { delivered: true }));
    fake.emit('webhooks.entry', entry('m3'));
    runFlushes();
    fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    fake.waiting('inspector.snapshot')[0]!.resolve(ok([entry('m2'), entry('m1')]));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m3', 'm2', 'm1']);
    expect(store.getState().entries[1]!.delivered).toBe(true);
  });

  it('shows new entries newest first, one store update per batch, and replaces an updated entry in place', async () => {
    const { fake, store, runFlushes } = await loaded();
    let updates = 0;
    store.subscribe(() => updates++);
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2'));
    expect(store.getState().entries).toEqual([]); // not before the flush
    runFlushes();
    expect(updates).toBe(1);
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
    fake.emit('webhooks.entry', entry('m1', { delivered: true }));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
    expect(store.getState().entries[1]!.delivered).toBe(true);
  });

  it('merges a tap entry and its delivery that arrive in the same batch', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m1', { delivered: true }));
    runFlushes();
    expect(store.getState().entries).toHaveLength(1);
    expect(store.getState().entries[0]!.delivered).toBe(true);
  });

  it('is a bounded ring: the oldest entries are dropped', async () => {
    expect(RENDERER_INSPECTOR_CAPACITY).toBe(10_000);
    const { fake, store, runFlushes } = await loaded(3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) fake.emit('webhooks.entry', entry(id));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['e', 'd', 'c']);
  });

  it('holds the full default capacity of 10,000', async () => {
    const { fake, store, runFlushes } = await loaded();
    for (let i = 0; i < RENDERER_INSPECTOR_CAPACITY + 10; i++) fake.emit('webhooks.entry', entry(`m${i}`));
    runFlushes();
    expect(store.getState().entries).toHaveLength(RENDERER_INSPECTOR_CAPACITY);
    expect(store.getState().entries[0]!.id).toBe(`m${RENDERER_INSPECTOR_CAPACITY + 9}`);
  });

  it('while paused, new entries are held and counted, updates of shown ones still apply; resume shows them', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    runFlushes();
    store.getState().pause();
    fake.emit('webhooks.entry', entry('m2'));
    fake.emit('webhooks.entry', entry('m3'));
    fake.emit('webhooks.entry', entry('m1', { delivered: true }));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['m1']);
    expect(store.getState().entries[0]!.delivered).toBe(true);
    expect(store.getState().held).toHaveLength(2);
    fake.emit('webhooks.entry', entry('m2', { delivered: true }));
    runFlushes();
    expect(store.getState().held).toHaveLength(2);
    store.getState().resume();
    expect(store.getState().paused).toBe(false);
    expect(store.getState().held).toEqual([]);
    expect(ids(store.getState().entries)).toEqual(['m3', 'm2', 'm1']);
    expect(store.getState().entries[1]!.delivered).toBe(true);
  });

  it('clear empties the list, the held entries and the selection, and clears main', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    runFlushes();
    store.getState().select(entryKey(entry('m1')));
    store.getState().pause();
    fake.emit('webhooks.entry', entry('m2'));
    runFlushes();
    const clearing = store.getState().clear();
    expect(store.getState()).toMatchObject({ entries: [], held: [], selectedKey: null });
    fake.waiting('inspector.clear')[0]!.resolve(ok(undefined));
    await clearing;
    expect(store.getState().actionError).toBeNull();
  });

  it('applies status events, before and after the list', async () => {
    const { fake, store } = setup();
    fake.emit('webhooks.status', { webhookId: 'wh1', connection: { state: 'reconnecting', attempt: 2, nextRetryAt: 5 } });
    expect(store.getState().connections.wh1).toEqual({ state: 'reconnecting', attempt: 2, nextRetryAt: 5 });
    fake.emit('webhooks.status', { webhookId: 'wh1', connection: { state: 'refused', reason: 'The forwarder refused the webhook secret.' } });
    expect(store.getState().connections.wh1).toMatchObject({ state: 'refused' });
    fake.emit('webhooks.status', { nonsense: true });
    fake.emit('webhooks.entry', 'garbage');
    expect(store.getState().connections).toEqual({ wh1: { state: 'refused', reason: 'The forwarder refused the webhook secret.' } });
  });

  it('add reloads the list on success and keeps the error on failure', async () => {
    const { fake, store } = await loaded();
    const input = { id: 'wh2', secret: 'a-secret-value', routing: { kind: 'keys' as const, values: ['x'] } };
    const adding = store.getState().add(input);
    expect(store.getState().pending).toBe('add');
    fake.waiting('webhooks.add')[0]!.resolve(ok(webhookView('wh2')));
    await flush();
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1'), webhookView('wh2')]));
    expect(await adding).toBe(true);
    expect(store.getState().registrations).toMatchObject({ status: 'loaded', views: [{ id: 'wh1' }, { id: 'wh2' }] });

    const failing = store.getState().add(input);
    fake.waiting('webhooks.add')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'Invalid arguments for webhooks.add.' } });
    expect(await failing).toBe(false);
    expect(store.getState().actionError).toMatchObject({ code: 'invalid-argument' });
  });

  it('remove drops the entries of that webhook and its selection', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2', { webhookId: 'wh2' }));
    runFlushes();
    store.getState().select('wh1/m1');
    const removing = store.getState().remove('wh1');
    fake.waiting('webhooks.remove')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    await removing;
    expect(ids(store.getState().entries)).toEqual(['m2']);
    expect(store.getState().selectedKey).toBeNull();
  });

  it('dispose unsubscribes from both events', () => {
    const { fake, store } = setup();
    expect(fake.listenerCount()).toBe(2);
    store.dispose();
    expect(fake.listenerCount()).toBe(0);
  });
});
