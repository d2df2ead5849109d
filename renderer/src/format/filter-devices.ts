/**
 * Search, zone and class filters over the device list, and the groups the grid shows: favourites
 * first in their own group, then the rest by zone (see `groupByZone`). Pure, so every rule is tested.
 */
import type { Device } from '../../../common/wire';
import { compareNames } from './compare-names';
import { compareDevices, groupByZone, OTHER_ZONE } from './group-devices';

/** What the grid needs to place a device; its capability values are read by the card itself. */
export type DeviceSummary = Pick<Device, 'id' | 'name' | 'class' | 'zoneName'>;

export interface DeviceFilter {
  /** Matched case- and accent-insensitively against the device name. */
  query: string;
  /** A zone name (OTHER_ZONE for devices without one), or '' for all. */
  zone: string;
  /** A device class, or '' for all. */
  deviceClass: string;
}

export const NO_FILTER: DeviceFilter = { query: '', zone: '', deviceClass: '' };
export const FAVOURITES_GROUP = 'Favourites';

export interface DeviceGroup {
  /** Unique among the groups (a zone may be called "Favourites" too). */
  key: string;
  /** A zone name, or FAVOURITES_GROUP. */
  title: string;
  ids: string[];
}

export const zoneOf = (device: Pick<Device, 'zoneName'>): string => device.zoneName?.trim() || OTHER_ZONE;

export function filterDevices<T extends DeviceSummary>(devices: readonly T[], filter: DeviceFilter): T[] {
  const query = fold(filter.query.trim());
  return devices.filter(
    (device) =>
      (query === '' || fold(device.name).includes(query)) &&
      (filter.zone === '' || zoneOf(device) === filter.zone) &&
      (filter.deviceClass === '' || device.class === filter.deviceClass),
  );
}

/** True when any filter narrows the list (the Clear button and the "N of M" count show then). */
export function isFiltering(filter: DeviceFilter): boolean {
  return filter.query.trim() !== '' || filter.zone !== '' || filter.deviceClass !== '';
}

/** "12 devices", or "3 of 12 devices" while a filter narrows the list. */
export function deviceCountLabel(shown: number, total: number, filtering: boolean): string {
  const noun = total === 1 ? 'device' : 'devices';
  return filtering ? `${shown} of ${total} ${noun}` : `${total} ${noun}`;
}

/** Favourites pinned at the top in their own group; the others grouped by zone. Empty groups are left out. */
export function groupWithFavourites(devices: readonly DeviceSummary[], favourites: Readonly<Record<string, boolean>>): DeviceGroup[] {
  const pinned = devices.filter((device) => favourites[device.id] === true);
  const rest = devices.filter((device) => favourites[device.id] !== true);
  const groups = groupByZone(rest).map((group) => ({ title: group.zone, ids: group.devices.map((device) => device.id), key: `zone:${group.zone}` }));
  if (pinned.length === 0) return groups;
  return [{ key: 'favourites', title: FAVOURITES_GROUP, ids: pinned.sort(compareDevices).map((device) => device.id) }, ...groups];
}

/** The zones and classes present, sorted, for the filter choices. */
export function filterChoices(devices: readonly DeviceSummary[]): { zones: string[]; classes: string[] } {
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort(compareNames);
  return { zones: sorted(devices.map(zoneOf)), classes: sorted(devices.map((device) => device.class)) };
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** The groups cut to their first `limit` devices in reading order (the grid fills in steps); groups left empty are dropped. */
export function firstCards(groups: readonly DeviceGroup[], limit: number): DeviceGroup[] {
  const cut: DeviceGroup[] = [];
  let left = Math.max(0, limit);
  for (const group of groups) {
    if (left === 0) break;
    const ids = group.ids.length <= left ? group.ids : group.ids.slice(0, left);
    left -= ids.length;
    cut.push(ids === group.ids ? group : { ...group, ids });
  }
  return cut;
}
