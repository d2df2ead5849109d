/**
 * Webhook registrations, their connection status, and the inspector's entries. Independent of the
 * sign-in: the forwarder authenticates webhooks by id and secret, so this works signed out too.
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
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Envelope } from '../../../common/app-error';
import {
  REPLAY_TIMEOUT_MS,
  WEBHOOK_UNDO_MS,
  type Bridge,
  type FirstWebhook,
  type HistorySettings,
  type NewWebhookInput,
  type HistoryView,
  type ReplayRequest,
  type ReplayResult,
  type SignatureVerdict,
  type WebhookConnection,
  type WebhookEntry,
  type WebhookEdit,
  type WebhookEntryPatch,
  type WebhookFullMessage,
  type WebhookRegistrationInput,
  type WebhookRouting,
  type WebhookView,
} from '../../../common/ipc-contract';
import { intakeOrder } from '../../../common/intake-order';
import type { MessageFilter } from '../../../common/message-filter';
import { webhookTitle } from '../format/webhook-labels';
import { atMostEvery, type ScheduleFlush } from './frame-scheduler';
import { realSchedule, type Schedule } from '../../../common/schedule';
import { type ArchiveFormat, exportMessages, importMessages } from './webhook-archive-io';
import { settle, type UiError } from './settle';

export const RENDERER_INSPECTOR_CAPACITY = 10_000;
export const RENDERER_INSPECTOR_BUDGET_BYTES = 16 * 1024 * 1024;
/** Main sends previews of at most 1 KiB; anything longer (a misbehaving host) is cut to this. */
export const RENDERER_PREVIEW_MAX_CHARS = 2048;
export const SNAPSHOT_PAGE_ENTRIES = 200;
/** New messages are drawn at most this often (a lone one at once): frame-scheduler.ts `atMostEvery`. */
const LIST_REDRAW_MS = 100;
/** How often, at most, a filtered list asks main again while messages arrive. */
export const REQUERY_MS = 500;
/**
 * After a change of the history (new messages, an import, a forgotten registration) its figures are
 * read again from main within this time, once for a burst (docs/webhooks-app.md, "History").
 */
export const HISTORY_REFRESH_MS = 250;
/** Accounted per entry besides its JSON length: the objects, the row's key and indexes. */
const ENTRY_OVERHEAD_BYTES = 200;

/** The selected message in full, as far as it has been fetched from main. */
export type MessageDetailsState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'kept'; key: string; message: WebhookFullMessage; signature: SignatureVerdict }
  | { status: 'gone'; key: string; reason: string }
  | { status: 'error'; key: string; error: UiError };

/** The last replay of the selected message (reset when another is selected). */
export type ReplayState =
  | { status: 'idle' }
  | { status: 'sending'; key: string }
  | { status: 'done'; key: string; result: ReplayResult }
  | { status: 'error'; key: string; error: UiError };

/** Where to and what to send: the message as received unless edited. */
export type ReplayOptions = Pick<ReplayRequest, 'target' | 'headers' | 'body'>;

export type RegistrationsState = { status: 'loading' } | { status: 'loaded'; views: WebhookView[] } | { status: 'error'; error: UiError };

export type WebhookAction = 'add' | 'edit' | 'create' | 'recreate' | 'remove' | 'undoRemove' | 'clear' | 'openPortal' | 'setHistory';

