import { describe, expect, it } from 'vitest';
import type { CapabilityState } from '../../../common/wire';
import { FAVOURITES_GROUP, filterChoices, filterDevices, groupWithFavourites, NO_FILTER } from '../../../renderer/src/format/filter-devices';
import { OTHER_ZONE } from '../../../renderer/src/format/group-devices';
import { liveLabel } from '../../../renderer/src/format/live-label';
import { fractionToPercent, percentToFraction, roundToStep, sliderScale } from '../../../renderer/src/format/slider-scale';

const number = (overrides: Partial<CapabilityState>): CapabilityState => ({
  id: 'target_temperature',
  type: 'number',
  title: 'Target',
  value: 20,
  getable: true,
  setable: true,
  lastUpdated: null,
  ...overrides,
});

describe('slider scale', () => {
  it('slides fractions in percent and sends fractions rounded to the step', () => {
    const scale = sliderScale(number({ id: 'dim', min: 0, max: 1, step: 0.01, units: '%' }))!;
    expect([scale.min, scale.max, scale.step]).toEqual([0, 100, 1]);
    expect(scale.toSlider(0.29)).toBe(29);
    expect(scale.fromSlider(29)).toBe(0.29);
    expect(scale.fromSlider(33.4)).toBe(0.33);
    expect(scale.fromSlider(140)).toBe(1);
  });

  it('slides other numbers in their own units, clamped and rounded to the step', () => {
    const scale = sliderScale(number({ min: 5, max: 35, step: 0.5 }))!;
    expect([scale.min, scale.max, scale.step]).toEqual([5, 35, 0.5]);
    expect(scale.fromSlider(21.3)).toBe(21.5);
    expect(scale.fromSlider(2)).toBe(5);
    expect(scale.toSlider(40)).toBe(35);
  });

  it('has no slider without a usable range', () => {
    expect(sliderScale(number({ min: undefined, max: undefined }))).toBeNull();
    expect(sliderScale(number({ min: 10, max: 10 }))).toBeNull();
    // A dim level is a fraction even when the hub leaves out its range.
    expect(sliderScale(number({ id: 'dim', min: undefined, max: undefined }))?.max).toBe(100);
  });

  it('converts and rounds without float noise', () => {
    expect(fractionToPercent(0.07)).toBe(7);
    expect(percentToFraction(7)).toBe(0.07);
    expect(roundToStep(0.1 + 0.2, 0, 0.1)).toBe(0.3);
    expect(roundToStep(7.26, 5, 0.5)).toBe(7.5);
    expect(roundToStep(7.26, 5, 0)).toBe(7.26);
  });
});

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

describe('live label', () => {
  it('says whether the view is live and, if not, why or when it retries', () => {
    expect(liveLabel({ state: 'live', since: 'x' }, 0)).toBe('Live');
    expect(liveLabel({ state: 'connecting' }, 0)).toBe('Connecting…');
    expect(liveLabel({ state: 'reconnecting', attempt: 2, nextRetryAt: 10_000, reason: 'lost' }, 6_200)).toBe('Reconnecting in 4 s…');
    expect(liveLabel({ state: 'reconnecting', attempt: 2, nextRetryAt: 10_000, reason: 'lost' }, 11_000)).toBe('Reconnecting…');
    expect(liveLabel({ state: 'offline', reason: 'You signed out.' }, 0)).toBe('Not live: You signed out.');
  });
});
