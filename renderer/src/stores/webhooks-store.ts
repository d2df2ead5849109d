/**
 * Webhook registrations, their connection status, and the inspector's entries. Independent of the
 * sign-in: the forwarder authenticates webhooks by id and secret, so this works signed out too.
 *
 * Entries are kept newest first in a ring of RENDERER_INSPECTOR_CAPACITY (10,000): older ones are
 * dropped. Events are applied in batches (one store update per frame), so a burst of webhooks costs
 * one render, not one per message. While paused, new entries are held (in the same bound) and
 * counted; resuming shows them. An update of an entry already shown (delivered) is applied even while
 * paused: it is not a new message.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Envelope } from '../../../common/app-error';
import type { Bridge, WebhookConnection, WebhookEntry, WebhookRegistrationInput, WebhookStatus, WebhookView } from '../../../common/ipc-contract';
import { nextFrame, type ScheduleFlush } from './frame-scheduler';
import { settle, type UiError } from './settle';

export const RENDERER_INSPECTOR_CAPACITY = 10_000;

export type RegistrationsState = { status: 'loading' } | { status: 'loaded'; views: WebhookView[] } | { status: 'error'; error: UiError };

export type WebhookAction = 'add' | 'remove' | 'clear';

export interface WebhooksState {
  registrations: RegistrationsState;
  /** Latest connection per webhook id (events may arrive before the list). */
  connections: Readonly<Record<string, WebhookConnection>>;
  /** Shown entries, newest first. */
  entries: readonly WebhookEntry[];
  paused: boolean;
  /** Entries that arrived while paused, newest first; shown on resume. */
  held: readonly WebhookEntry[];
  selectedKey: string | null;
  pending: WebhookAction | null;
  actionError: UiError | null;
  load(): Promise<void>;
  add(input: WebhookRegistrationInput): Promise<boolean>;
  remove(id: string): Promise<void>;
  pause(): void;
  resume(): void;
  clear(): Promise<void>;
  select(key: string | null): void;
}

export type WebhooksStore = StoreApi<WebhooksState> & { dispose(): void };


export const entryKey = (entry: Pick<WebhookEntry, 'webhookId' | 'id'>) => `${entry.webhookId}/${entry.id}`;

export function connectionOf(state: Pick<WebhooksState, 'connections'>, view: WebhookView): WebhookConnection {
  return state.connections[view.id] ?? view.connection;
}

export function createWebhooksStore(
  bridge: Pick<Bridge, 'webhooks' | 'inspector' | 'on'>,
  options: { capacity?: number; scheduleFlush?: ScheduleFlush } = {},
): WebhooksStore {
  const capacity = options.capacity ?? RENDERER_INSPECTOR_CAPACITY;
  const scheduleFlush = options.scheduleFlush ?? nextFrame;
  let queued: WebhookEntry[] = [];
  let listRequest = 0;

  const store = createStore<WebhooksState>()((set, get) => {
    const run = async (action: WebhookAction, call: () => Promise<Envelope<unknown>>) => {
      set({ pending: action, actionError: null });
      const result = await settle(call);
      set({ pending: null, actionError: result.ok ? null : result.error });
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
      connections: {},
      entries: [],
      paused: false,
      held: [],
      selectedKey: null,
      pending: null,
      actionError: null,

      async load() {
        const [, snapshot] = await Promise.all([reloadList(), settle(() => bridge.inspector.snapshot())]);
        if (!snapshot.ok) return set({ actionError: snapshot.error });
        // Events that arrived while the snapshot was on its way are newer: they win.
        const known = new Set(get().entries.map(entryKey));
        const older = snapshot.value.filter((entry) => !known.has(entryKey(entry)));
        set({ entries: [...get().entries, ...older].slice(0, capacity) });
      },

      async add(input) {
        const ok = await run('add', () => bridge.webhooks.add(input));
        if (ok) await reloadList();
        return ok;
      },

      async remove(id) {
        if (await run('remove', () => bridge.webhooks.remove(id))) {
          const keep = (entry: WebhookEntry) => entry.webhookId !== id;
          const selected = get().selectedKey;
          set({
            entries: get().entries.filter(keep),
            held: get().held.filter(keep),
            selectedKey: selected !== null && selected.startsWith(`${id}/`) ? null : selected,
          });
          await reloadList();
        }
      },

      pause: () => set({ paused: true }),
      resume: () => set({ paused: false, held: [], entries: [...get().held, ...get().entries].slice(0, capacity) }),

      async clear() {
        queued = [];
        set({ entries: [], held: [], selectedKey: null });
        await run('clear', () => bridge.inspector.clear());
      },

      select: (key) => set({ selectedKey: key }),
    };
  });

  const flush = () => {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const state = store.getState();
    const entries = [...state.entries];
    const held = [...state.held];
    const shown = new Map(entries.map((entry, index) => [entryKey(entry), index]));
    const waiting = new Map(held.map((entry, index) => [entryKey(entry), index]));
    const fresh: WebhookEntry[] = [];
    const freshIndex = new Map<string, number>();
    for (const entry of batch) {
      const key = entryKey(entry);
      const at = shown.get(key) ?? -1;
      if (at >= 0) entries[at] = entry;
      else if (waiting.has(key)) held[waiting.get(key)!] = entry;
      else if (freshIndex.has(key)) fresh[freshIndex.get(key)!] = entry;
      else freshIndex.set(key, fresh.push(entry) - 1);
    }
    fresh.reverse(); // newest first
    if (state.paused) store.setState({ entries, held: [...fresh, ...held].slice(0, capacity) });
    else store.setState({ entries: [...fresh, ...entries].slice(0, capacity), held });
  };

  const stopEntries = bridge.on('webhooks.entry', (entry) => {
    if (!isEntry(entry)) return;
    if (queued.length === 0) scheduleFlush(flush);
    queued.push(entry);
  });
  const stopStatus = bridge.on('webhooks.status', (status) => {
    if (!isStatus(status)) return;
    store.setState({ connections: { ...store.getState().connections, [status.webhookId]: status.connection } });
  });
  void store.getState().load();

  return {
    ...store,
    dispose() {
      stopEntries();
      stopStatus();
    },
  };
}

/** Main validates what it sends; these only keep a malformed event from breaking the view. */
function isEntry(value: unknown): value is WebhookEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<WebhookEntry>;
  return typeof entry.webhookId === 'string' && typeof entry.id === 'string' && typeof entry.receivedAt === 'string' && typeof entry.delivered === 'boolean';
}

function isStatus(value: unknown): value is WebhookStatus {
  if (typeof value !== 'object' || value === null) return false;
  const status = value as Partial<WebhookStatus>;
  return typeof status.webhookId === 'string' && typeof status.connection === 'object' && status.connection !== null && typeof status.connection.state === 'string';
}
