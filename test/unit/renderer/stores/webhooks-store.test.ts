import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_HISTORY_SETTINGS, WEBHOOK_UNDO_MS, type WebhookEntryPatch, type WebhookFullMessage } from '../../../../common/ipc-contract';
import { createWebhooksStore, HISTORY_REFRESH_MS } from '../../../../renderer/src/stores/webhooks-store';
import {
  entryBytes,
  entryKey,
  RENDERER_INSPECTOR_BUDGET_BYTES,
  RENDERER_INSPECTOR_CAPACITY,
  RENDERER_PREVIEW_MAX_CHARS,
  SNAPSHOT_PAGE_ENTRIES,
} from '../../../../renderer/src/stores/webhook-entry-list';
import { REQUERY_MS } from '../../../../renderer/src/stores/inspector-search-slice';
import { registrationViews } from '../../../../renderer/src/stores/webhook-registrations-slice';
import { flush, ok } from '../fake-bridge';
import { entry, fakeWebhooksBridge, webhookView } from '../fake-webhooks-bridge';

function setup(capacity?: number, budgetBytes?: number) {
  const fake = fakeWebhooksBridge();
  const flushes: (() => void)[] = [];
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const schedule = (run: () => void, ms: number) => {
    const timer = { run, ms, cancelled: false };
    timers.push(timer);
    return () => void (timer.cancelled = true);
  };
  const store = createWebhooksStore(fake.bridge, { capacity, budgetBytes, scheduleFlush: (run) => void flushes.push(run), schedule });
  const runFlushes = () => flushes.splice(0).forEach((run) => run());
  /** Runs the timers still set, as if their time had passed. */
  const runTimers = () =>
    timers
      .splice(0)
      .filter((timer) => !timer.cancelled)
      .forEach((timer) => timer.run());
  return { fake, store, runFlushes, runTimers, timers };
}

const page = (entries: unknown[], nextCursor: number | null = null) => ok({ entries, nextCursor });

async function loaded(capacity?: number, budgetBytes?: number) {
  const context = setup(capacity, budgetBytes);
  context.fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1')]));
  context.fake.waiting('inspector.snapshot')[0]!.resolve(page([]));
  await flush();
  return context;
}

