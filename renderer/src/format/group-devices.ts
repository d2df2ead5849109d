/** Devices grouped by zone for display: zones alphabetically, "Other" (no zone) last, devices by name. */
import type { Device } from '../../../common/wire';

export const OTHER_ZONE = 'Other';

export interface ZoneGroup {
  zone: string;
  devices: Device[];
}

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function groupByZone(devices: readonly Device[]): ZoneGroup[] {
  const zones = new Map<string, Device[]>();
  for (const device of devices) {
    const zone = device.zoneName?.trim() || OTHER_ZONE;
    const members = zones.get(zone) ?? [];
    members.push(device);
    zones.set(zone, members);
  }
  return [...zones.entries()]
    .sort(([a], [b]) => (a === OTHER_ZONE ? 1 : b === OTHER_ZONE ? -1 : byName.compare(a, b)))
    .map(([zone, members]) => ({ zone, devices: members.sort((a, b) => byName.compare(a.name, b.name) || a.id.localeCompare(b.id)) }));
}
