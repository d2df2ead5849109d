/**
 * Webhook registrations, their connection status, and the inspector's entries. Independent of the
 * sign-in: the forwarder authenticates webhooks by id and secret, so this works signed out too. Made of
 * parts with one job each (docs/webhooks-app.md, "The inspector"): the registrations
 * (webhook-registrations-slice.ts), the selected message (inspector-selection-slice.ts), the filter
 * (inspector-search-slice.ts) and the list's bounds and batches (webhook-entry-list.ts); this module
 * keeps the list, the history's figures and the archives, and wires main's events to the parts.
 *
 * Entries are summaries (main never sends a body in a list: a preview of at most 1 KiB), kept newest
 * first within two bounds (docs/security.md, "The app's webhook inspector"): at most
 * RENDERER_INSPECTOR_CAPACITY (10,000) shown and as many held, and at most RENDERER_INSPECTOR_BUDGET_BYTES
 * (16 MiB) for shown and held together, each entry accounted by `entryBytes`; the oldest go first. A
 * preview longer than RENDERER_PREVIEW_MAX_CHARS is cut on arrival. The full message (body and raw
 * body) of the selected entry only is fetched on demand (`inspector.message`) and dropped when the
 * selection changes. The snapshot kept in main is loaded page by page (SNAPSHOT_PAGE_ENTRIES each).
 *
 * Main sends each intake once (`webhooks.entry`) and later changes of it as patches by key
 * (`webhooks.entryPatch`: delivered, routing, or the headers and preview a delivery brought); a patch
 * of an entry no longer held is dropped. Payloads are checked against the contract's schemas by the
 * bridge, so the store trusts their shape.
 *
 * Events are applied in batches (one store update per frame), so a burst of webhooks costs one
 * render, not one per message. While paused, new entries are held (in the same bounds) and counted;
 * resuming shows them. A patch of an entry already shown (delivered) is applied even while paused:
 * it is not a new message.
 */
import { createStore } from 'zustand/vanilla';
import type { Envelope } from '../../../common/app-error';
import type { WebhookEntry } from '../../../common/ipc-contract';
import { realSchedule, type Schedule } from '../../../common/schedule';
import { atMostEvery, type ScheduleFlush } from './frame-scheduler';
import { type SelectionSlice, selectionSlice } from './inspector-selection-slice';
import { isFiltering, type SearchSlice, searchSlice } from './inspector-search-slice';
import { settle } from './settle';
import { exportMessages, importMessages } from './webhook-archive-io';
import {
  applyBatch,
  clampPreview,
  entryKey,
  type Queued,
  RENDERER_INSPECTOR_BUDGET_BYTES,
  RENDERER_INSPECTOR_CAPACITY,
  SNAPSHOT_PAGE_ENTRIES,
  withinBounds,
} from './webhook-entry-list';
import { type RegistrationsSlice, registrationsSlice, registrationViews } from './webhook-registrations-slice';
import type { WebhookAction, WebhooksBridge, WebhooksContext, WebhooksState, WebhooksStore } from './webhooks-state';

/** New messages are drawn at most this often (a lone one at once): frame-scheduler.ts `atMostEvery`. */
const LIST_REDRAW_MS = 100;
/**
 * After a change of the history (new messages, an import, a forgotten registration) its figures are
 * read again from main within this time, once for a burst (docs/webhooks-app.md, "History").
 */
export const HISTORY_REFRESH_MS = 250;

