/**
 * The open hub: the one hub the user is looking at, as the core reports it (docs/architecture.md, "Control and the open hub"). Which hub is
 * open lives here and nowhere else. Opening one (`hubs.open`, which closes any other) is answered by
 * one `hubs.snapshot`: its devices with permissions, favourites and route, and its flows. Then come its
 * changes (`hubs.deviceEvents`, already batched by the core: each batch is one store update), the state
 * of its live channel (`hubs.live`), and a fresh snapshot after the channel reconnected or whenever the
 * hub is opened again (reload, "Try again", a pinned route).
 *
 * Shaped for many small subscribers: each device is its own object, replaced only when it changes, so
 * one card re-renders alone; the grid reads `summaries`, which changes only when a device is added,
 * removed, renamed or moved. Devices change by the one rule the core's model uses too
 * (common/device-events.ts). A user's change is shown at once (`pending`, on top of the hub's value)
 * and settled by the hub's answer: kept on success, dropped on refusal with the reason on the card.
 * Changes carry a transaction id; the echo of one of ours is not applied a second time, but it is the
 * hub's confirmation: a change whose answer missed the deadline but whose echo came is confirmed. A
 * card never shows an error that contradicts its value: a failed change's error goes as soon as the hub
 * reports the value that was asked for (docs/device-controls.md, "A change confirmed late").
 *
 * Answers and events of a hub no longer open are dropped. A snapshot replaces the devices but keeps
 * shown values newer than its own and the user's pending ones; events that arrive before the hub's
 * first snapshot wait for it. A hub opened again shows what it showed when it was left (its last
 * known devices) until its new snapshot arrives.
 *
 * It follows the hubs store: when the hub list loads, the previously open hub (if still listed) or the
 * first one is opened; when the list fails or the user signs out, the open hub is closed and, on
 * sign-out, everything is forgotten.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  CapabilityEventData,
  CapabilityValue,
  DeviceEvent,
  DeviceList,
  FlowsView,
  HubPermissions,
  HubSnapshot,
  LiveState,
  RouteKind,
} from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import type { DeviceSummary } from '../format/filter-devices';
import { applyCapabilityValue, applyEvents, mergeSnapshot } from '../../../common/device-events';
import { summariesOf } from './device-updates';
import { type CardError, errorsAgreeingWith } from './card-errors';
import { type HubListState, type HubsState, type HubsStore, isListed } from './hubs-store';
import { capabilityFailure, favouriteFailure } from './action-failure';
import { ACTION_DEADLINE_MS, CHANGE_NOT_CONFIRMED, isTimeout, settle, type UiError } from './settle';

/** Whether the open hub's devices can be shown: `loading` until its snapshot arrives, `idle` when no hub is open. */
export type SnapshotState = { status: 'idle' } | { status: 'loading' } | { status: 'loaded' } | { status: 'error'; error: UiError };

/** How the core reaches the open hub, and why the other routes were not taken. */
export type RouteInfo = Pick<DeviceList, 'route' | 'rttMs' | 'routeOutcomes' | 'fetchedAt'>;

/** The open hub's flows as its snapshot had them; `loading` while they are read again after a failure. */
export type FlowsState = FlowsView | { status: 'loading' };

/** The outcome of the last trigger of one flow. */
export type TriggerState = { status: 'starting' } | { status: 'started'; at: string } | { status: 'failed'; message: string };

/** A value the user chose that the hub has not confirmed yet. */
export interface PendingValue {
  value: CapabilityValue;
  transactionId: string;
}

export interface OpenHubState {
  /** The open hub, or null when none is. */
  hubId: string | null;
  snapshot: SnapshotState;
  devices: Readonly<Record<string, Device>>;
  summaries: readonly DeviceSummary[];
  permissions: HubPermissions;
  favourites: Readonly<Record<string, boolean>>;
  /** Null until the open hub's devices are known. */
  route: RouteInfo | null;
  flows: FlowsState;
  /** Flow id → what happened when the user last triggered it. */
  triggers: Readonly<Record<string, TriggerState>>;
  /** Null while no hub is open. */
  live: LiveState | null;
  /**
   * The view is out of touch with the hub (`outageAfter`): the banner says why, controls that need the
   * hub are disabled and each value says when it was last confirmed (docs/hub-realtime.md, "While the
   * open hub is not live").
   */
  outage: boolean;
  /** While not live: when the shown values were last known to be the hub's (epoch ms; when the view stopped being live, or a later snapshot's read); null while live or unknown. */
  confirmedAt: number | null;
  /** Device id → capability id → the user's value not yet confirmed. */
  pending: Readonly<Record<string, Readonly<Record<string, PendingValue>>>>;
  errors: Readonly<Record<string, CardError>>;

