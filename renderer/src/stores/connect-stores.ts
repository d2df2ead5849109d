/**
 * The hubs store follows the session store rather than the bridge event directly: the session store
 * is the one place that knows the current auth state, including the first `session.get` answer. The
 * live devices and flows follow the hubs store: the selected hub is the watched one.
 */
import type { Bridge, DeviceList } from '../../../common/ipc-contract';
import type { FlowsStore } from './flows-store';
import { devicesOf, type HubsState, type HubsStore } from './hubs-store';
import type { LiveDevicesStore } from './live-devices-store';
import type { SessionState, SessionStore } from './session-store';

const isSignedIn = (state: SessionState) => state.session?.auth.status === 'signed-in';

/** Keeps `hubs` active exactly while `session` is signed in; returns the function that disconnects. */
export function connectStores(session: Pick<SessionStore, 'getState' | 'subscribe'>, hubs: HubsStore): () => void {
  hubs.getState().setActive(isSignedIn(session.getState()));
  return session.subscribe((state) => hubs.getState().setActive(isSignedIn(state)));
}

/**
 * Watches the selected hub (`hubs.watch`; null when none is selected or on sign-out), hands its
 * loaded and refetched lists to the live store, and shows its flows when the session may read them.
 */
export function connectLiveView(bridge: Pick<Bridge, 'on'>, hubs: HubsStore, live: LiveDevicesStore, flows: FlowsStore): () => void {
  let watched: string | null = null;
  let loadedList: DeviceList | undefined;

  const follow = (state: HubsState) => {
    const hubId = state.active ? state.selectedHubId : null;
    if (hubId !== watched) {
      watched = hubId;
      loadedList = undefined;
      live.getState().watch(hubId);
      // The flows of the new hub are shown once its list says whether the session may read them.
      flows.getState().show(null);
    }
    const devices = hubId === null ? undefined : devicesOf(state, hubId);
    if (devices?.status !== 'loaded' || devices.list === loadedList) return;
    loadedList = devices.list;
    live.getState().load(devices.list);
    flows.getState().show(devices.list.permissions.flows === 'none' ? null : hubId);
  };

  const stopRefreshed = bridge.on('hubs.devicesRefreshed', (list) => hubs.getState().refreshed(list));
  follow(hubs.getState());
  const stopFollowing = hubs.subscribe(follow);
  return () => {
    stopFollowing();
    stopRefreshed();
    live.getState().watch(null);
    flows.getState().show(null);
  };
}
