import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bucketStarts, countedByBucket, countedIn, periodPlan, summarise } from '../../../../renderer/src/format/energy-periods';

// Local calendar periods, in a zone with daylight saving (the last Sunday of March has 23 hours).
// Set before any time below is made (describe bodies run when the file is collected).
const zone = process.env.TZ;
process.env.TZ = 'Europe/Amsterdam';
afterAll(() => void (zone === undefined ? delete process.env.TZ : (process.env.TZ = zone)));

const local = (text: string) => new Date(text).getTime(); // no zone in the text: local time
const HOUR = 3_600_000;

describe('calendar periods in the user time zone', () => {
  const now = local('2026-03-31T15:20:00'); // a Tuesday

  it('today from local midnight, with yesterday before it, read at five-minute steps', () => {
    const plan = periodPlan('today', now);
    expect(plan.current.from).toBe(local('2026-03-31T00:00:00'));
    expect(plan.current.to).toBe(now + 1);
    expect(plan.previous).toEqual({ from: local('2026-03-30T00:00:00'), to: local('2026-03-31T00:00:00') });
    expect(plan.resolution).toBe('last3Days');
    expect(bucketStarts(plan.current, plan.bucket)).toHaveLength(16); // 00:00 … 15:00
  });

  it('a week from Monday; last week across the change to summer time is 167 hours', () => {
    const plan = periodPlan('week', now);
    expect(plan.current.from).toBe(local('2026-03-30T00:00:00'));
    expect(plan.previous.from).toBe(local('2026-03-23T00:00:00'));
    expect((plan.previous.to - plan.previous.from) / HOUR).toBe(167);
    expect(bucketStarts(plan.previous, 'day').map((day) => new Date(day).getHours())).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(plan.resolution).toBe('last14Days');
  });

  it('a month from its first day, a year from the first of January, by month', () => {
    expect(periodPlan('month', now).previous).toEqual({ from: local('2026-02-01T00:00:00'), to: local('2026-03-01T00:00:00') });
    const year = periodPlan('year', now);
    expect(year.previous).toEqual({ from: local('2025-01-01T00:00:00'), to: local('2026-01-01T00:00:00') });
    expect(bucketStarts(year.current, year.bucket).map((start) => new Date(start).getMonth())).toEqual([0, 1, 2]);
  });

  it('on a Sunday the week began six days before', () => {
    expect(periodPlan('week', local('2026-04-05T23:59:00')).current.from).toBe(local('2026-03-30T00:00:00'));
  });
});

describe('what a meter counted in a span (each step holds its last reading)', () => {
  const at = (hours: number) => local('2026-03-31T00:00:00') + hours * HOUR;
  const span = { from: at(0), to: at(10) };

  it('is the rises from the last reading before the span', () => {
    const meter = { times: [at(-2), at(-1), at(0), at(1), at(5), at(10)], values: [98, 100, 101, 104, 110, 200] };
    expect(countedIn(meter, span)).toEqual({ used: 10, partial: false, empty: false });
  });

  it('skips gaps and counts a reset meter from zero', () => {
    const meter = { times: [at(-1), at(0), at(1), at(2), at(3)], values: [50, null, 52, 1.5, 2] };
    expect(countedIn(meter, span).used).toBeCloseTo(2 + 1.5 + 0.5);
  });

  it('is partial when the history starts inside the span, empty without readings in it', () => {
    expect(countedIn({ times: [at(3), at(4)], values: [7, 9] }, span)).toEqual({ used: 2, partial: true, empty: false });
    expect(countedIn({ times: [at(-3)], values: [7] }, span)).toEqual({ used: 0, partial: false, empty: true });
  });

  it('per bucket adds up to the whole span, for any readings', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.double({ min: 0, max: 1e4, noNaN: true }), { nil: null }), { minLength: 1, maxLength: 60 }), (values) => {
        const meter = { times: values.map((_, i) => at(i / 4 - 3)), values };
        const byHour = countedByBucket(meter, span, 'hour');
        expect(byHour).toHaveLength(10);
        expect(byHour.reduce((a, b) => a + b, 0)).toBeCloseTo(countedIn(meter, span).used, 6);
      }),
    );
  });
});

describe('the summary across hubs', () => {
  const now = local('2026-03-31T02:30:00');
  const plan = periodPlan('today', now);
  const hourly = (from: number, values: number[]) => ({ times: values.map((_, i) => from + i * HOUR), values });
  const yesterday = local('2026-03-30T00:00:00');

  it('sums every meter for the period and the one before, largest first, with totals per bucket', () => {
    // 27 hourly readings from yesterday 00:00 to today 02:00.
    const fridge = hourly(
      yesterday,
      Array.from({ length: 27 }, (_, i) => 10 + i * 0.1),
    );
    const heater = hourly(
      yesterday,
      Array.from({ length: 27 }, (_, i) => 100 + i),
    );
    const summary = summarise(
      [
        { key: 'a\u0000fridge', name: 'Fridge', hubName: 'Home', readings: fridge },
        { key: 'b\u0000heater', name: 'Heater', hubName: 'Cabin', readings: heater },
      ],
      plan,
    );
    expect(summary.devices.map((device) => device.name)).toEqual(['Heater', 'Fridge']);
    // Today: readings at 00:00, 01:00, 02:00 counted from yesterday 23:00's.
    expect(summary.current).toBeCloseTo(3 + 0.3);
    // Yesterday: 00:00 counts from the first reading (no earlier one), so 23 rises each, marked partial.
    expect(summary.previous).toBeCloseTo(23 + 2.3);
    expect(summary.previousPartial).toBe(true);
    expect(summary.totals.map((total) => Number(total.toFixed(6)))).toEqual([1.1, 1.1, 1.1]);
  });
});
