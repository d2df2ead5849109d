/**
 * The devices of the watched hub as they change: the list from `hubs.devices`, live changes from
 * `hubs.deviceEvents`, the live channel's state, and the user's own changes before the hub confirms
 * them. Shaped for many small subscribers: each device is its own object, replaced only when it
 * changes, so one card re-renders alone; the grid reads `summaries`, which changes only when a device
 * is added, removed or renamed/moved.
 *
 * Event batches are queued and applied once per animation frame (injectable for tests), so a storm of
 * changes costs one store update per frame. A user's change is shown at once (`pending`, on top of the
 * hub's value) and settled by the hub's answer: kept on success, dropped on refusal with the reason on
 * the card. Changes carry a transaction id; the echo of one of ours is not applied a second time.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, CapabilityValue, DeviceEvent, DeviceEventBatch, DeviceList, HubPermissions, LiveStatus } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import type { DeviceSummary } from '../format/filter-devices';
import { applyCapabilityValue, keepNewerValues, sameSummary, summaryOf } from './device-updates';
import { nextFrame, type ScheduleFlush } from './frame-scheduler';
import { settle } from './settle';

export type LiveState = LiveStatus['state'];

/** A value the user chose that the hub has not confirmed yet. */
export interface PendingValue {
  value: CapabilityValue;
  transactionId: string;
}

/** A refused change or favourite, shown on the card until dismissed; `id` tells two errors apart. */
export interface CardError {
  id: number;
  message: string;
}

export interface LiveDevicesState {
  /** The watched hub (the selected one), or null. */
  hubId: string | null;
  /** Null while no hub is watched. */
  live: LiveState | null;
  /** False until the watched hub's list is loaded. */
  loaded: boolean;
  devices: Readonly<Record<string, Device>>;
  summaries: readonly DeviceSummary[];
  permissions: HubPermissions;
  favourites: Readonly<Record<string, boolean>>;
  /** Device id → capability id → the user's value not yet confirmed. */
  pending: Readonly<Record<string, Readonly<Record<string, PendingValue>>>>;
  errors: Readonly<Record<string, CardError>>;
  /** Watches a hub (null: none): asks main to keep its live channel open and starts empty. */
  watch(hubId: string | null): void;
  /** Takes the watched hub's whole list (first load or refetch); shown values newer than the list's, and the user's pending ones, stay. */
  load(list: DeviceList): void;
  setCapability(deviceId: string, capabilityId: string, value: CapabilityValue): Promise<void>;
  setFavourite(deviceId: string, favourite: boolean): Promise<void>;
  dismissError(deviceId: string): void;
}

export type LiveDevicesStore = StoreApi<LiveDevicesState> & { dispose(): void };

export interface LiveDevicesOptions {
  scheduleFlush?: ScheduleFlush;
  newTransactionId?: () => string;
}

/** How many confirmed transaction ids are remembered, so a late echo is still recognised. */
export const CONFIRMED_MEMORY = 1_000;
/** Events held while the list loads are bounded; a hub that floods a never-loading view loses the excess. */
const MAX_QUEUED = 50_000;
const NO_PERMISSIONS: HubPermissions = { control: false, flows: 'none' };

const EMPTY = { live: null, loaded: false, devices: {}, summaries: [], permissions: NO_PERMISSIONS, favourites: {}, pending: {}, errors: {} } as const;

