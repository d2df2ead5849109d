import { describe, expect, it } from 'vitest';
import { periodPlan, summarise } from '../../../../renderer/src/format/energy-periods';
import { changeWords, describeEnergyBars, energyFormats, energyPeriodCsv } from '../../../../renderer/src/format/energy-words';

const HOUR = 3_600_000;
const now = new Date(2026, 2, 31, 2, 30).getTime();
const plan = periodPlan('today', now);
const yesterday = new Date(2026, 2, 30).getTime();
const hourly = (values: number[]) => ({ times: values.map((_, i) => yesterday + i * HOUR), values });
const summary = summarise(
  [
    { key: 'h\u0000a', name: 'Heater, bathroom', hubName: 'Home', readings: hourly(Array.from({ length: 27 }, (_, i) => i * 2)) },
    { key: 'h\u0000b', name: 'Fridge', hubName: 'Home', readings: hourly(Array.from({ length: 27 }, (_, i) => i)) },
  ],
  plan,
);

describe('the energy view in words', () => {
  const formats = energyFormats({ perKwh: 0.25, currency: 'EUR' }, 'en-GB');

  it('states the change from the previous period, or nothing when it used nothing', () => {
    expect(changeWords({ plan, current: 9, previous: 10 })).toBe('10 % less than yesterday');
    expect(changeWords({ plan: periodPlan('week', now), current: 12, previous: 10 })).toBe('20 % more than last week');
    expect(changeWords({ plan, current: 10, previous: 10 })).toBe('the same as yesterday');
    expect(changeWords({ plan, current: 3, previous: 0 })).toBeNull();
  });

  it('costs at the price per kWh in the chosen currency, and none without a price', () => {
    expect(formats.cost(10)).toBe('€2.50');
    expect(energyFormats({ perKwh: null, currency: 'EUR' }, 'en-GB').cost(10)).toBeNull();
    expect(energyFormats({ perKwh: 1, currency: 'NOK' }, 'nb-NO').energy(1234.5, 'kWh')).toBe('1\u00a0234,5 kWh');
  });

  it('names the total, the highest bucket and the largest user', () => {
    expect(describeEnergyBars(summary, formats, 'kWh')).toBe(
      'Energy used today, per hour: 9 kWh in all; most at 00:00 (3 kWh); largest user Heater, bathroom (6 kWh).',
    );
  });

  it('exports a row per bucket with each device and the total', () => {
    const rows = energyPeriodCsv(summary, 'kWh').split('\r\n');
    expect(rows[0]).toBe('start,"Heater, bathroom · Home (kWh)",Fridge · Home (kWh),Total (kWh)');
    expect(rows.slice(1, 4)).toEqual(['2026-03-31T00:00,2,1,3', '2026-03-31T01:00,2,1,3', '2026-03-31T02:00,2,1,3']);
    expect(rows).toHaveLength(5); // and the final line break
  });
});
