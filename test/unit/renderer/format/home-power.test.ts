import { describe, expect, it } from 'vitest';
import type { Device } from '../../../../common/wire';
import { homePower } from '../../../../renderer/src/format/home-power';

describe("the home's power now", () => {
  const device = (id: string, watts: number | null, available = true): Device => ({
    id,
    name: id,
    class: 'socket',
    capabilities: ['measure_power'],
    available,
    capabilitiesObj: { measure_power: { id: 'measure_power', type: 'number', title: 'Power', value: watts, getable: true, setable: false, lastUpdated: null } },
  });

  it('sums the available devices that report power', () => {
    expect(homePower({ a: device('a', 120), b: device('b', 30.5), c: device('c', null), d: device('d', 999, false) })).toEqual({ watts: 150.5, devices: 2 });
  });

  it('is null when no device reports power', () => {
    expect(homePower({ c: device('c', null) })).toBeNull();
  });
});