  /** Opens a listed hub (closing the open one), or closes it (null). Opening the open hub again does nothing: see `reload`. */
  open(hubId: string | null): void;
  /** Reads the open hub afresh (and the hub list), showing it as loading until its new snapshot arrives. */
  reload(): void;
  /** While the open hub's live channel waits for its next attempt: tries now ("Try now"). */
  retryNow(): void;
  /** Reads the open hub afresh after its flows could not be read; the devices stay shown meanwhile. */
  retryFlows(): void;
  /** Pins the open hub's route (null: automatic); the core reopens the hub on it. */
  pinRoute(kind: RouteKind | null): Promise<void>;
  /** Allows or refuses unencrypted LAN routes for every hub; the core reopens the open hub under the new rule. */
  allowUnencryptedRoutes(allow: boolean): Promise<void>;
  setCapability(deviceId: string, capabilityId: string, value: CapabilityValue): Promise<void>;
  setFavourite(deviceId: string, favourite: boolean): Promise<void>;
  dismissError(deviceId: string): void;
  triggerFlow(flowId: string): Promise<void>;
}

export type OpenHubStore = StoreApi<OpenHubState> & { dispose(): void };

export interface OpenHubOptions {
  newTransactionId?: () => string;
  /** How long a call to main may take before it fails and its optimistic value rolls back (ACTION_DEADLINE_MS). */
  actionDeadlineMs?: number;
  /** The hub to open first when nothing is open and it is listed (the one remembered from the last run; docs/device-controls.md, "App shell"). */
  preferredHubId?: () => string | null;
  /** Epoch ms; `confirmedAt` is taken from it. */
  now?: () => number;
}

/**
 * Whether the view is out of touch with the hub in this live state, given whether it was before: not
 * while live, nor while merely connecting for the first time (a connecting that follows an outage
 * continues it), nor once the hub is closed or the user signed out (nothing is shown then).
 */
export function outageAfter(state: LiveState, wasOutage: boolean): boolean {
  switch (state.kind) {
    case 'live':
    case 'closed':
    case 'signed-out':
      return false;
    case 'connecting':
      return wasOutage;
    case 'not-responding':
    case 'reconnecting':
    case 'hub-refused':
    case 'hub-gone':
    case 'no-realtime':
    case 'not-opened':
      return true;
  }
}

/** How many confirmed transaction ids are remembered, so a late echo is still recognised. */
export const CONFIRMED_MEMORY = 1_000;
/** Events held until the hub's first snapshot are bounded; a hub that floods a never-loading view loses the excess. */
export const MAX_QUEUED = 50_000;
const NO_PERMISSIONS: HubPermissions = { control: false, flows: 'none' };

/** What a hub shows when it is opened again, until its new snapshot arrives. */
type KnownHub = Pick<OpenHubState, 'devices' | 'summaries' | 'permissions' | 'favourites' | 'route' | 'flows' | 'confirmedAt'>;

const EMPTY = {
  snapshot: { status: 'idle' },
  devices: {},
  summaries: [],
  permissions: NO_PERMISSIONS,
  favourites: {},
  route: null,
  flows: { status: 'none' },
  triggers: {},
  live: null,
  outage: false,
  confirmedAt: null,
  pending: {},
  errors: {},
} as const satisfies Omit<OpenHubState, 'hubId' | keyof OpenHubActions>;
type OpenHubActions = Pick<
  OpenHubState,
  'open' | 'reload' | 'retryNow' | 'retryFlows' | 'pinRoute' | 'allowUnencryptedRoutes' | 'setCapability' | 'setFavourite' | 'dismissError' | 'triggerFlow'
>;

const LOADING: SnapshotState = { status: 'loading' };
const LOADED: SnapshotState = { status: 'loaded' };
const OTHER_HUB: UiError = { code: 'internal', message: 'Hubdesk received the devices of another hub.' };

