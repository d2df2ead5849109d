/**
 * The webhook registrations part of the webhooks store (webhooks-store.ts): the list and each one's
 * connection, adding, editing, making (the first webhook) and removing them with an undo. A removed
 * registration's messages leave the list only when its undo time is over (`forgetMessagesOf`).
 */
import { WEBHOOK_UNDO_MS, type FirstWebhook, type WebhookConnection, type WebhookView } from '../../../common/ipc-contract';
import type { Envelope } from '../../../common/app-error';
import { webhookTitle } from '../format/webhook-labels';
import { settle } from './settle';
import type { WebhookAction, WebhooksContext, WebhooksState } from './webhooks-state';

type RegistrationsPart = Pick<
  WebhooksState,
  'registrations' | 'connections' | 'removed' | 'first' | 'add' | 'edit' | 'create' | 'recreate' | 'dismissFirst' | 'remove' | 'undoRemove' | 'openPortal'
>;

export interface RegistrationsSlice {
  state: RegistrationsPart;
  /** Reads the registrations again (a newer answer wins; it is newer than any status event before it). */
  reload(): Promise<void>;
  /** Applies main's `webhooks.status` and `webhooks.view` events. */
  statusChanged(webhookId: string, connection: WebhookConnection): void;
  viewChanged(changed: WebhookView): void;
  dispose(): void;
}

export function registrationsSlice(
  { bridge, get, set, schedule, run }: WebhooksContext,
  /** `edited`: a registration changed (its signing secret may have); `forgetMessagesOf`: its undo time is over. */
  hooks: { edited(id: string): void; forgetMessagesOf(id: string): void },
): RegistrationsSlice {
  let listRequest = 0;
  /** Drops a removed registration's messages when its undo time is over. */
  let cancelForgetting: (() => void) | undefined;

  const reload = async () => {
    const request = ++listRequest;
    const result = await settle(() => bridge.webhooks.list());
    if (request !== listRequest) return;
    if (!result.ok) return set({ registrations: { status: 'error', error: result.error } });
    const connections = { ...get().connections };
    for (const view of result.value) connections[view.id] = view.connection;
    set({ registrations: { status: 'loaded', views: result.value }, connections });
  };

  /** Makes the first webhook, then keeps what main made of it (`first`: its URL and example). */
  const make = async (action: WebhookAction, call: () => Promise<Envelope<FirstWebhook>>) => {
    const ok = await run(action, async () => {
      const result = await call();
      if (result.ok) set({ first: result.value });
      return result;
    });
    if (ok) await reload();
    return ok;
  };

  const state: RegistrationsPart = {
    registrations: { status: 'loading' },
    connections: {},
    removed: null,
    first: null,

    create: (how) => make('create', () => ('portal' in how ? bridge.webhooks.create(how.portal) : bridge.webhooks.useDemo(how.demo))),
    recreate: (id) => make('recreate', () => bridge.webhooks.recreate(id)),
    dismissFirst: () => set({ first: null }),

    async add(input) {
      const ok = await run('add', () => bridge.webhooks.add(input));
      if (ok) await reload();
      return ok;
    },

    async edit(edit) {
      if (!(await run('edit', () => bridge.webhooks.edit(edit)))) return false;
      hooks.edited(edit.id);
      await reload();
      return true;
    },

    async remove(id) {
      const view = registrationViews(get()).find((candidate) => candidate.id === id);
      if (!(await run('remove', () => bridge.webhooks.remove(id)))) return;
      cancelForgetting?.();
      // Main forgets it WEBHOOK_UNDO_MS from now; its messages leave the list then, unless undone.
      cancelForgetting = schedule(() => {
        cancelForgetting = undefined;
        if (get().removed?.id === id) set({ removed: null });
        hooks.forgetMessagesOf(id);
      }, WEBHOOK_UNDO_MS);
      set({ removed: { id, label: view ? webhookTitle(view) : id } });
      await reload();
    },

    async undoRemove() {
      const removed = get().removed;
      if (!removed) return;
      if (!(await run('undoRemove', () => bridge.webhooks.undoRemove(removed.id)))) return;
      cancelForgetting?.();
      cancelForgetting = undefined;
      set({ removed: null });
      await reload();
    },

    async openPortal() {
      await run('openPortal', () => bridge.webhooks.openPortal());
    },
  };

  return {
    state,
    reload,
    statusChanged(webhookId, connection) {
      set({ connections: { ...get().connections, [webhookId]: connection } });
    },
    viewChanged(changed) {
      const { registrations, connections } = get();
      if (registrations.status !== 'loaded' || !registrations.views.some((view) => view.id === changed.id)) return;
      const views = registrations.views.map((view) => (view.id === changed.id ? changed : view));
      set({ registrations: { status: 'loaded', views }, connections: { ...connections, [changed.id]: changed.connection } });
    },
    dispose() {
      cancelForgetting?.();
    },
  };
}

export function connectionOf(state: Pick<WebhooksState, 'connections'>, view: WebhookView): WebhookConnection {
  return state.connections[view.id] ?? view.connection;
}

const NO_VIEWS: readonly WebhookView[] = Object.freeze([]);
/**
 * The registrations as loaded, or one shared empty list: a selector must return the same value for
 * the same state (a new `[]` each time makes React render again and again, error #185).
 */
export const registrationViews = (state: Pick<WebhooksState, 'registrations'>): readonly WebhookView[] =>
  state.registrations.status === 'loaded' ? state.registrations.views : NO_VIEWS;
