/**
 * The grid's view of the devices: the part of a device it places it by. The devices themselves are
 * updated by the one rule shared with the core (common/device-events.ts).
 */
import { samePlace } from '../../../common/device-events';
import type { Device } from '../../../common/wire';
import type { DeviceSummary } from '../format/filter-devices';

export function summaryOf(device: Device): DeviceSummary {
  return { id: device.id, name: device.name, class: device.class, zoneName: device.zoneName };
}

/** The grid's summaries of the devices, or `previous` itself when they are the same. */
export function summariesOf(devices: Readonly<Record<string, Device>>, previous: readonly DeviceSummary[]): readonly DeviceSummary[] {
  const list = Object.values(devices);
  if (list.length === previous.length && list.every((device, i) => samePlace(device, previous[i]!))) return previous;
  return list.map(summaryOf);
}