export function createOpenHubStore(bridge: Pick<Bridge, 'hubs' | 'on'>, hubs: HubsStore, options: OpenHubOptions = {}): OpenHubStore {
  const newTransactionId = options.newTransactionId ?? (() => crypto.randomUUID());
  const deadlineMs = options.actionDeadlineMs ?? ACTION_DEADLINE_MS;
  const now = options.now ?? (() => Date.now());
  /** A change: an answer after the deadline is ignored, the change rolled back with CHANGE_NOT_CONFIRMED. */
  const change = { deadlineMs, timeoutMessage: CHANGE_NOT_CONFIRMED };
  const read = { deadlineMs };
  // Bumped whenever the open hub changes: answers of the previous one are dropped.
  let generation = 0;
  /** Events of the open hub that arrived before its devices were known. */
  let held: DeviceEvent[] = [];
  let nextErrorId = 0;
  const inFlight = new Set<string>();
  /** Echoes of changes still in flight, by transaction id: the hub's confirmation, should its answer miss the deadline. */
  const echoed = new Map<string, CapabilityEventData>();
  const confirmed = new Set<string>();
  /** Device id → the favourite mark the user set that the core has not confirmed yet (shown over a snapshot). */
  const favouriteChanges = new Map<string, boolean>();
  /** Hubs left during this sign-in, as they were shown. */
  const known = new Map<string, KnownHub>();

  const isOurs = (transactionId: string | null) => transactionId !== null && (inFlight.has(transactionId) || confirmed.has(transactionId));
  const rememberConfirmed = (transactionId: string) => {
    confirmed.add(transactionId);
    if (confirmed.size > CONFIRMED_MEMORY) confirmed.delete(confirmed.values().next().value!);
  };

  const store = createStore<OpenHubState>()((set, get) => {
    const showError = (deviceId: string, message: string, change?: CardError['change']) => {
      const errors = { ...get().errors, [deviceId]: { id: ++nextErrorId, message, ...(change && { change }) } };
      set({ errors: errorsAgreeingWith(errors, get().devices) });
    };

    const setPending = (deviceId: string, capabilityId: string, value: PendingValue | undefined) => {
      const { [capabilityId]: _dropped, ...others } = get().pending[deviceId] ?? {};
      const forDevice = value ? { ...others, [capabilityId]: value } : others;
      const { [deviceId]: _old, ...pending } = get().pending;
      set({ pending: Object.keys(forDevice).length > 0 ? { ...pending, [deviceId]: forDevice } : pending });
    };

    const setMark = (deviceId: string, on: boolean) => {
      const { [deviceId]: _old, ...others } = get().favourites;
      set({ favourites: on ? { ...others, [deviceId]: true } : others });
    };

    const setTrigger = (flowId: string, state: TriggerState) => set({ triggers: { ...get().triggers, [flowId]: state } });

    /** New values of the devices; an error they now contradict goes with them. */
    const setDevices = (devices: Readonly<Record<string, Device>>) => set({ devices, errors: errorsAgreeingWith(get().errors, devices) });

    return {
      hubId: null,
      ...EMPTY,

      open(hubId) {
        if (hubId === get().hubId || (hubId !== null && !isListed(hubs.getState(), hubId))) return;
        switchTo(hubId);
      },

      reload() {
        const hubId = get().hubId;
        if (hubId === null) return;
        set({ snapshot: LOADING });
        // The hub may be gone from the account (the list then opens another one).
        void hubs.getState().reload();
        requestOpen(hubId);
      },

      retryNow() {
        const { hubId, live } = get();
        // A refusal needs no word of its own: the next live state says what happened.
        if (hubId !== null && live?.kind === 'reconnecting') void settle(() => bridge.hubs.reconnect(hubId), read);
      },

      retryFlows() {
        const hubId = get().hubId;
        if (hubId === null || get().flows.status !== 'error') return;
        set({ flows: { status: 'loading' } });
        requestOpen(hubId);
      },

      async pinRoute(kind) {
        const hubId = get().hubId;
        if (hubId === null) return;
        const startedIn = generation;
        // Shown as loading at once: the core reopens the hub and its snapshot may come before this answer.
        set({ snapshot: LOADING });
        const result = await settle(() => bridge.hubs.pinRoute(hubId, kind), read);
        if (startedIn !== generation) return;
        if (!result.ok) return set({ snapshot: { status: 'error', error: result.error } });
        // The list says which route is pinned.
        await hubs.getState().reload();
      },

      async allowUnencryptedRoutes(allow) {
        const hubId = get().hubId;
        const startedIn = generation;
        if (hubId !== null) set({ snapshot: LOADING });
        const result = await settle(() => bridge.hubs.allowUnencryptedRoutes(allow), read);
        if (startedIn !== generation) return;
        if (!result.ok) return void (hubId !== null && set({ snapshot: { status: 'error', error: result.error } }));
        await hubs.getState().reload();
      },

      async setCapability(deviceId, capabilityId, value) {
        const { hubId, permissions, devices } = get();
        if (hubId === null || !permissions.control || !devices[deviceId]?.capabilitiesObj?.[capabilityId]) return;
        const startedIn = generation;
        const transactionId = newTransactionId();
        inFlight.add(transactionId);
        setPending(deviceId, capabilityId, { value, transactionId });
        const answer = await settle(() => bridge.hubs.setCapability(hubId, { deviceId, capabilityId, value, transactionId }), change);
        if (startedIn !== generation) return;
        inFlight.delete(transactionId);
        const echo = echoed.get(transactionId);
        echoed.delete(transactionId);
        // No answer in time, but the hub's echo came: the hub did it.
        const result = !answer.ok && echo !== undefined && isTimeout(answer.error) ? { ok: true as const, value: echo } : answer;
        if (result.ok) {
          rememberConfirmed(transactionId);
          const device = get().devices[deviceId];
          const updated = device && applyCapabilityValue(device, result.value);
          if (updated) setDevices({ ...get().devices, [deviceId]: updated });
        } else {
          showError(deviceId, capabilityFailure(get().devices[deviceId], capabilityId, value, result.error.message), { capabilityId, value });
        }
        // A newer change of the same capability stays shown until it settles itself: the last one wins.
        if (get().pending[deviceId]?.[capabilityId]?.transactionId === transactionId) setPending(deviceId, capabilityId, undefined);
      },

      async setFavourite(deviceId, favourite) {
        const hubId = get().hubId;
        if (hubId === null || (get().favourites[deviceId] === true) === favourite) return;
        const startedIn = generation;
        favouriteChanges.set(deviceId, favourite);
        setMark(deviceId, favourite);
        const result = await settle(() => bridge.hubs.setFavourite(hubId, deviceId, favourite), change);
        if (startedIn !== generation) return;
        if (favouriteChanges.get(deviceId) === favourite) favouriteChanges.delete(deviceId);
        if (result.ok) return;
        // Undone only if the user did not change it again meanwhile.
        if ((get().favourites[deviceId] === true) === favourite) setMark(deviceId, !favourite);
        showError(deviceId, favouriteFailure(get().devices[deviceId], favourite, result.error.message));
      },

      dismissError(deviceId) {
        const { [deviceId]: dropped, ...errors } = get().errors;
        if (dropped) set({ errors });
      },

      async triggerFlow(flowId) {
        const hubId = get().hubId;
        if (hubId === null || get().triggers[flowId]?.status === 'starting') return;
        const startedIn = generation;
        setTrigger(flowId, { status: 'starting' });
        const result = await settle(() => bridge.hubs.triggerFlow(hubId, flowId), change);
        if (startedIn !== generation) return;
        setTrigger(flowId, result.ok ? { status: 'started', at: result.value.triggeredAt } : { status: 'failed', message: result.error.message });
      },
    };
  });

  const { getState: get, setState: set } = store;

  /** Makes `hubId` the open hub (null: none), showing what it showed when it was last left. */
  const switchTo = (hubId: string | null) => {
    const left = get();
    if (left.hubId !== null && left.route !== null) {
      const { devices, summaries, permissions, favourites, route, flows } = left;
      const confirmedAt = left.live?.kind === 'live' ? now() : left.confirmedAt;
      known.set(left.hubId, {
        devices,
        summaries,
        permissions,
        favourites,
        route,
        flows: flows.status === 'loading' ? { status: 'none' } : flows,
        confirmedAt,
      });
    }
    generation++;
    held = [];
    inFlight.clear();
    echoed.clear();
    confirmed.clear();
    favouriteChanges.clear();
    const kept = hubId === null ? undefined : known.get(hubId);
    set({ hubId, ...EMPTY, ...(hubId !== null && { snapshot: kept ? LOADED : LOADING, live: { kind: 'connecting' } }), ...kept });
    requestOpen(hubId);
  };

  /** Asks the core to open the hub (again: a fresh snapshot); a refusal is shown as not live, by its error's code. */
  const requestOpen = (hubId: string | null) => {
    const startedIn = generation;
    void settle(() => bridge.hubs.open(hubId), read).then((result) => {
      if (result.ok || startedIn !== generation || hubId === null) return;
      readFailed(result.error);
      takeLive({ kind: 'not-opened', code: result.error.code });
    });
  };

  /** The open hub's live state; leaving `live`, the shown values were confirmed until now. */
  const takeLive = (state: LiveState) => {
    const before = get();
    const confirmedAt = state.kind === 'live' ? null : before.live?.kind === 'live' ? now() : before.confirmedAt;
    set({ live: state, outage: outageAfter(state, before.outage), confirmedAt });
  };

  /** The open hub could not be read: shown as its error, unless its devices are shown (then they stay, as after a failed background read). */
  const readFailed = (error: UiError) => {
    const state = get();
    if (state.snapshot.status !== 'loaded') return set({ snapshot: { status: 'error', error } });
    if (state.flows.status === 'loading') set({ flows: { status: 'error', error } });
  };

  const takeSnapshot = (snapshot: HubSnapshot) => {
    const state = get();
    if (snapshot.hubId !== state.hubId) return;
    if (snapshot.status === 'error') return readFailed(snapshot.error);
    const list = snapshot.devices;
    if (list.hubId !== snapshot.hubId) return readFailed(OTHER_HUB);

    let devices = mergeSnapshot(state.devices, list.devices);
    if (held.length > 0) devices = applyEvents(devices, held, isOurs)?.devices ?? devices;
    held = [];
    const keep = <T>(record: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(record).filter(([id]) => Object.hasOwn(devices, id)));
    const favourites: Record<string, boolean> = Object.fromEntries(list.favourites.map((id) => [id, true]));
    for (const [id, on] of favouriteChanges) {
      if (on) favourites[id] = true;
      else delete favourites[id];
    }
    const { route, rttMs, routeOutcomes, fetchedAt } = list;
    const readAt = Date.parse(fetchedAt);
    // Read while not live: its values were the hub's at least then.
    const confirmedAt = state.live?.kind === 'live' || Number.isNaN(readAt) ? state.confirmedAt : Math.max(state.confirmedAt ?? readAt, readAt);
    set({
      snapshot: LOADED,
      devices,
      summaries: summariesOf(devices, state.summaries),
      permissions: list.permissions,
      favourites: sameKeys(favourites, state.favourites) ? state.favourites : favourites,
      route: { route, rttMs, routeOutcomes, fetchedAt },
      flows: snapshot.flows,
      confirmedAt,
      pending: keep(state.pending),
      errors: errorsAgreeingWith(keep(state.errors), devices),
    });
  };

  const takeEvents = (hubId: string, events: DeviceEvent[]) => {
    const state = get();
    if (hubId !== state.hubId) return;
    // Until the hub's devices are known its changes wait for them (those older than its snapshot are then skipped).
    if (state.route === null) {
      if (held.length + events.length <= MAX_QUEUED) held.push(...events);
      return;
    }
    for (const event of events)
      if (event.kind === 'capability' && event.transactionId !== null && inFlight.has(event.transactionId)) echoed.set(event.transactionId, event);
    const applied = applyEvents(state.devices, events, isOurs);
    if (!applied) return;
    const errors = errorsAgreeingWith(state.errors, applied.devices);
    set(
      applied.structureChanged
        ? { devices: applied.devices, summaries: summariesOf(applied.devices, state.summaries), errors }
        : { devices: applied.devices, errors },
    );
  };

  let followedList: HubListState | null = null;
  const follow = (state: HubsState) => {
    if (!state.active) {
      followedList = null;
      if (get().hubId !== null) switchTo(null);
      known.clear();
      return;
    }
    if (state.list === followedList) return;
    followedList = state.list;
    if (state.list.status === 'error') {
      if (get().hubId !== null) switchTo(null);
      return;
    }
    if (state.list.status !== 'loaded') return;
    const ids = new Set(state.list.hubs.map((hub) => hub.id));
    for (const id of known.keys()) if (!ids.has(id)) known.delete(id);
    const open = get().hubId;
    if (open === null || !ids.has(open)) {
      const preferred = options.preferredHubId?.() ?? null;
      const first = (open === null && preferred !== null && ids.has(preferred) ? preferred : state.list.hubs[0]?.id) ?? null;
      if (first !== open) switchTo(first);
    }
  };

  const stopSnapshots = bridge.on('hubs.snapshot', takeSnapshot);
  const stopEvents = bridge.on('hubs.deviceEvents', (batch) => takeEvents(batch.hubId, batch.events));
  const stopLive = bridge.on('hubs.live', ({ hubId, state }) => {
    if (hubId === get().hubId) takeLive(state);
  });
  follow(hubs.getState());
  const stopFollowing = hubs.subscribe(follow);

  return {
    ...store,
    dispose() {
      stopFollowing();
      stopSnapshots();
      stopEvents();
      stopLive();
    },
  };
}

function sameKeys(a: Readonly<Record<string, boolean>>, b: Readonly<Record<string, boolean>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
