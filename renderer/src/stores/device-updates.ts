/**
 * Pure updates of devices: a capability's new value (unless it is older than what is shown), a batch
 * of the hub's changes, and the part of a device the grid places it by. Each returns a new object only
 * when something changed, so subscribers of an unchanged device are not woken.
 */
import type { CapabilityEventData, DeviceEvent } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import type { DeviceSummary } from '../format/filter-devices';

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

export interface AppliedEvents {
  devices: Record<string, Device>;
  /** True when a device was added, removed, renamed or moved (the grid's summaries change). */
  structureChanged: boolean;
}

/**
 * The devices after a batch of the hub's changes, in order, or null when nothing changed. Values for
 * unknown devices or capabilities, older than the shown ones, or echoes of the user's own changes
 * (`isOurs`) are skipped; a `device` event replaces the device whole.
 */
export function applyEvents(devices: Readonly<Record<string, Device>>, events: readonly DeviceEvent[], isOurs: (transactionId: string | null) => boolean): AppliedEvents | null {
  let next: Record<string, Device> | null = null;
  let structureChanged = false;
  const write = () => (next ??= { ...devices });
  for (const event of events) {
    const current = (next ?? devices)[event.kind === 'device' ? event.device.id : event.deviceId];
    if (event.kind === 'capability') {
      const updated = current && !isOurs(event.transactionId) ? applyCapabilityValue(current, event) : null;
      if (updated) write()[event.deviceId] = updated;
    } else if (event.kind === 'device') {
      structureChanged ||= !current || !sameSummary(current, event.device);
      write()[event.device.id] = event.device;
    } else if (current) {
      delete write()[event.deviceId];
      structureChanged = true;
    }
  }
  return next && { devices: next, structureChanged };
}

export function summaryOf(device: Device): DeviceSummary {
  return { id: device.id, name: device.name, class: device.class, zoneName: device.zoneName };
}

/** The grid's summaries of the devices, or `previous` itself when they are the same. */
export function summariesOf(devices: Readonly<Record<string, Device>>, previous: readonly DeviceSummary[]): readonly DeviceSummary[] {
  const list = Object.values(devices);
  if (list.length === previous.length && list.every((device, i) => sameSummary(device, previous[i]!))) return previous;
  return list.map(summaryOf);
}

export function sameSummary(a: DeviceSummary, b: DeviceSummary): boolean {
  return a.id === b.id && a.name === b.name && a.class === b.class && a.zoneName === b.zoneName;
}

// A change stamped before the shown value was (e.g. an event queued before a refetch) is stale.
function isOlder(time: string, than: string | null): boolean {
  if (than === null) return false;
  const a = Date.parse(time);
  const b = Date.parse(than);
  return Number.isFinite(a) && Number.isFinite(b) && a < b;
}
