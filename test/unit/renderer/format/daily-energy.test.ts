import { describe, expect, it } from 'vitest';
import { dailyUse, describeEnergy, energyCsv, homeEnergy, homePower } from '../../../../renderer/src/format/daily-energy';
import type { Device } from '../../../../common/wire';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D0 = Date.parse('2026-03-01T00:00:00.000Z');
const utcDay = (time: number) => Math.floor(time / DAY) * DAY;

describe('energy per day from meter steps (each the meter reading at the end of its step)', () => {
  it("is each day's last reading minus the day before's; the first day counts from the range's first reading", () => {
    // Readings every 12 hours: day 1 from 100 to 103, day 2 to 110, day 3 to 111.5.
    const times = [0, 12, 24, 36, 48, 60].map((h) => D0 + h * HOUR);
    expect(dailyUse(times, [100, 103, 104, 110, 111, 111.5], utcDay)).toEqual({ days: [D0, D0 + DAY, D0 + 2 * DAY], used: [3, 7, 1.5] });
  });

  it('skips gaps, and counts a day whose meter went down (reset) from zero', () => {
    const times = [0, 12, 24, 36, 48].map((h) => D0 + h * HOUR);
    expect(dailyUse(times, [null, 50, null, 2, 5], utcDay)).toEqual({ days: [D0, D0 + DAY, D0 + 2 * DAY], used: [0, 2, 3] });
  });

  it('is empty without readings', () => {
    expect(dailyUse([D0], [null], utcDay)).toEqual({ days: [], used: [] });
  });
});

describe("the home's energy over a range", () => {
  it('puts every device on one calendar of days, with totals per day and per device, largest first', () => {
    const home = homeEnergy([
      { deviceId: 'heater', days: [D0 + DAY, D0 + 2 * DAY], used: [5, 6] },
      { deviceId: 'fridge', days: [D0, D0 + DAY], used: [1, 1.5] },
    ]);
    expect(home.days).toEqual([D0, D0 + DAY, D0 + 2 * DAY]);
    expect(home.totals).toEqual([1, 6.5, 6]);
    expect(home.devices).toEqual([
      { deviceId: 'heater', used: [0, 5, 6], total: 11 },
      { deviceId: 'fridge', used: [1, 1.5, 0], total: 2.5 },
    ]);
  });
});

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

describe('the energy view in words and as CSV', () => {
  const home = homeEnergy([
    { deviceId: 'heater', days: [D0, D0 + DAY, D0 + 2 * DAY], used: [5, 6.25, 2] },
    { deviceId: 'fridge', days: [D0, D0 + DAY, D0 + 2 * DAY], used: [1, 1, 1] },
  ]);
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);

  it('names the total, the highest, lowest and last day', () => {
    expect(describeEnergy(home, 'the last 7 days', 'kWh', day)).toBe('Energy used per day over the last 7 days: 16.25 kWh in all; most on 2026-03-02 (7.25 kWh), least on 2026-03-03 (3 kWh), last 2026-03-03 (3 kWh).');
    expect(describeEnergy({ days: [], totals: [] }, 'the last hour', 'kWh', day)).toBe('Energy used per day over the last hour: no meter readings.');
  });

  it('has a row per shown day with each device in the shown order and the total', () => {
    const csv = energyCsv(home, (id) => (id === 'heater' ? 'Towel rail, bathroom' : 'Fridge'), 'kWh').split('\r\n');
    expect(csv[0]).toBe('day,"Towel rail, bathroom (kWh)",Fridge (kWh),Total (kWh)');
    expect(csv.slice(1, 4).map((row) => row.split(',').slice(1))).toEqual([
      ['5', '1', '6'],
      ['6.25', '1', '7.25'],
      ['2', '1', '3'],
    ]);
    expect(csv).toHaveLength(5); // header, three days, and the final line break
  });
});