const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);
const patch = (id: string, changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'>, webhookId = 'wh1'): WebhookEntryPatch => ({ webhookId, id, ...changes });

describe('webhooks store', () => {
  it('loads the registrations and the snapshot kept in main', async () => {
    const { fake, store } = setup();
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1', { connection: { state: 'connected' } })]));
    await flush();
    expect(store.getState().listed).toBe(false); // main is still reading its saved history: not "no messages"
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m2'), entry('m1')]));
    await flush();
    expect(store.getState().listed).toBe(true);
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
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m2'), entry('m1')]));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m3', 'm2', 'm1']);
    expect(store.getState().entries[1]!.delivered).toBe(true);
  });

  it('shows new entries newest first, one store update per batch, and patches an entry in place by key', async () => {
    const { fake, store, runFlushes } = await loaded();
    let updates = 0;
    store.subscribe(() => updates++);
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2'));
    expect(store.getState().entries).toEqual([]); // not before the flush
    runFlushes();
    expect(updates).toBe(1);
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
    fake.emit('webhooks.entryPatch', patch('m1', { delivered: true }));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
    expect(store.getState().entries[1]).toEqual(entry('m1', { delivered: true }));
  });

  it('receives one entry per intake, then patches: a tap entry awaiting its delivery, then the delivery', async () => {
    const { fake, store, runFlushes } = await loaded();
    const awaiting = entry('m1', { awaitingDelivery: true, headers: {}, preview: '', bodyBytes: 26, size: 26, truncated: true });
    fake.emit('webhooks.entry', awaiting);
    runFlushes();
    expect(store.getState().entries).toEqual([awaiting]);
    const delivery = patch('m1', {
      delivered: true,
      awaitingDelivery: false,
      headers: { 'content-type': 'application/json' },
      preview: '{"device":{"id":"lamp-1"}}',
      truncated: false,
    });
    fake.emit('webhooks.entryPatch', delivery);
    runFlushes();
    const { webhookId: _w, id: _i, ...changes } = delivery;
    expect(store.getState().entries).toEqual([{ ...awaiting, ...changes }]);
    expect(store.getState().bytes).toBe(entryBytes(store.getState().entries[0]!));
  });

  it('applies a patch to an entry of the same batch, and drops a patch of an entry it does not hold', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entryPatch', patch('m1', { delivered: true }));
    fake.emit('webhooks.entryPatch', patch('unknown', { delivered: true }));
    fake.emit('webhooks.entryPatch', patch('m1', { delivered: true }, 'another-webhook'));
    runFlushes();
    expect(store.getState().entries).toEqual([entry('m1', { delivered: true })]);
  });

  it('is a bounded ring: the oldest entries are dropped', async () => {
    expect(RENDERER_INSPECTOR_CAPACITY).toBe(10_000);
    const { fake, store, runFlushes } = await loaded(3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) fake.emit('webhooks.entry', entry(id));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['e', 'd', 'c']);
  });

  it("lists intakes in the forwarder's order even when a later one's message arrived first, in one batch or across batches, shown or held", async () => {
    const { fake, store, runFlushes } = await loaded();
    const evt = (sequence: number) => `evt_00000abcd_${sequence.toString(36).padStart(10, '0')}`;
    // The delivery of 3 comes before the tap event of 2 (another hub's), on the other socket.
    for (const sequence of [1, 3, 2]) fake.emit('webhooks.entry', entry(evt(sequence)));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual([evt(3), evt(2), evt(1)]);
    fake.emit('webhooks.entry', entry(evt(36)));
    runFlushes();
    fake.emit('webhooks.entry', entry(evt(35)));
    fake.emit('webhooks.entry', entry(evt(37)));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual([evt(37), evt(36), evt(35), evt(3), evt(2), evt(1)]);
    store.getState().pause();
    fake.emit('webhooks.entry', entry(evt(39)));
    fake.emit('webhooks.entry', entry(evt(38)));
    runFlushes();
    expect(ids(store.getState().held)).toEqual([evt(39), evt(38)]);
    store.getState().resume();
    expect(ids(store.getState().entries).slice(0, 3)).toEqual([evt(39), evt(38), evt(37)]);
    // Other ids (an imported file's) go by their time; at the same time, in the order they came.
    fake.emit('webhooks.entry', entry('imported-old', { receivedAt: '2025-01-01T00:00:00.000Z' }));
    fake.emit('webhooks.entry', entry('x1', { receivedAt: '2027-01-01T00:00:00.000Z' }));
    fake.emit('webhooks.entry', entry('x2', { receivedAt: '2027-01-01T00:00:00.000Z' }));
    runFlushes();
    expect(ids(store.getState().entries).slice(0, 2)).toEqual(['x2', 'x1']);
    expect(ids(store.getState().entries).at(-1)).toBe('imported-old');
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
    fake.emit('webhooks.entryPatch', patch('m1', { delivered: true }));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['m1']);
    expect(store.getState().entries[0]!.delivered).toBe(true);
    expect(store.getState().held).toHaveLength(2);
    fake.emit('webhooks.entryPatch', patch('m2', { delivered: true }));
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
    await flush();
    // Then it reads the history's figures again (answered here, not left to settle's deadline).
    const emptied = { ...DEFAULT_HISTORY_SETTINGS, storage: 'encrypted' as const, messages: 0, bytes: 0, error: null };
    fake.waiting('inspector.history')[0]!.resolve(ok(emptied));
    await clearing;
    expect(store.getState().actionError).toBeNull();
    expect(store.getState().history).toEqual(emptied);
  });

  it('reads the history figures again soon after new messages (once a burst), at once after an import, and never keeps an older answer', async () => {
    const { fake, store, runTimers, timers } = await loaded();
    const figures = (messages: number) => ({ ...DEFAULT_HISTORY_SETTINGS, storage: 'encrypted' as const, messages, bytes: messages * 100, error: null });
    // Not shown yet: nothing is read for new messages.
    fake.emit('webhooks.entry', entry('m0'));
    expect(timers).toHaveLength(0);
    const first = store.getState().loadHistory();
    fake.waiting('inspector.history')[0]!.resolve(ok(figures(1)));
    await first;

    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2'));
    fake.emit('webhooks.entryPatch', patch('m1', { delivered: true }));
    expect(timers.filter((timer) => !timer.cancelled).map((timer) => timer.ms)).toEqual([HISTORY_REFRESH_MS]);
    runTimers();
    expect(fake.waiting('inspector.history')).toHaveLength(1);
    const newer = store.getState().loadHistory();
    const [older, latest] = fake.waiting('inspector.history');
    latest!.resolve(ok(figures(3)));
    await newer;
    older!.resolve(ok(figures(2)));
    await flush();
    expect(store.getState().history?.messages).toBe(3);

    const line = JSON.stringify({
      webhookId: 'wh1',
      id: 'imp',
      receivedAt: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      headers: {},
      query: {},
      rawBody: '',
      routing: null,
      delivered: false,
    });
    const importing = store.getState().importArchive(
      async function* () {
        yield new TextEncoder().encode(`${line}\n`);
      },
      { pause: async () => {} },
    );
    await vi.waitFor(() => expect(fake.waiting('inspector.import')).toHaveLength(1));
    fake.waiting('inspector.import')[0]!.resolve(ok({ added: 1, duplicates: 0 }));
    await vi.waitFor(() => expect(fake.waiting('inspector.history')).toHaveLength(1));
    fake.waiting('inspector.history')[0]!.resolve(ok(figures(4)));
    expect((await importing).ok).toBe(true);
    expect(store.getState().history?.messages).toBe(4);
  });

  it('pause holds the new matches of a filter too: the shown list stays, resume shows them', async () => {
    const { fake, store, runTimers } = await loaded();
    const filtering = store.getState().setFilter({ text: 'lamp' });
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m1')]));
    await filtering;
    store.getState().pause();
    fake.emit('webhooks.entry', entry('m2'));
    runTimers();
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m2'), entry('m1')]));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m1']);
    expect(ids(store.getState().held)).toEqual(['m2']);
    store.getState().resume();
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
    expect(store.getState().held).toEqual([]);
  });

  it('applies status events, before and after the list; the bridge drops malformed events before the store', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fake, store, runFlushes } = setup();
    fake.emit('webhooks.status', { webhookId: 'wh1', connection: { state: 'reconnecting', attempt: 2, nextRetryAt: 5 } });
    expect(store.getState().connections.wh1).toEqual({ state: 'reconnecting', attempt: 2, nextRetryAt: 5 });
    fake.emit('webhooks.status', { webhookId: 'wh1', connection: { state: 'refused', reason: 'The forwarder refused the webhook secret.' } });
    expect(store.getState().connections.wh1).toMatchObject({ state: 'refused' });
    fake.emit('webhooks.status', { nonsense: true });
    fake.emit('webhooks.entry', 'garbage');
    fake.emit('webhooks.entryPatch', { id: 'no webhook id' });
    runFlushes();
    expect(store.getState().connections).toEqual({ wh1: { state: 'refused', reason: 'The forwarder refused the webhook secret.' } });
    expect(store.getState().entries).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });

  it('a view event replaces that registration (the forwarder named it) and its connection; one of an unknown registration is ignored', async () => {
    const { fake, store } = await loaded();
    fake.emit('webhooks.view', webhookView('wh1', { webhookName: 'Lamp events', connection: { state: 'connected' } }));
    expect(store.getState().registrations).toEqual({
      status: 'loaded',
      views: [webhookView('wh1', { webhookName: 'Lamp events', connection: { state: 'connected' } })],
    });
    expect(store.getState().connections.wh1).toEqual({ state: 'connected' });
    fake.emit('webhooks.view', webhookView('wh9', { webhookName: 'Other' }));
    expect(store.getState().registrations).toMatchObject({ views: [{ id: 'wh1' }] });
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

  it('remove keeps the entries while it can be undone, then drops them and their selection', async () => {
    const { fake, store, runFlushes, runTimers, timers } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2', { webhookId: 'wh2' }));
    runFlushes();
    store.getState().select('wh1/m1');
    const removing = store.getState().remove('wh1');
    fake.waiting('webhooks.remove')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    await removing;
    expect(store.getState().removed).toEqual({ id: 'wh1', label: 'wh1' });
    expect(ids(store.getState().entries)).toEqual(['m2', 'm1']);
    expect(timers.map((timer) => timer.ms)).toEqual([WEBHOOK_UNDO_MS]);
    runTimers();
    expect(ids(store.getState().entries)).toEqual(['m2']);
    expect(store.getState().selectedKey).toBeNull();
    expect(store.getState().removed).toBeNull();
    // The dropped selection's full message, still on its way then, is not shown when it arrives.
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'gone', reason: 'cleared' }));
    await flush();
    expect(store.getState().details).toEqual({ status: 'idle' });
  });

  it('undo brings the registration back and keeps its entries', async () => {
    const { fake, store, runFlushes, runTimers } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    runFlushes();
    const removing = store.getState().remove('wh1');
    fake.waiting('webhooks.remove')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    await removing;
    const undoing = store.getState().undoRemove();
    const [call] = fake.waiting('webhooks.undoRemove');
    expect(call!.args).toEqual(['wh1']);
    call!.resolve(ok(webhookView('wh1')));
    await flush();
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1')]));
    await undoing;
    runTimers();
    expect(store.getState().removed).toBeNull();
    expect(ids(store.getState().entries)).toEqual(['m1']);
    expect(store.getState().registrations).toMatchObject({ status: 'loaded', views: [{ id: 'wh1' }] });
  });

  it('loads the snapshot page by page with the cursor, asking for pages of 200', async () => {
    const { fake, store } = setup();
    fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    expect(fake.waiting('inspector.snapshot')[0]!.args).toEqual([{ limit: SNAPSHOT_PAGE_ENTRIES }]);
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m4'), entry('m3')], 3));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m4', 'm3']);
    expect(fake.waiting('inspector.snapshot')[0]!.args).toEqual([{ before: 3, limit: SNAPSHOT_PAGE_ENTRIES }]);
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m2'), entry('m1')]));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m4', 'm3', 'm2', 'm1']);
    expect(fake.waiting('inspector.snapshot')).toHaveLength(0);
  });

  it('stops paging when its bounds are full, and drops pages that arrive after a clear', async () => {
    const { fake, store } = setup(2);
    fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m4'), entry('m3'), entry('m2')], 2));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m4', 'm3']);
    expect(fake.waiting('inspector.snapshot')).toHaveLength(0);

    const other = setup();
    other.fake.waiting('webhooks.list')[0]!.resolve(ok([]));
    void other.store.getState().clear();
    other.fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('old')], 9));
    await flush();
    expect(other.store.getState().entries).toEqual([]);
    expect(other.fake.waiting('inspector.snapshot')).toHaveLength(0);
  });

  it('bounds shown and held entries together by bytes (16 MiB by default), the oldest first', async () => {
    expect(RENDERER_INSPECTOR_BUDGET_BYTES).toBe(16 * 1024 * 1024);
    const one = entryBytes(entry('m00'));
    const { fake, store, runFlushes } = await loaded(undefined, one * 5);
    for (let i = 0; i < 4; i++) fake.emit('webhooks.entry', entry(`m0${i}`));
    runFlushes();
    store.getState().pause();
    for (let i = 4; i < 7; i++) fake.emit('webhooks.entry', entry(`m0${i}`));
    runFlushes();
    // Held ones are the newest: they stay; the oldest shown ones make room.
    expect(ids(store.getState().held)).toEqual(['m06', 'm05', 'm04']);
    expect(ids(store.getState().entries)).toEqual(['m03', 'm02']);
    expect(store.getState().bytes).toBeLessThanOrEqual(one * 5);
    store.getState().resume();
    expect(ids(store.getState().entries)).toEqual(['m06', 'm05', 'm04', 'm03', 'm02']);
  });

  it('a flood of 256 KiB messages keeps only summaries, within 16 MiB', async () => {
    const { fake, store, runFlushes } = await loaded();
    const preview = `{"device":{"id":"flood-1"},"pad":"${'x'.repeat(990)}`;
    for (let i = 0; i < 11_000; i++) fake.emit('webhooks.entry', entry(`m${i}`, { bodyBytes: 262_144, size: 262_144, preview, truncated: true }));
    runFlushes();
    const { entries, bytes } = store.getState();
    expect(bytes).toBeLessThanOrEqual(RENDERER_INSPECTOR_BUDGET_BYTES);
    expect(entries.reduce((sum, e) => sum + JSON.stringify(e).length, 0)).toBeLessThanOrEqual(RENDERER_INSPECTOR_BUDGET_BYTES);
    expect(entries.length).toBeGreaterThan(5000);
    expect(entries[0]!.id).toBe('m10999');
  });

  it('has room for all 10,000 typical small messages (real headers, routing and preview)', async () => {
    const { fake, store, runFlushes } = await loaded();
    const headers = {
      host: '127.0.0.1:40123',
      connection: 'keep-alive',
      'content-type': 'application/json',
      accept: '*/*',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'user-agent': 'node',
      'accept-encoding': 'gzip, deflate',
      'content-length': '32',
    };
    const routing = {
      option: 'key-path' as const,
      keyPath: 'body.device.id',
      value: 'many-1',
      matched: [{ listenerId: 'lst_0123456789abcdef0123456789abcdef' }],
    };
    for (let i = 0; i < RENDERER_INSPECTOR_CAPACITY; i++) {
      fake.emit(
        'webhooks.entry',
        entry(`evt_0123456789abcdef${i}`, { webhookId: 'wh_0123456789abcdef01234567', headers, routing, preview: `{"device":{"id":"many-1"},"n":${i}}` }),
      );
    }
    runFlushes();
    expect(store.getState().entries).toHaveLength(RENDERER_INSPECTOR_CAPACITY);
  });

  it('cuts a preview longer than its bound on arrival, in an entry or a patch', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('long', { preview: 'y'.repeat(1_000_000) }));
    fake.emit('webhooks.entry', entry('patched', { awaitingDelivery: true, preview: '' }));
    fake.emit('webhooks.entryPatch', patch('patched', { awaitingDelivery: false, preview: 'z'.repeat(1_000_000), truncated: false }));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['patched', 'long']);
    for (const shown of store.getState().entries) {
      expect(shown.preview).toHaveLength(RENDERER_PREVIEW_MAX_CHARS);
      expect(shown.truncated).toBe(true);
    }
  });

  it('fetches the selected message again when the delivery it was waiting for arrives', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1', { awaitingDelivery: true, preview: '' }));
    runFlushes();
    store.getState().select('wh1/m1');
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'gone', reason: 'not received yet' }));
    await flush();
    expect(store.getState().details).toEqual({ status: 'gone', key: 'wh1/m1', reason: 'not received yet' });

    fake.emit('webhooks.entryPatch', patch('m1', { routing: null })); // any other patch: no new fetch
    runFlushes();
    expect(fake.waiting('inspector.message')).toHaveLength(0);
    fake.emit('webhooks.entryPatch', patch('m1', { delivered: true, awaitingDelivery: false, preview: '{}' }));
    runFlushes();
    expect(store.getState().details).toEqual({ status: 'loading', key: 'wh1/m1' });
    const message: WebhookFullMessage = { ...entry('m1', { delivered: true }), body: {}, bodyOmitted: false, rawBody: 'e30=', rawTruncated: false };
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'kept', message }));
    await flush();
    expect(store.getState().details).toEqual({ status: 'kept', key: 'wh1/m1', message });
  });

  it('an edit of the selected message’s registration fetches it again (its signature verdict may change); a refused edit does not', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    runFlushes();
    store.getState().select('wh1/m1');
    const message: WebhookFullMessage = { ...entry('m1'), body: {}, bodyOmitted: false, rawBody: 'e30=', rawTruncated: false };
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'kept', message, signature: { status: 'no-secret', scheme: 'github' } }));
    await flush();

    const refused = store.getState().edit({ id: 'wh1', forwardTo: 'http://127.0.0.1:3000/' });
    fake
      .waiting('webhooks.edit')[0]!
      .resolve({ ok: false, error: { code: 'invalid-argument', message: 'There is no such webhook here (it may have been removed).' } });
    expect(await refused).toBe(false);
    expect(store.getState().actionError?.message).toMatch(/no such webhook/);
    expect(fake.waiting('inspector.message')).toHaveLength(0);

    const edited = store.getState().edit({ id: 'wh1', signingSecret: 'a-signing-secret' });
    expect(fake.waiting('webhooks.edit')[0]!.args).toEqual([{ id: 'wh1', signingSecret: 'a-signing-secret' }]);
    fake.waiting('webhooks.edit')[0]!.resolve(ok(webhookView('wh1', { hasSigningSecret: true })));
    await flush();
    expect(fake.waiting('inspector.message').map((call) => call.args)).toEqual([['wh1', 'm1']]);
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'kept', message, signature: { status: 'valid', scheme: 'github' } }));
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1', { hasSigningSecret: true })]));
    expect(await edited).toBe(true);
    expect(store.getState().details).toMatchObject({ status: 'kept', signature: { status: 'valid' } });
    expect(registrationViews(store.getState())[0]!.hasSigningSecret).toBe(true);
  });

  it('fetches the selected message in full on demand, and says when main no longer keeps it', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2'));
    runFlushes();
    store.getState().select('wh1/m1');
    expect(store.getState().details).toEqual({ status: 'loading', key: 'wh1/m1' });
    const call = fake.waiting('inspector.message')[0]!;
    expect(call.args).toEqual(['wh1', 'm1']);
    const message: WebhookFullMessage = { ...entry('m1'), body: { big: true }, bodyOmitted: false, rawBody: 'e30=', rawTruncated: false };
    call.resolve(ok({ status: 'kept', message }));
    await flush();
    expect(store.getState().details).toEqual({ status: 'kept', key: 'wh1/m1', message });

    store.getState().select('wh1/m2');
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'gone', reason: 'no longer kept' }));
    await flush();
    expect(store.getState().details).toEqual({ status: 'gone', key: 'wh1/m2', reason: 'no longer kept' });

    // A late answer for an earlier selection is ignored; an error is shown.
    store.getState().select('wh1/m1');
    const late = fake.waiting('inspector.message')[0]!;
    store.getState().select('wh1/m2');
    expect(fake.waiting('inspector.message').map((c) => c.args)).toEqual([
      ['wh1', 'm1'],
      ['wh1', 'm2'],
    ]);
    fake.waiting('inspector.message')[1]!.resolve({ ok: false, error: { code: 'internal', message: 'The connection to Hubdesk was lost.' } });
    late.resolve(ok({ status: 'kept', message }));
    await flush();
    expect(store.getState().details).toMatchObject({ status: 'error', key: 'wh1/m2' });

    store.getState().select(null);
    expect(store.getState().details).toEqual({ status: 'idle' });
  });

  it('dispose unsubscribes from its events', () => {
    const { fake, store } = setup();
    expect(fake.listenerCount()).toBe(4);
    store.dispose();
    expect(fake.listenerCount()).toBe(0);
  });

  it('replays the selected message, shows the answer, and forgets it when another message is selected; an answer for an earlier selection is dropped', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    fake.emit('webhooks.entry', entry('m2'));
    runFlushes();
    store.getState().select('wh1/m1');
    const replaying = store.getState().replaySelected({ target: 'intake' });
    expect(store.getState().replay).toEqual({ status: 'sending', key: 'wh1/m1' });
    const [call] = fake.waiting('inspector.replay');
    expect(call!.args).toEqual([{ webhookId: 'wh1', id: 'm1', target: 'intake' }]);
    const answer = {
      status: 'answered',
      url: 'http://f/webhook/wh1',
      statusCode: 202,
      headers: [],
      body: '{}',
      bodyKind: 'text',
      truncated: false,
      durationMs: 3,
    };
    call!.resolve(ok(answer));
    await replaying;
    expect(store.getState().replay).toEqual({ status: 'done', key: 'wh1/m1', result: answer });

    store.getState().select('wh1/m2');
    expect(store.getState().replay).toEqual({ status: 'idle' });
    const late = store.getState().replaySelected({ target: 'http://localhost:3000/' });
    store.getState().select('wh1/m1');
    fake.waiting('inspector.replay')[0]!.resolve(ok(answer));
    await late;
    expect(store.getState().replay).toEqual({ status: 'idle' });
  });

  it('exports by fetching each message in full, oldest first, and leaves out the ones main no longer keeps', async () => {
    const { fake, store, runFlushes } = await loaded();
    fake.emit('webhooks.entry', entry('old', { receivedAt: '2026-01-01T00:00:00.000Z' }));
    fake.emit('webhooks.entry', entry('new', { receivedAt: '2026-01-01T00:00:01.000Z' }));
    fake.emit('webhooks.entry', entry('gone', { receivedAt: '2026-01-01T00:00:02.000Z' }));
    runFlushes();
    const exporting = store.getState().exportArchive('ndjson', false);
    const full = (id: string): WebhookFullMessage => ({ ...entry(id), body: {}, bodyOmitted: false, rawBody: 'e30=', rawTruncated: false });
    for (const id of ['old', 'new']) {
      await flush();
      const [call] = fake.waiting('inspector.message');
      expect(call!.args).toEqual(['wh1', id]);
      call!.resolve(ok({ status: 'kept', message: full(id), signature: { status: 'unsigned' } }));
    }
    await flush();
    fake.waiting('inspector.message')[0]!.resolve(ok({ status: 'gone', reason: 'evicted' }));
    const result = await exporting;
    expect(result.ok && result.value).toMatchObject({
      exported: 2,
      gone: 1,
      mimeType: 'application/x-ndjson',
      fileName: expect.stringMatching(/^hubdesk-webhooks-.*\.ndjson$/),
    });
    expect(
      result.ok &&
        result.value.text
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(['old', 'new']);
  });

  it('a filter shows main’s matches; new messages ask main again; an empty filter shows everything again', async () => {
    const { fake, store, runFlushes, runTimers, timers } = await loaded();
    fake.emit('webhooks.entry', entry('m1'));
    runFlushes();
    const filtering = store.getState().setFilter({ text: 'lamp', outcomes: [], keyPath: '' });
    expect(store.getState().filter).toEqual({ text: 'lamp' });
    expect(store.getState().searching).toBe(true);
    const [search] = fake.waiting('inspector.snapshot');
    expect(search!.args).toEqual([{ limit: SNAPSHOT_PAGE_ENTRIES, filter: { text: 'lamp' } }]);
    search!.resolve(page([entry('m9')]));
    await filtering;
    expect(ids(store.getState().entries)).toEqual(['m9']);

    fake.emit('webhooks.entry', entry('m10'));
    fake.emit('webhooks.entry', entry('m11'));
    runFlushes();
    expect(ids(store.getState().entries)).toEqual(['m9']);
    expect(timers.filter((timer) => !timer.cancelled).map((timer) => timer.ms)).toEqual([REQUERY_MS]);
    runTimers();
    fake.waiting('inspector.snapshot')[0]!.resolve(page([entry('m11'), entry('m9')]));
    await flush();
    expect(ids(store.getState().entries)).toEqual(['m11', 'm9']);

    const clearing = store.getState().setFilter({});
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1')]));
    const [everything] = fake.waiting('inspector.snapshot');
    expect(everything!.args).toEqual([{ limit: SNAPSHOT_PAGE_ENTRIES }]);
    everything!.resolve(page([entry('m11'), entry('m10'), entry('m9'), entry('m1')]));
    await clearing;
    expect(ids(store.getState().entries)).toEqual(['m11', 'm10', 'm9', 'm1']);
  });

  it('a filter changed again before main answered ends on the newer filter’s answer, whatever order the answers come in', async () => {
    // The filters' typing pause (inspector-filters.tsx) may set the filter just after a toggle did: the
    // toggle's search is then still on its way, and may be answered last.
    const { fake, store, runFlushes } = await loaded();
    const toggled = store.getState().setFilter({ keyPath: 'body.device.id == lamp-2', outcomes: ['no-match'] });
    const typed = store.getState().setFilter({ outcomes: ['no-match'] });
    const [older, newer] = fake.waiting('inspector.snapshot');
    expect(older!.args).toEqual([{ limit: SNAPSHOT_PAGE_ENTRIES, filter: { keyPath: 'body.device.id == lamp-2', outcomes: ['no-match'] } }]);
    expect(newer!.args).toEqual([{ limit: SNAPSHOT_PAGE_ENTRIES, filter: { outcomes: ['no-match'] } }]);
    newer!.resolve(page([entry('m4'), entry('m3'), entry('m2'), entry('m1')]));
    await typed;
    older!.resolve(page([entry('m2')]));
    await toggled;
    runFlushes();
    expect(store.getState().filter).toEqual({ outcomes: ['no-match'] });
    expect(ids(store.getState().entries)).toEqual(['m4', 'm3', 'm2', 'm1']);
    expect(store.getState().searching).toBe(false);

    // Back to everything while a filtered search is still on its way: its late answer is dropped too.
    const filtering = store.getState().setFilter({ outcomes: ['this-app'] });
    const clearing = store.getState().setFilter({});
    const [late, everything] = fake.waiting('inspector.snapshot');
    fake.waiting('webhooks.list')[0]!.resolve(ok([webhookView('wh1')]));
    everything!.resolve(page([entry('m5'), entry('m4'), entry('m3'), entry('m2'), entry('m1')]));
    await clearing;
    late!.resolve(page([entry('m5')]));
    await filtering;
    expect(ids(store.getState().entries)).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
  });

  it('a filter main refuses says why', async () => {
    const { fake, store } = await loaded();
    const filtering = store.getState().setFilter({ keyPath: 'body..x' });
    fake
      .waiting('inspector.snapshot')[0]!
      .resolve({ ok: false, error: { code: 'invalid-argument', message: 'The key-path filter does not parse at 6: expected a name.' } });
    await filtering;
    expect(store.getState()).toMatchObject({ searching: false, filterError: 'The key-path filter does not parse at 6: expected a name.' });
  });

  it('registrationViews gives the same empty list while loading, so a selector does not make React render for ever', () => {
    const loading = { registrations: { status: 'loading' as const } };
    expect(registrationViews(loading)).toBe(registrationViews({ registrations: { status: 'loading' } }));
    const views = [webhookView('wh1')];
    expect(registrationViews({ registrations: { status: 'loaded', views } })).toBe(views);
  });
});