export interface WebhooksState {
  registrations: RegistrationsState;
  /** Latest connection per webhook id (events may arrive before the list). */
  connections: Readonly<Record<string, WebhookConnection>>;
  /** Shown entries, newest first. */
  entries: readonly WebhookEntry[];
  /** Main answered the first page of what it keeps (it reads the saved history first, which takes seconds for a large one). */
  listed: boolean;
  paused: boolean;
  /** Entries that arrived while paused, newest first; shown on resume. */
  held: readonly WebhookEntry[];
  selectedKey: string | null;
  /** The full message of the selected entry (fetched on selection). */
  details: MessageDetailsState;
  replay: ReplayState;
  /** What the list is narrowed to (empty: everything). While it is not empty, the list is main's answer, asked again as messages arrive. */
  filter: MessageFilter;
  /** Main is looking for the filter's matches. */
  searching: boolean;
  /** Why main refused the filter (a key path that does not parse). */
  filterError: string | null;
  setFilter(filter: MessageFilter): Promise<void>;
  /** Sends the selected message again (main does it: it has the bytes). */
  replaySelected(options: ReplayOptions): Promise<void>;
  /** Builds an export file of the shown messages, or of the selected one only. */
  exportArchive(format: ArchiveFormat, onlySelected: boolean): ReturnType<typeof exportMessages>;
  /** Adds the messages of a HAR or NDJSON file (`open` gives its bytes), read in pieces paced by `pacing`. */
  importArchive(open: Parameters<typeof importMessages>[1], pacing: Parameters<typeof importMessages>[2]): ReturnType<typeof importMessages>;
  /** Bytes accounted for shown and held entries together (at most the budget). */
  bytes: number;
  pending: WebhookAction | null;
  actionError: UiError | null;
  load(): Promise<void>;
  add(input: WebhookRegistrationInput): Promise<boolean>;
  /** Changes a registration in place (routing, signing secret, Forward to); true when main took it. */
  edit(edit: WebhookEdit): Promise<boolean>;
  /** The webhook made last here (new-webhook.tsx), with the first message to send it; until dismissed. */
  first: FirstWebhook | null;
  /** "New webhook" (in the portal) or "Use the demo webhook": main makes and registers it; true when it did. */
  create(how: { portal: NewWebhookInput } | { demo: WebhookRouting }): Promise<boolean>;
  /** Makes a webhook the forwarder no longer knows again (a new intake URL), removing the old registration. */
  recreate(id: string): Promise<boolean>;
  dismissFirst(): void;
  /** Removes it; its messages stay listed until WEBHOOK_UNDO_MS has passed without `undoRemove`. */
  remove(id: string): Promise<void>;
  /** The registration removed last, while it can still be brought back. */
  removed: { id: string; label: string } | null;
  undoRemove(): Promise<void>;
  /** Opens the developer portal in the system browser. */
  openPortal(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Forgets every message, here and in main (memory and disk). */
  clear(): Promise<void>;
  /** The history's settings and figures as main last said (null until read). */
  history: HistoryView | null;
  loadHistory(): Promise<void>;
  setHistory(settings: HistorySettings): Promise<void>;
  select(key: string | null): void;
}

export type WebhooksStore = StoreApi<WebhooksState> & { dispose(): void };

type Queued = { kind: 'entry'; entry: WebhookEntry } | { kind: 'patch'; patch: WebhookEntryPatch };

export const entryKey = (entry: Pick<WebhookEntry, 'webhookId' | 'id'>) => `${entry.webhookId}/${entry.id}`;
/** The webhook id and message id of a key (a webhook id never holds a `/`). */
const keyParts = (key: string): Pick<WebhookEntry, 'webhookId' | 'id'> => {
  const slash = key.indexOf('/');
  return { webhookId: key.slice(0, slash), id: key.slice(slash + 1) };
};

const sizes = new WeakMap<WebhookEntry, number>();
/** What one summary is accounted in the renderer's budget: its JSON length plus a fixed overhead (computed once per entry). */
export function entryBytes(entry: WebhookEntry): number {
  let bytes = sizes.get(entry);
  if (bytes === undefined) {
    bytes = ENTRY_OVERHEAD_BYTES + JSON.stringify(entry).length;
    sizes.set(entry, bytes);
  }
  return bytes;
}

/**
 * Cuts held and shown entries (newest first, held ones being the newer) to the count bound of each
 * list and the byte budget of both together.
 */
function bounded(held: WebhookEntry[], entries: WebhookEntry[], capacity: number, budget: number) {
  let bytes = 0;
  const fit = (list: WebhookEntry[]) => {
    let count = 0;
    for (const entry of list) {
      const size = entryBytes(entry);
      if (count >= capacity || bytes + size > budget) break;
      bytes += size;
      count++;
    }
    return count === list.length ? list : list.slice(0, count);
  };
  const keptHeld = fit(held);
  const keptEntries = fit(entries);
  return { held: keptHeld, entries: keptEntries, bytes };
}

export function connectionOf(state: Pick<WebhooksState, 'connections'>, view: WebhookView): WebhookConnection {
  return state.connections[view.id] ?? view.connection;
}

export function createWebhooksStore(
  bridge: Pick<Bridge, 'webhooks' | 'inspector' | 'on'>,
  settings: { capacity?: number; budgetBytes?: number; scheduleFlush?: ScheduleFlush; schedule?: Schedule } = {},
): WebhooksStore {
  const options = { ...settings, schedule: settings.schedule ?? realSchedule };
  const capacity = options.capacity ?? RENDERER_INSPECTOR_CAPACITY;
  const budget = options.budgetBytes ?? RENDERER_INSPECTOR_BUDGET_BYTES;
  const scheduleFlush = options.scheduleFlush ?? atMostEvery(LIST_REDRAW_MS);
  let queued: Queued[] = [];
  let listRequest = 0;
  /** Bumped by clear: snapshot pages still on their way are then dropped. */
  let generation = 0;
  let detailsRequest = 0;
  /** Drops a removed registration's messages when its undo time is over. */
  let cancelForgetting: (() => void) | undefined;
  let historyRequest = 0;
  let cancelHistoryRefresh: (() => void) | undefined;
  /** The history's figures read again soon, once for a burst of changes; only once they are shown at all. */
  const refreshHistorySoon = () => {
    if (store.getState().history === null) return;
    cancelHistoryRefresh ??= options.schedule(() => {
      cancelHistoryRefresh = undefined;
      void store.getState().loadHistory();
    }, HISTORY_REFRESH_MS);
  };
  const withBounds = (held: WebhookEntry[], entries: WebhookEntry[]) => bounded(held, entries, capacity, budget);

  const store = createStore<WebhooksState>()((set, get) => {
    const run = async (action: WebhookAction, call: () => Promise<Envelope<unknown>>) => {
      set({ pending: action, actionError: null });
      const result = await settle(call);
      set({ pending: null, actionError: result.ok ? null : result.error });
      return result.ok;
    };

    const make = async (action: WebhookAction, call: () => Promise<Envelope<FirstWebhook>>) => {
      set({ pending: action, actionError: null });
      const result = await settle(call);
      set({ pending: null, actionError: result.ok ? null : result.error, ...(result.ok && { first: result.value }) });
      if (result.ok) await reloadList();
      return result.ok;
    };

    const reloadList = async () => {
      const request = ++listRequest;
      const result = await settle(() => bridge.webhooks.list());
      if (request !== listRequest) return;
      if (!result.ok) return set({ registrations: { status: 'error', error: result.error } });
      // The list is newer than any status event that came before it.
      const connections = { ...get().connections };
      for (const view of result.value) connections[view.id] = view.connection;
      set({ registrations: { status: 'loaded', views: result.value }, connections });
    };

    return {
      registrations: { status: 'loading' },
      removed: null,
      connections: {},
      entries: [],
      listed: false,
      paused: false,
      held: [],
      selectedKey: null,
      details: { status: 'idle' },
      replay: { status: 'idle' },
      filter: {},
      searching: false,
      filterError: null,
      bytes: 0,
      pending: null,
      actionError: null,
      history: null,
      first: null,

      create: (how) => make('create', () => ('portal' in how ? bridge.webhooks.create(how.portal) : bridge.webhooks.useDemo(how.demo))),
      recreate: (id) => make('recreate', () => bridge.webhooks.recreate(id)),
      dismissFirst: () => set({ first: null }),

      async load() {
        const started = generation;
        const loadSnapshot = async () => {
          let before: number | undefined;
          for (;;) {
            const page = await settle(() =>
              bridge.inspector.snapshot(before === undefined ? { limit: SNAPSHOT_PAGE_ENTRIES } : { before, limit: SNAPSHOT_PAGE_ENTRIES }),
            );
            if (generation !== started) return; // cleared meanwhile
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
        await Promise.all([reloadList(), loadSnapshot()]);
      },

      async add(input) {
        const ok = await run('add', () => bridge.webhooks.add(input));
        if (ok) await reloadList();
        return ok;
      },

      async edit(edit) {
        const ok = await run('edit', () => bridge.webhooks.edit(edit));
        if (!ok) return false;
        // A new signing secret changes the selected message's verdict: it is fetched again.
        const selected = get().selectedKey;
        if (selected !== null && keyParts(selected).webhookId === edit.id) fetchDetails(selected);
        await reloadList();
        return true;
      },

      async remove(id) {
        const registrations = get().registrations;
        const view = registrations.status === 'loaded' ? registrations.views.find((candidate) => candidate.id === id) : undefined;
        if (!(await run('remove', () => bridge.webhooks.remove(id)))) return;
        cancelForgetting?.();
        // Main forgets it WEBHOOK_UNDO_MS from now; its messages leave the list then, unless undone.
        cancelForgetting = options.schedule(() => {
          cancelForgetting = undefined;
          if (get().removed?.id === id) set({ removed: null });
          dropEntriesOf(id);
        }, WEBHOOK_UNDO_MS);
        set({ removed: { id, label: view ? webhookTitle(view) : id } });
        await reloadList();
      },

      async undoRemove() {
        const removed = get().removed;
        if (!removed) return;
        if (!(await run('undoRemove', () => bridge.webhooks.undoRemove(removed.id)))) return;
        cancelForgetting?.();
        cancelForgetting = undefined;
        set({ removed: null });
        await reloadList();
      },

      async openPortal() {
        await run('openPortal', () => bridge.webhooks.openPortal());
      },

      pause: () => set({ paused: true }),
      resume: () => {
        const shown = withBounds([], [...get().held, ...get().entries]);
        set({ paused: false, held: [], entries: shown.entries, bytes: shown.bytes });
      },

      async clear() {
        queued = [];
        generation++;
        detailsRequest++;
        set({ entries: [], held: [], selectedKey: null, details: { status: 'idle' }, bytes: 0 });
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

      async setFilter(filter) {
        const next = withoutEmpty(filter);
        cancelRequery?.();
        cancelRequery = undefined;
        queued = queued.filter((item) => item.kind === 'patch');
        set({ filter: next, filterError: null });
        if (isFiltering(next)) {
          await searchFiltered();
          return;
        }
        // Back to everything: main's pages again, then live.
        generation++;
        set({ entries: [], held: [], bytes: 0, searching: false });
        await get().load();
      },

      select(key) {
        if (key === get().selectedKey && get().details.status !== 'error') return;
        fetchDetails(key);
      },

      exportArchive(format, onlySelected) {
        const { entries, selectedKey, registrations } = get();
        const chosen = onlySelected ? entries.filter((entry) => entryKey(entry) === selectedKey) : entries;
        return exportMessages(bridge, chosen, registrationViews({ registrations }), format);
      },

      async importArchive(open, pacing) {
        const result = await importMessages(bridge, open, pacing);
        await get().loadHistory();
        return result;
      },

      async replaySelected(options) {
        const key = get().selectedKey;
        if (key === null) return;
        const { webhookId, id } = keyParts(key);
        set({ replay: { status: 'sending', key } });
        // Main gives the target REPLAY_TIMEOUT_MS to answer, and then answers itself.
        const result = await settle(() => bridge.inspector.replay({ webhookId, id, ...options }), { deadlineMs: REPLAY_TIMEOUT_MS + 5_000 });
        if (get().selectedKey !== key) return; // another selection since: its replay pane is empty
        set({ replay: result.ok ? { status: 'done', key, result: result.value } : { status: 'error', key, error: result.error } });
      },
    };
  });

  /**
   * Replaces the list by main's matches of the filter, page by page (within the list's bounds). `live`:
   * asked again because messages arrived; while paused, the matches not shown yet are held instead
   * ("paused, N new"), and the shown list stays as it is.
   */
  const searchFiltered = async (live = false): Promise<void> => {
    const { getState: get, setState: set } = store;
    const started = ++generation;
    const filter = get().filter;
    set({ searching: true });
    const found: WebhookEntry[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await settle(() => bridge.inspector.snapshot({ limit: SNAPSHOT_PAGE_ENTRIES, filter, ...(before !== undefined && { before }) }));
      if (generation !== started) return; // another filter, or cleared, since
      if (!page.ok) return set({ searching: false, filterError: page.error.message });
      found.push(...page.value.entries.map(clampPreview));
      if (page.value.nextCursor === null || found.length >= capacity) break;
      before = page.value.nextCursor;
    }
    const state = get();
    if (live && state.paused) {
      const shown = new Set(state.entries.map(entryKey));
      return set({
        ...withBounds(
          found.filter((entry) => !shown.has(entryKey(entry))),
          [...state.entries],
        ),
        searching: false,
        filterError: null,
      });
    }
    set({ ...withBounds([], found), searching: false, filterError: null });
  };
  /** While filtered, new messages are not judged here (the text and key path need their bodies): main is asked again, at most every REQUERY_MS. */
  let cancelRequery: (() => void) | undefined;
  const requery = () => {
    cancelRequery ??= options.schedule(() => {
      cancelRequery = undefined;
      void searchFiltered(true);
    }, REQUERY_MS);
  };

  /** Takes a forgotten registration's messages out of the list (and the selection, when it was one of them). */
  const dropEntriesOf = (id: string) => {
    const { getState: get, setState: set } = store;
    const keep = (entry: WebhookEntry) => entry.webhookId !== id;
    const selected = get().selectedKey;
    const entries = get().entries.filter(keep);
    const held = get().held.filter(keep);
    const lostSelection = selected !== null && selected.startsWith(`${id}/`);
    set({
      entries,
      held,
      bytes: withBounds([...held], [...entries]).bytes,
      ...(lostSelection && { selectedKey: null, details: { status: 'idle' }, replay: { status: 'idle' } }),
    });
    refreshHistorySoon();
  };

  /** Selects `key` and fetches its full message (again, when it is already selected). */
  const fetchDetails = (key: string | null) => {
    const { setState: set, getState: get } = store;
    const request = ++detailsRequest;
    if (key === null) return set({ selectedKey: null, details: { status: 'idle' }, replay: { status: 'idle' } });
    set({ selectedKey: key, details: { status: 'loading', key }, ...(key !== get().selectedKey && { replay: { status: 'idle' } }) });
    const entry = [...get().entries, ...get().held].find((candidate) => entryKey(candidate) === key);
    const { webhookId, id } = entry ?? keyParts(key);
    void settle(() => bridge.inspector.message(webhookId, id)).then((result) => {
      if (request !== detailsRequest) return; // another selection since
      if (!result.ok) return set({ details: { status: 'error', key, error: result.error } });
      const answer = result.value;
      if (answer.status === 'kept') return set({ details: { status: 'kept', key, message: answer.message, signature: answer.signature } });
      set({ details: { status: 'gone', key, reason: answer.reason } });
    });
  };

  const flush = () => {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const state = store.getState();
    const entries = [...state.entries];
    const held = [...state.held];
    const fresh: WebhookEntry[] = [];
    // Where each message of the batch is held now, by key: the list and the index in it. One pass over
    // both lists, by id first, so a frame makes no key for the thousands of entries it does not touch.
    const ids = new Set(batch.map((item) => (item.kind === 'patch' ? item.patch.id : item.entry.id)));
    const where = new Map<string, [WebhookEntry[], number]>();
    for (const list of [entries, held]) {
      list.forEach((entry, index) => {
        if (!ids.has(entry.id)) return;
        const key = entryKey(entry);
        if (!where.has(key)) where.set(key, [list, index]);
      });
    }
    const locate = (key: string) => where.get(key);
    let refetch = false;
    for (const item of batch) {
      if (item.kind === 'patch') {
        const { webhookId: _webhookId, id: _id, ...changes } = item.patch;
        const key = entryKey(item.patch);
        const at = locate(key);
        if (!at) continue; // no longer held (bounds, clear) or never loaded: nothing to patch
        at[0][at[1]] = clampPreview({ ...at[0][at[1]]!, ...changes });
        // The selected entry's delivery arrived: its full message can now be fetched.
        refetch ||= key === state.selectedKey && changes.awaitingDelivery === false;
        continue;
      }
      const key = entryKey(item.entry);
      const at = locate(key);
      if (at) at[0][at[1]] = item.entry;
      else where.set(key, [fresh, fresh.push(item.entry) - 1]);
    }
    if (state.paused) store.setState(withBounds(inIntakeOrder(fresh, held), entries));
    else store.setState(withBounds(held, inIntakeOrder(fresh, entries)));
    if (refetch) fetchDetails(state.selectedKey);
  };

  const enqueue = (item: Queued) => {
    if (queued.length === 0) scheduleFlush(flush);
    queued.push(item);
  };
  const stopEntries = bridge.on('webhooks.entry', (entry) => {
    refreshHistorySoon();
    if (isFiltering(store.getState().filter)) requery();
    else enqueue({ kind: 'entry', entry: clampPreview(entry) });
  });
  const stopPatches = bridge.on('webhooks.entryPatch', (patch) => {
    refreshHistorySoon();
    enqueue({ kind: 'patch', patch });
  });
  const stopStatus = bridge.on('webhooks.status', (status) => {
    store.setState({ connections: { ...store.getState().connections, [status.webhookId]: status.connection } });
  });
  const stopView = bridge.on('webhooks.view', (changed) => {
    const { registrations, connections } = store.getState();
    if (registrations.status !== 'loaded' || !registrations.views.some((view) => view.id === changed.id)) return;
    const views = registrations.views.map((view) => (view.id === changed.id ? changed : view));
    store.setState({ registrations: { status: 'loaded', views }, connections: { ...connections, [changed.id]: changed.connection } });
  });
  void store.getState().load();

  return {
    ...store,
    dispose() {
      stopEntries();
      stopPatches();
      cancelHistoryRefresh?.();
      cancelRequery?.();
      stopStatus();
      stopView();
    },
  };
}

/**
 * `fresh` (in arrival order) placed among `list` (newest first) by the forwarder's sequence
 * (`intakeOrder`): an intake whose message came after a later one's (a delivery and a tap event on two
 * sockets) goes below it. New messages almost always go in front (one comparison); any other is
 * placed by a binary search of the list, which is kept in this order.
 */
export function inIntakeOrder(fresh: readonly WebhookEntry[], list: readonly WebhookEntry[]): WebhookEntry[] {
  let out = list as WebhookEntry[];
  /** What goes in front of `out`, newest last: gathered, so a burst is one copy of the list. */
  let front: WebhookEntry[] = [];
  const settle = () => {
    out = [...front.reverse(), ...out];
    front = [];
  };
  for (const entry of fresh) {
    const newest = front.at(-1) ?? out[0];
    if (newest === undefined || intakeOrder(newest, entry) <= 0) {
      front.push(entry);
      continue;
    }
    settle();
    let low = 1;
    let high = out.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (intakeOrder(out[middle]!, entry) > 0) low = middle + 1;
      else high = middle;
    }
    out.splice(low, 0, entry);
  }
  settle();
  return out;
}

/** Keeps a summary's preview within RENDERER_PREVIEW_MAX_CHARS, whatever the host sent. */
function clampPreview(entry: WebhookEntry): WebhookEntry {
  if (entry.preview.length <= RENDERER_PREVIEW_MAX_CHARS) return entry;
  return { ...entry, preview: entry.preview.slice(0, RENDERER_PREVIEW_MAX_CHARS), truncated: true };
}

/** A filter without its empty parts (an empty list or text filters nothing). */
function withoutEmpty(filter: MessageFilter): MessageFilter {
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)),
  ) as MessageFilter;
}

export const isFiltering = (filter: MessageFilter) => Object.keys(filter).length > 0;

const NO_VIEWS: readonly WebhookView[] = Object.freeze([]);
/**
 * The registrations as loaded, or one shared empty list: a selector must return the same value for
 * the same state (a new `[]` each time makes React render again and again, error #185).
 */
export const registrationViews = (state: Pick<WebhooksState, 'registrations'>): readonly WebhookView[] =>
  state.registrations.status === 'loaded' ? state.registrations.views : NO_VIEWS;
