/**
 * The user's hubs and the devices of the selected one. Active only while signed in (see
 * `connectStores`); leaving the signed-in state clears everything, so nothing of one account is
 * shown after the next sign-in. Answers are matched to the request that is still current: a slow
 * answer that was overtaken by a newer request, or that arrives after a sign-out, is dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, DeviceList, HubView, RouteKind } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';

export type HubListState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'loaded'; hubs: HubView[] }
  | { status: 'error'; error: UiError };

export type DevicesState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'loaded'; list: DeviceList }
  | { status: 'error'; error: UiError };

export interface HubsState {
  active: boolean;
  list: HubListState;
  selectedHubId: string | null;
  /** Per hub id; a hub without an entry is idle. */
  devices: Readonly<Record<string, DevicesState>>;
  /** Follows the session: true while signed in. Becoming active loads the hubs; leaving clears. */
  setActive(active: boolean): void;
  /** Shows the devices of a hub, loading them (or, when kept from an earlier visit, refetching them behind the list shown). */
  select(hubId: string): void;
  /** Reloads the hub list and the devices of the selected hub. */
  reload(): Promise<void>;
  /** Pins a hub's route (null: automatic), then reloads so the list and devices show the new route. */
  pinRoute(hubId: string, kind: RouteKind | null): Promise<void>;
  /** Allows or refuses unencrypted LAN routes for every hub, then reloads the selected hub (its route may change). */
  allowUnencryptedRoutes(allow: boolean): Promise<void>;
  /** Takes a list the core fetched again on its own (after the live channel reconnected). */
  refreshed(list: DeviceList): void;
}

export type HubsStore = StoreApi<HubsState>;

const IDLE: DevicesState = { status: 'idle' };

export function devicesOf(state: Pick<HubsState, 'devices'>, hubId: string): DevicesState {
  return state.devices[hubId] ?? IDLE;
}

export function createHubsStore(bridge: Pick<Bridge, 'hubs'>): HubsStore {
  // Bumped on every clear: answers to requests made before it belong to a finished session.
  let generation = 0;
  let listRequest = 0;
  let nextDeviceRequest = 0;
  const deviceRequests = new Map<string, number>();

  return createStore<HubsState>()((set, get) => {
    const setDevices = (hubId: string, state: DevicesState) => set({ devices: { ...get().devices, [hubId]: state } });

    /** `quietly`: the list shown stays until the new one arrives (and stays if that fails). */
    const loadDevices = async (hubId: string, quietly = false) => {
      const request = ++nextDeviceRequest;
      const startedIn = generation;
      deviceRequests.set(hubId, request);
      if (!quietly) setDevices(hubId, { status: 'loading' });
      const result = await settle(() => bridge.hubs.devices(hubId));
      if (startedIn !== generation || deviceRequests.get(hubId) !== request) return;
      deviceRequests.delete(hubId);
      if (!result.ok) return quietly ? undefined : setDevices(hubId, { status: 'error', error: result.error });
      if (result.value.hubId !== hubId) {
        return setDevices(hubId, { status: 'error', error: { code: 'internal', message: 'Hubdesk received the devices of another hub.' } });
      }
      setDevices(hubId, { status: 'loaded', list: result.value });
    };

    const clear = () => {
      generation++;
      deviceRequests.clear();
      set({ list: { status: 'idle' }, selectedHubId: null, devices: {} });
    };

    return {
      active: false,
      list: { status: 'idle' },
      selectedHubId: null,
      devices: {},

      setActive(active) {
        if (active === get().active) return;
        clear();
        set({ active });
        if (active) void get().reload();
      },

      select(hubId) {
        const { list, active, selectedHubId } = get();
        if (!active || list.status !== 'loaded' || !list.hubs.some((hub) => hub.id === hubId)) return;
        if (hubId !== selectedHubId) set({ selectedHubId: hubId });
        const current = devicesOf(get(), hubId).status;
        if (current === 'idle' || current === 'error') void loadDevices(hubId);
        // A list kept from an earlier visit missed the changes made since (the hub was not watched).
        else if (current === 'loaded' && hubId !== selectedHubId) void loadDevices(hubId, true);
      },

      async reload() {
        if (!get().active) return;
        const request = ++listRequest;
        const startedIn = generation;
        // A list already shown stays while it refreshes, so focus in it is not lost.
        if (get().list.status !== 'loaded') set({ list: { status: 'loading' } });
        const result = await settle(() => bridge.hubs.list());
        if (startedIn !== generation || request !== listRequest) return;
        if (!result.ok) return set({ list: { status: 'error', error: result.error }, selectedHubId: null });

        const hubs = result.value;
        const ids = new Set(hubs.map((hub) => hub.id));
        const kept = Object.fromEntries(Object.entries(get().devices).filter(([id]) => ids.has(id)));
        for (const id of deviceRequests.keys()) if (!ids.has(id)) deviceRequests.delete(id);
        const previous = get().selectedHubId;
        const selectedHubId = previous !== null && ids.has(previous) ? previous : (hubs[0]?.id ?? null);
        set({ list: { status: 'loaded', hubs }, devices: kept, selectedHubId });
        if (selectedHubId !== null) await loadDevices(selectedHubId);
      },

      async pinRoute(hubId, kind) {
        if (!get().active) return;
        const startedIn = generation;
        const result = await settle(() => bridge.hubs.pinRoute(hubId, kind));
        if (startedIn !== generation) return;
        if (!result.ok) return setDevices(hubId, { status: 'error', error: result.error });
        await get().reload();
      },

      async allowUnencryptedRoutes(allow) {
        if (!get().active) return;
        const startedIn = generation;
        const result = await settle(() => bridge.hubs.allowUnencryptedRoutes(allow));
        if (startedIn !== generation) return;
        const hubId = get().selectedHubId;
        if (!result.ok) return void (hubId !== null && setDevices(hubId, { status: 'error', error: result.error }));
        await get().reload();
      },

      refreshed(list) {
        const { active, list: hubList } = get();
        if (!active || !isDeviceList(list) || hubList.status !== 'loaded' || !hubList.hubs.some((hub) => hub.id === list.hubId)) return;
        // Newer than any load still on its way: that answer is dropped.
        deviceRequests.delete(list.hubId);
        setDevices(list.hubId, { status: 'loaded', list });
      },
    };
  });
}

/** Main validates what it sends; this only keeps a malformed event from breaking the view. */
function isDeviceList(value: unknown): value is DeviceList {
  if (typeof value !== 'object' || value === null) return false;
  const list = value as Partial<DeviceList>;
  return typeof list.hubId === 'string' && Array.isArray(list.devices) && Array.isArray(list.favourites) && typeof list.permissions === 'object' && list.permissions !== null;
}
