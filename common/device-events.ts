/**
 * The one update rule of a hub's devices (docs/hub-realtime.md, "The open hub's model and live
 * states"), used by the core's model of the open hub and by the renderer's store, so the tray and the
 * window can never disagree: a capability's value is replaced unless the new one is stamped before the
 * shown one (an older value never replaces a newer one), a `device` event replaces the device whole, a
 * `removed` event drops it, and a fresh snapshot keeps the shown values stamped after its own. Pure:
 * each function returns a new object only when something changed, so subscribers of an unchanged
 * device are not woken.
 */
import type { CapabilityEventData, DeviceEvent } from './ipc-contract';
import type { Device } from './wire';

/** A capability value that changed while updates were applied (from a capability event or a replaced device). */
export interface ValueChange {
  device: Device;
  capabilityId: string;
  previous: unknown;
  value: unknown;
}

/** The device with the capability's value, or null when unknown, unchanged or older than the shown one. */
export function applyCapabilityValue(device: Device, change: Pick<CapabilityEventData, 'capabilityId' | 'value' | 'time'>): Device | null {
  const states = device.capabilitiesObj;
  const state = states && Object.hasOwn(states, change.capabilityId) ? states[change.capabilityId] : undefined;
  if (!state || isOlder(change.time, state.lastUpdated)) return null;
  if (state.value === change.value && state.lastUpdated === change.time) return null;
  return { ...device, capabilitiesObj: { ...states, [change.capabilityId]: { ...state, value: change.value, lastUpdated: change.time } } };
}

/** A fetched device with the values of the shown one that changed after the fetch (events that overtook it). */
export function keepNewerValues(fetched: Device, shown: Device): Device {
  let device = fetched;
  for (const state of Object.values(shown.capabilitiesObj ?? {})) {
    if (state.lastUpdated === null || state.value === null) continue;
    const fetchedState = fetched.capabilitiesObj?.[state.id];
    if (!fetchedState || fetchedState.lastUpdated === null || !isOlder(fetchedState.lastUpdated, state.lastUpdated)) continue;
    device = applyCapabilityValue(device, { capabilityId: state.id, value: state.value, time: state.lastUpdated }) ?? device;
  }
  return device;
}

/** The devices of a fresh snapshot, each keeping the shown values newer than its own. */
export function mergeSnapshot(shown: Readonly<Record<string, Device>>, fetched: readonly Device[]): Record<string, Device> {
  return Object.fromEntries(fetched.map((device) => [device.id, Object.hasOwn(shown, device.id) ? keepNewerValues(device, shown[device.id]!) : device]));
}

export interface AppliedEvents {
  devices: Record<string, Device>;
  /** True when a device was added, removed, renamed, moved or given another class (a list of devices changes). */
  structureChanged: boolean;
}

/**
 * The devices after a batch of the hub's changes, in order, or null when nothing changed. Values for
 * unknown devices or capabilities, older than the shown ones, or echoes of the caller's own changes
 * (`isOurs`) are skipped; a `device` event replaces the device whole. `onChange` hears of every value
 * that changed, once per event.
 */
export function applyEvents(
  devices: Readonly<Record<string, Device>>,
  events: readonly DeviceEvent[],
  isOurs: (transactionId: string | null) => boolean,
  onChange?: (change: ValueChange) => void,
): AppliedEvents | null {
  let next: Record<string, Device> | null = null;
  let structureChanged = false;
  const write = () => (next ??= { ...devices });
  for (const event of events) {
    const current = (next ?? devices)[event.kind === 'device' ? event.device.id : event.deviceId];
    if (event.kind === 'capability') {
      const updated = current && !isOurs(event.transactionId) ? applyCapabilityValue(current, event) : null;
      if (!updated) continue;
      write()[event.deviceId] = updated;
      const previous = current!.capabilitiesObj?.[event.capabilityId]?.value;
      if (previous !== event.value) onChange?.({ device: updated, capabilityId: event.capabilityId, previous, value: event.value });
    } else if (event.kind === 'device') {
      structureChanged ||= !current || !samePlace(current, event.device);
      write()[event.device.id] = event.device;
      if (current && onChange) for (const change of changedValues(current, event.device)) onChange(change);
    } else if (current) {
      delete write()[event.deviceId];
      structureChanged = true;
    }
  }
  return next && { devices: next, structureChanged };
}

/** The values of `after` that were known in `before` and differ from it. */
export function changedValues(before: Device, after: Device): ValueChange[] {
  const changes: ValueChange[] = [];
  for (const [capabilityId, state] of Object.entries(after.capabilitiesObj ?? {})) {
    const previous = before.capabilitiesObj?.[capabilityId]?.value;
    if (previous !== undefined && previous !== state.value) changes.push({ device: after, capabilityId, previous, value: state.value });
  }
  return changes;
}

/** Same name, class and zone: a list of devices shows both alike. */
export function samePlace(a: Pick<Device, 'id' | 'name' | 'class' | 'zoneName'>, b: Pick<Device, 'id' | 'name' | 'class' | 'zoneName'>): boolean {
  return a.id === b.id && a.name === b.name && a.class === b.class && a.zoneName === b.zoneName;
}

/** A change stamped before the shown value was (e.g. an event queued before a refetch) is stale; an unreadable time is not. */
export function isOlder(time: string, than: string | null): boolean {
  if (than === null) return false;
  const a = Date.parse(time);
  const b = Date.parse(than);
  return Number.isFinite(a) && Number.isFinite(b) && a < b;
}
