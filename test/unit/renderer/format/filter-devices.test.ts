import { describe, expect, it } from 'vitest';
import {
  deviceCountLabel,
  FAVOURITES_GROUP,
  filterChoices,
  filterDevices,
  firstCards,
  groupWithFavourites,
  isFiltering,
  NO_FILTER,
} from '../../../../renderer/src/format/filter-devices';
import { OTHER_ZONE } from '../../../../renderer/src/format/group-devices';

describe('device filters', () => {
  const devices = [
    { id: '1', name: 'Kitchen lamp', class: 'light', zoneName: 'Kitchen' },
    { id: '2', name: 'Thermostat', class: 'thermostat', zoneName: 'Hall' },
    { id: '3', name: 'Café plug', class: 'socket' },
    { id: '4', name: 'Hall lamp', class: 'light', zoneName: 'Hall' },
  ];

  it('matches the name case- and accent-insensitively, and by zone and class', () => {
    expect(filterDevices(devices, { ...NO_FILTER, query: ' LAMP ' }).map((d) => d.id)).toEqual(['1', '4']);
    expect(filterDevices(devices, { ...NO_FILTER, query: 'cafe' }).map((d) => d.id)).toEqual(['3']);
    expect(filterDevices(devices, { ...NO_FILTER, zone: 'Hall', deviceClass: 'light' }).map((d) => d.id)).toEqual(['4']);
    expect(filterDevices(devices, { ...NO_FILTER, zone: OTHER_ZONE }).map((d) => d.id)).toEqual(['3']);
  });

  it('pins favourites at the top in their own group', () => {
    const groups = groupWithFavourites(devices, { '4': true, '2': true });
    expect(groups).toEqual([
      { key: 'favourites', title: FAVOURITES_GROUP, ids: ['4', '2'] },
      { key: 'zone:Kitchen', title: 'Kitchen', ids: ['1'] },
      { key: `zone:${OTHER_ZONE}`, title: OTHER_ZONE, ids: ['3'] },
    ]);
    expect(groupWithFavourites(devices, {})[0]!.title).toBe('Hall');
  });

  it('offers the zones and classes present', () => {
    expect(filterChoices(devices)).toEqual({ zones: ['Hall', 'Kitchen', OTHER_ZONE], classes: ['light', 'socket', 'thermostat'] });
  });
});

describe('filter count', () => {
  it('is filtering when a search (not only spaces), a zone or a class narrows the list', () => {
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ ...NO_FILTER, query: '   ' })).toBe(false);
    expect(isFiltering({ ...NO_FILTER, query: 'lamp' })).toBe(true);
    expect(isFiltering({ ...NO_FILTER, zone: 'Hall' })).toBe(true);
    expect(isFiltering({ ...NO_FILTER, deviceClass: 'light' })).toBe(true);
  });

  it('says "N of M devices" while filtering and the total otherwise', () => {
    expect(deviceCountLabel(3, 12, true)).toBe('3 of 12 devices');
    expect(deviceCountLabel(0, 12, true)).toBe('0 of 12 devices');
    expect(deviceCountLabel(12, 12, false)).toBe('12 devices');
    expect(deviceCountLabel(1, 1, false)).toBe('1 device');
    expect(deviceCountLabel(1, 1, true)).toBe('1 of 1 device');
  });
});

describe('firstCards', () => {
  const groups = [
    { key: 'fav', title: 'Favourites', ids: ['a', 'b'] },
    { key: 'zone:Hall', title: 'Hall', ids: ['c', 'd', 'e'] },
    { key: 'zone:Kitchen', title: 'Kitchen', ids: ['f'] },
  ];

  it('keeps the first devices in reading order, cutting the group where the limit falls and dropping the rest', () => {
    expect(firstCards(groups, 3)).toEqual([groups[0], { key: 'zone:Hall', title: 'Hall', ids: ['c'] }]);
    expect(firstCards(groups, 2)).toEqual([groups[0]]);
    expect(firstCards(groups, 0)).toEqual([]);
    expect(firstCards(groups, -5)).toEqual([]);
  });

  it('returns every group unchanged once the limit covers them all', () => {
    const all = firstCards(groups, 100);
    expect(all).toEqual(groups);
    expect(all[1]).toBe(groups[1]); // the same objects: nothing re-renders for it
  });
});
