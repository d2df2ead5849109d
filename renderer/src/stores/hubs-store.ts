/**
 * The user's hubs. Active only while signed in (see `connectStores`); leaving the signed-in state
 * clears the list, so nothing of one account is shown after the next sign-in. Answers are matched to
 * the request that is still current: a slow answer that was overtaken by a newer request, or that
 * arrives after a sign-out, is dropped. Which hub is open, and what it holds, is the open-hub store's.
 * The names of the last list loaded outlive a sign-out: what is still shown signed out (a webhook routed
 * to a hub, a routing decision) names the hub, never its raw id.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, HubView } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';

export type HubListState = { status: 'idle' } | { status: 'loading' } | { status: 'loaded'; hubs: HubView[] } | { status: 'error'; error: UiError };

export interface HubsState {
  active: boolean;
  list: HubListState;
  /** Hub id → name, from the last list loaded; kept across sign-out, replaced by the next list (so bounded by it). */
  names: ReadonlyMap<string, string>;
  /** Follows the session: true while signed in. Becoming active loads the hubs; leaving clears. */
  setActive(active: boolean): void;
  /** Loads the hub list again; a list already shown stays until the new one arrives. */
  reload(): Promise<void>;
}

export type HubsStore = StoreApi<HubsState>;

/** Whether the hub is in the loaded list of an active store. */
export function isListed(state: Pick<HubsState, 'active' | 'list'>, hubId: string): boolean {
  return state.active && state.list.status === 'loaded' && state.list.hubs.some((hub) => hub.id === hubId);
}

export function createHubsStore(bridge: Pick<Bridge, 'hubs'>): HubsStore {
  // Bumped on every clear: answers to requests made before it belong to a finished session.
  let generation = 0;
  let listRequest = 0;

  return createStore<HubsState>()((set, get) => ({
    active: false,
    list: { status: 'idle' },
    names: new Map(),

    setActive(active) {
      if (active === get().active) return;
      generation++;
      set({ active, list: { status: 'idle' } });
      if (active) void get().reload();
    },

    async reload() {
      if (!get().active) return;
      const request = ++listRequest;
      const startedIn = generation;
      // A list already shown stays while it refreshes, so focus in it is not lost.
      if (get().list.status !== 'loaded') set({ list: { status: 'loading' } });
      const result = await settle(() => bridge.hubs.list());
      if (startedIn !== generation || request !== listRequest) return;
      if (!result.ok) return set({ list: { status: 'error', error: result.error } });
      set({ list: { status: 'loaded', hubs: result.value }, names: new Map(result.value.map((hub) => [hub.id, hub.name])) });
    },
  }));
}
