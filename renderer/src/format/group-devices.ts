/** Devices grouped by zone for display: zones alphabetically, "Other" (no zone) last, devices by name. */
import type { Device } from '../../../common/wire';
import { compareNames } from './compare-names';

export const OTHER_ZONE = 'Other';

type Placed = Pick<Device, 'id' | 'name' | 'zoneName'>;

export interface ZoneGroup<T extends Placed = Device> {
  zone: string;
  devices: T[];
}

/** By name as people sort (case-insensitive, "Lamp 2" before "Lamp 10"), then by id so the order is stable. */
export const compareDevices = (a: Placed, b: Placed): number => compareNames(a.name, b.name) || a.id.localeCompare(b.id);

export function groupByZone<T extends Placed>(devices: readonly T[]): ZoneGroup<T>[] {
  const zones = new Map<string, T[]>();
  for (const device of devices) {
    const zone = device.zoneName?.trim() || OTHER_ZONE;
    const members = zones.get(zone) ?? [];
    members.push(device);
    zones.set(zone, members);
  }
  return [...zones.entries()]
    .sort(([a], [b]) => (a === OTHER_ZONE ? 1 : b === OTHER_ZONE ? -1 : compareNames(a, b)))
    .map(([zone, members]) => ({ zone, devices: members.sort(compareDevices) }));
}
