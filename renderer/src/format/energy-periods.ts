/**
 * The energy view's arithmetic (docs/insights-app.md, "Energy"): calendar periods in the user's time
 * zone (today, this week from Monday, this month, this year) with the period before each, which hub
 * resolution covers both, and what a meter counted in a span.
 *
 * A `meter_power` step holds the meter's last reading in that step (common/insights.ts, aggregation
 * `last`), so what a device used in [from, to) is the sum of the rises between consecutive readings
 * of the steps starting in that span, counted from the last reading of a step before `from`. A reading
 * lower than the one before means the meter was reset (replaced, or its counter wrapped): that step
 * counts from zero, i.e. its reading. With no reading before `from` (the hub's history starts later)
 * the count starts at the span's first reading and is marked partial.
 */
import type { InsightsResolution } from '../../../common/ipc-contract';

export const ENERGY_PERIODS = ['today', 'week', 'month', 'year'] as const;
export type EnergyPeriod = (typeof ENERGY_PERIODS)[number];

/** [from, to) in epoch ms. */
export interface Span {
  from: number;
  to: number;
}

export type Bucket = 'hour' | 'day' | 'month';

export interface PeriodPlan {
  period: EnergyPeriod;
  current: Span;
  previous: Span;
  /** The hub resolution whose window covers both spans (the hub keeps a year: `year`'s previous span may be partly outside). */
  resolution: InsightsResolution;
  /** The bars' step within the current span. */
  bucket: Bucket;
}

const startOfDay = (time: number): number => new Date(time).setHours(0, 0, 0, 0);

/** Local midnight `days` days after the day of `time` (a day is not always 24 hours: daylight saving). */
const addDays = (day: number, days: number): number => {
  const date = new Date(day);
  date.setDate(date.getDate() + days);
  return date.getTime();
};

const startOfMonth = (time: number, monthsAfter = 0): number => {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth() + monthsAfter, 1).getTime();
};

const startOfYear = (time: number, yearsAfter = 0): number => new Date(new Date(time).getFullYear() + yearsAfter, 0, 1).getTime();

/** Weeks start on Monday (ISO 8601), as in most of the places the app is used. */
const startOfWeek = (time: number): number => {
  const day = startOfDay(time);
  const sinceMonday = (new Date(day).getDay() + 6) % 7;
  return addDays(day, -sinceMonday);
};

export function periodPlan(period: EnergyPeriod, now: number): PeriodPlan {
  const end = now + 1; // the current span includes now
  switch (period) {
    case 'today': {
      const from = startOfDay(now);
      return { period, current: { from, to: end }, previous: { from: addDays(from, -1), to: from }, resolution: 'last3Days', bucket: 'hour' };
    }
    case 'week': {
      const from = startOfWeek(now);
      return { period, current: { from, to: end }, previous: { from: addDays(from, -7), to: from }, resolution: 'last14Days', bucket: 'day' };
    }
    case 'month': {
      const from = startOfMonth(now);
      return { period, current: { from, to: end }, previous: { from: startOfMonth(now, -1), to: from }, resolution: 'last3Months', bucket: 'day' };
    }
    case 'year': {
      const from = startOfYear(now);
      return { period, current: { from, to: end }, previous: { from: startOfYear(now, -1), to: from }, resolution: 'lastYear', bucket: 'month' };
    }
  }
}

/** The starts of the buckets of `span`, ascending (the last one may be partial). */
export function bucketStarts(span: Span, bucket: Bucket): number[] {
  const starts: number[] = [];
  const next = (time: number) => (bucket === 'hour' ? time + 3_600_000 : bucket === 'day' ? addDays(time, 1) : startOfMonth(time, 1));
  for (let time = span.from; time < span.to; time = next(time)) starts.push(time);
  return starts;
}

export interface MeterReadings {
  /** Step starts, epoch ms, rising. */
  times: readonly number[];
  values: readonly (number | null)[];
}

export interface SpanUse {
  used: number;
  /** No reading before the span's start: counted from its first reading (the history starts inside it). */
  partial: boolean;
  /** No reading in the span at all. */
  empty: boolean;
}

/** What the meter counted in `span` (see the top of this file). */
export function countedIn(meter: MeterReadings, span: Span): SpanUse {
  let previous: number | null = null;
  let hadBaseline = false;
  let seen = false;
  let used = 0;
  for (let i = 0; i < meter.times.length; i++) {
    const time = meter.times[i]!;
    const value = meter.values[i];
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    if (time >= span.to) break;
    if (time < span.from) {
      previous = value;
      hadBaseline = true;
    } else if (!seen && !hadBaseline) {
      seen = true;
      previous = value; // no reading before the span: count from its first
    } else {
      seen = true;
      used += value >= previous! ? value - previous! : value;
      previous = value;
    }
  }
  return { used, partial: seen && !hadBaseline, empty: !seen };
}

/** What the meter counted in each bucket of `span`. */
export function countedByBucket(meter: MeterReadings, span: Span, bucket: Bucket): number[] {
  const starts = bucketStarts(span, bucket);
  return starts.map((from, i) => countedIn(meter, { from, to: starts[i + 1] ?? span.to }).used);
}

/** The change from the previous period as a signed fraction (0.12 is 12 % more); null when the previous used nothing. */
export function change(current: number, previous: number): number | null {
  return previous > 0 ? (current - previous) / previous : null;
}

export interface MeterInput {
  /** Unique across hubs: `<hubId>\u0000<deviceId>`. */
  key: string;
  name: string;
  hubName: string;
  readings: MeterReadings;
}

export interface DeviceEnergy {
  key: string;
  name: string;
  hubName: string;
  current: number;
  previous: number;
  /** Per bucket of the current span. */
  byBucket: number[];
}

export interface EnergySummary {
  plan: PeriodPlan;
  buckets: number[];
  current: number;
  previous: number;
  /** Some meter's history starts inside the previous span (or after it): its figure is less than was used. */
  previousPartial: boolean;
  /** Largest use in the current span first. */
  devices: DeviceEnergy[];
  /** The home's use per bucket. */
  totals: number[];
}

export function summarise(meters: readonly MeterInput[], plan: PeriodPlan): EnergySummary {
  const buckets = bucketStarts(plan.current, plan.bucket);
  const totals = buckets.map(() => 0);
  let previousPartial = false;
  const devices = meters.map(({ key, name, hubName, readings }): DeviceEnergy => {
    const before = countedIn(readings, plan.previous);
    if (before.partial || (before.empty && readings.times.length > 0 && readings.times[0]! >= plan.previous.from)) previousPartial = true;
    const byBucket = countedByBucket(readings, plan.current, plan.bucket);
    byBucket.forEach((used, i) => (totals[i]! += used));
    return { key, name, hubName, current: countedIn(readings, plan.current).used, previous: before.used, byBucket };
  });
  devices.sort((a, b) => b.current - a.current || a.name.localeCompare(b.name));
  const sum = (pick: (device: DeviceEnergy) => number) => devices.reduce((total, device) => total + pick(device), 0);
  return { plan, buckets, current: sum((device) => device.current), previous: sum((device) => device.previous), previousPartial, devices, totals };
}