export function createLiveDevicesStore(bridge: Pick<Bridge, 'hubs' | 'on'>, options: LiveDevicesOptions = {}): LiveDevicesStore {
  const scheduleFlush = options.scheduleFlush ?? nextFrame;
  const newTransactionId = options.newTransactionId ?? (() => crypto.randomUUID());
  // Bumped whenever the watched hub changes: answers and events of the previous one are dropped.
  let generation = 0;
  let queued: DeviceEvent[] = [];
  let nextErrorId = 0;
  const inFlight = new Set<string>();
  const confirmed = new Set<string>();

  const isOurs = (transactionId: string | null) => transactionId !== null && (inFlight.has(transactionId) || confirmed.has(transactionId));
  const rememberConfirmed = (transactionId: string) => {
    confirmed.add(transactionId);
    if (confirmed.size > CONFIRMED_MEMORY) confirmed.delete(confirmed.values().next().value!);
  };

  const store = createStore<LiveDevicesState>()((set, get) => {
    const showError = (deviceId: string, message: string) => set({ errors: { ...get().errors, [deviceId]: { id: ++nextErrorId, message } } });

    const setPending = (deviceId: string, capabilityId: string, value: PendingValue | undefined) => {
      const { [capabilityId]: _dropped, ...others } = get().pending[deviceId] ?? {};
      const forDevice = value ? { ...others, [capabilityId]: value } : others;
      const { [deviceId]: _old, ...pending } = get().pending;
      set({ pending: Object.keys(forDevice).length > 0 ? { ...pending, [deviceId]: forDevice } : pending });
    };

    return {
      hubId: null,
      ...EMPTY,

      watch(hubId) {
        if (hubId === get().hubId) return;
        generation++;
        queued = [];
        inFlight.clear();
        confirmed.clear();
        set({ hubId, ...EMPTY, live: hubId === null ? null : { state: 'connecting' } });
        const startedIn = generation;
        void settle(() => bridge.hubs.watch(hubId)).then((result) => {
          if (!result.ok && startedIn === generation && hubId !== null) set({ live: { state: 'offline', reason: result.error.message } });
        });
      },

      load(list) {
        if (list.hubId !== get().hubId) return;
        const shown = get().devices;
        const devices = Object.fromEntries(list.devices.map((device) => [device.id, Object.hasOwn(shown, device.id) ? keepNewerValues(device, shown[device.id]!) : device]));
        const keep = <T>(record: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(record).filter(([id]) => Object.hasOwn(devices, id)));
        set({
          loaded: true,
          devices,
          summaries: list.devices.map(summaryOf),
          permissions: list.permissions,
          favourites: Object.fromEntries(list.favourites.map((id) => [id, true])),
          pending: keep(get().pending),
          errors: keep(get().errors),
        });
        if (queued.length > 0) scheduleFlush(flush);
      },

      async setCapability(deviceId, capabilityId, value) {
        const { hubId, permissions, devices } = get();
        if (hubId === null || !permissions.control || !devices[deviceId]?.capabilitiesObj?.[capabilityId]) return;
        const startedIn = generation;
        const transactionId = newTransactionId();
        inFlight.add(transactionId);
        setPending(deviceId, capabilityId, { value, transactionId });
        const result = await settle(() => bridge.hubs.setCapability(hubId, { deviceId, capabilityId, value, transactionId }));
        if (startedIn !== generation) return;
        inFlight.delete(transactionId);
        if (result.ok) {
          rememberConfirmed(transactionId);
          const device = get().devices[deviceId];
          const updated = device && applyCapabilityValue(device, result.value);
          if (updated) set({ devices: { ...get().devices, [deviceId]: updated } });
        } else {
          const title = get().devices[deviceId]?.capabilitiesObj?.[capabilityId]?.title || capabilityId;
          showError(deviceId, `${title} was not changed. ${result.error.message}`);
        }
        // A newer change of the same capability stays shown until it settles itself: the last one wins.
        if (get().pending[deviceId]?.[capabilityId]?.transactionId === transactionId) setPending(deviceId, capabilityId, undefined);
      },

      async setFavourite(deviceId, favourite) {
        const hubId = get().hubId;
        if (hubId === null || (get().favourites[deviceId] === true) === favourite) return;
        const startedIn = generation;
        const setMark = (on: boolean) => {
          const { [deviceId]: _old, ...others } = get().favourites;
          set({ favourites: on ? { ...others, [deviceId]: true } : others });
        };
        setMark(favourite);
        const result = await settle(() => bridge.hubs.setFavourite(hubId, deviceId, favourite));
        if (startedIn !== generation || result.ok) return;
        // Undone only if the user did not change it again meanwhile.
        if ((get().favourites[deviceId] === true) === favourite) setMark(!favourite);
        showError(deviceId, `${favourite ? 'Adding to' : 'Removing from'} favourites failed: ${result.error.message}`);
      },

      dismissError(deviceId) {
        const { [deviceId]: dropped, ...errors } = get().errors;
        if (dropped) set({ errors });
      },
    };
  });

  const flush = () => {
    const state = store.getState();
    // Until the list is loaded the events wait for it (those older than the list are then ignored).
    if (!state.loaded) return;
    const events = queued;
    queued = [];
    if (events.length === 0) return;
    const devices: Record<string, Device> = { ...state.devices };
    let changed = false;
    let structureChanged = false;
    for (const event of events) {
      const current = devices[event.kind === 'device' ? event.device.id : event.deviceId];
      if (event.kind === 'capability') {
        const updated = current && !isOurs(event.transactionId) ? applyCapabilityValue(current, event) : null;
        if (updated) devices[event.deviceId] = updated;
        changed ||= updated !== null;
      } else if (event.kind === 'device') {
        structureChanged ||= !current || !sameSummary(current, event.device);
        devices[event.device.id] = event.device;
        changed = true;
      } else if (current) {
        delete devices[event.deviceId];
        changed = structureChanged = true;
      }
    }
    if (!changed) return;
    store.setState(structureChanged ? { devices, summaries: Object.values(devices).map(summaryOf) } : { devices });
  };

  const stopEvents = bridge.on('hubs.deviceEvents', (batch) => {
    if (!isBatch(batch) || batch.hubId !== store.getState().hubId) return;
    const events = batch.events.filter(isDeviceEvent);
    if (events.length === 0 || queued.length + events.length > MAX_QUEUED) return;
    if (queued.length === 0) scheduleFlush(flush);
    queued.push(...events);
  });
  const stopLive = bridge.on('hubs.live', (status) => {
    if (isLiveStatus(status) && status.hubId === store.getState().hubId) store.setState({ live: status.state });
  });

  return {
    ...store,
    dispose() {
      stopEvents();
      stopLive();
    },
  };
}

/** Main validates what it sends; these only keep a malformed event from breaking the view. */
function isBatch(value: unknown): value is DeviceEventBatch {
  if (typeof value !== 'object' || value === null) return false;
  const batch = value as Partial<DeviceEventBatch>;
  return typeof batch.hubId === 'string' && Array.isArray(batch.events);
}

function isDeviceEvent(value: unknown): value is DeviceEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  switch (event.kind) {
    case 'capability':
      return typeof event.deviceId === 'string' && typeof event.capabilityId === 'string' && typeof event.time === 'string' && 'value' in event;
    case 'device':
      return typeof event.device === 'object' && event.device !== null && typeof (event.device as Device).id === 'string' && Array.isArray((event.device as Device).capabilities);
    case 'removed':
      return typeof event.deviceId === 'string';
    default:
      return false;
  }
}

function isLiveStatus(value: unknown): value is LiveStatus {
  if (typeof value !== 'object' || value === null) return false;
  const status = value as Partial<LiveStatus>;
  return typeof status.hubId === 'string' && typeof status.state === 'object' && status.state !== null && typeof status.state.state === 'string';
}