export function createWebhooksStore(
  bridge: WebhooksBridge,
  settings: { capacity?: number; budgetBytes?: number; scheduleFlush?: ScheduleFlush; schedule?: Schedule } = {},
): WebhooksStore {
  const schedule = settings.schedule ?? realSchedule;
  const capacity = settings.capacity ?? RENDERER_INSPECTOR_CAPACITY;
  const budget = settings.budgetBytes ?? RENDERER_INSPECTOR_BUDGET_BYTES;
  const scheduleFlush = settings.scheduleFlush ?? atMostEvery(LIST_REDRAW_MS);
  let queued: Queued[] = [];
  /** Bumped by whatever replaces the list (clear, a filter): pages still on their way for the old one are then dropped. */
  const lists = { generation: 0 };
  let historyRequest = 0;
  let cancelHistoryRefresh: (() => void) | undefined;
  const withBounds: WebhooksContext['withBounds'] = (held, entries) => withinBounds(held, entries, capacity, budget);

  // The store's parts, made by its initializer (which runs at once, in createStore).
  let selection!: SelectionSlice;
  let registrations!: RegistrationsSlice;
  let search!: SearchSlice;

  const store = createStore<WebhooksState>()((set, get) => {
    const context: WebhooksContext = {
      bridge,
      get,
      set,
      schedule,
      async run(action: WebhookAction, call: () => Promise<Envelope<unknown>>) {
        set({ pending: action, actionError: null });
        const result = await settle(call);
        set({ pending: null, actionError: result.ok ? null : result.error });
        return result.ok;
      },
      capacity,
      withBounds,
    };
    const { run } = context;
    selection = selectionSlice(context);
    registrations = registrationsSlice(context, {
      edited: (id) => selection.refetchIfOf(id), // a new signing secret changes the selected message's verdict
      forgetMessagesOf: (id) => dropEntriesOf(id),
    });
    search = searchSlice(context, lists, {
      showEverything: () => get().load(),
      dropQueuedEntries: () => (queued = queued.filter((item) => item.kind === 'patch')),
    });

    return {
      ...registrations.state,
      ...selection.state,
      ...search.state,
      entries: [],
      listed: false,
      paused: false,
      held: [],
      bytes: 0,
      pending: null,
      actionError: null,
      history: null,

      async load() {
        const started = lists.generation;
        const loadSnapshot = async () => {
          let before: number | undefined;
          for (;;) {
            const page = await settle(() =>
              bridge.inspector.snapshot(before === undefined ? { limit: SNAPSHOT_PAGE_ENTRIES } : { before, limit: SNAPSHOT_PAGE_ENTRIES }),
            );
            if (lists.generation !== started) return; // cleared meanwhile
            if (!page.ok) return set({ actionError: page.error, listed: true });
            // Events that arrived while the snapshot was on its way are newer: they win.
            const state = get();
            const known = new Set([...state.entries, ...state.held].map(entryKey));
            const older = page.value.entries.filter((entry) => !known.has(entryKey(entry))).map(clampPreview);
            const next = withBounds([...state.held], [...state.entries, ...older]);
            set({ ...next, listed: true });
            const full = next.entries.length < state.entries.length + older.length;
            if (page.value.nextCursor === null || full) return;
            before = page.value.nextCursor;
          }
        };
        await Promise.all([registrations.reload(), loadSnapshot()]);
      },

      pause: () => set({ paused: true }),
      resume: () => {
        const shown = withBounds([], [...get().held, ...get().entries]);
        set({ paused: false, held: [], entries: shown.entries, bytes: shown.bytes });
      },

      async clear() {
        queued = [];
        lists.generation++;
        set({ entries: [], held: [], bytes: 0, ...selection.forget() });
        await run('clear', () => bridge.inspector.clear());
        await get().loadHistory();
      },

      async loadHistory() {
        const request = ++historyRequest;
        const result = await settle(() => bridge.inspector.history());
        // An older answer never replaces a newer one.
        if (result.ok && request === historyRequest) set({ history: result.value });
      },

      async setHistory(settings) {
        await run('setHistory', async () => {
          const result = await bridge.inspector.setHistory(settings);
          if (result.ok) set({ history: result.value });
          return result;
        });
      },

      exportArchive(format, onlySelected) {
        const { entries, selectedKey, registrations: views } = get();
        const chosen = onlySelected ? entries.filter((entry) => entryKey(entry) === selectedKey) : entries;
        return exportMessages(bridge, chosen, registrationViews({ registrations: views }), format);
      },

      async importArchive(open, pacing) {
        const result = await importMessages(bridge, open, pacing);
        await get().loadHistory();
        return result;
      },
    };
  });

  /** The history's figures read again soon, once for a burst of changes; only once they are shown at all. */
  const refreshHistorySoon = () => {
    if (store.getState().history === null) return;
    cancelHistoryRefresh ??= schedule(() => {
      cancelHistoryRefresh = undefined;
      void store.getState().loadHistory();
    }, HISTORY_REFRESH_MS);
  };

  /** Takes a forgotten registration's messages out of the list (and the selection, when it was one of them). */
  const dropEntriesOf = (id: string) => {
    const { getState: get, setState: set } = store;
    const keep = (entry: WebhookEntry) => entry.webhookId !== id;
    const selected = get().selectedKey;
    const entries = get().entries.filter(keep);
    const held = get().held.filter(keep);
    const lostSelection = selected !== null && selected.startsWith(`${id}/`);
    set({ entries, held, bytes: withBounds([...held], [...entries]).bytes, ...(lostSelection && selection.forget()) });
    refreshHistorySoon();
  };

  const flush = () => {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const state = store.getState();
    const { held, entries, refetch } = applyBatch(batch, state);
    store.setState(withBounds(held, entries));
    if (refetch) selection.fetchDetails(state.selectedKey);
  };

  const enqueue = (item: Queued) => {
    if (queued.length === 0) scheduleFlush(flush);
    queued.push(item);
  };
  const stops = [
    bridge.on('webhooks.entry', (entry) => {
      refreshHistorySoon();
      if (isFiltering(store.getState().filter)) search.requery();
      else enqueue({ kind: 'entry', entry: clampPreview(entry) });
    }),
    bridge.on('webhooks.entryPatch', (patch) => {
      refreshHistorySoon();
      enqueue({ kind: 'patch', patch });
    }),
    bridge.on('webhooks.status', (status) => registrations.statusChanged(status.webhookId, status.connection)),
    bridge.on('webhooks.view', (changed) => registrations.viewChanged(changed)),
  ];
  void store.getState().load();

  return {
    ...store,
    dispose() {
      for (const stop of stops) stop();
      cancelHistoryRefresh?.();
      search.dispose();
      registrations.dispose();
    },
  };
}
