/**
 * Deterministic building blocks of the demo history: noise that is a pure function of a seed and a
 * number (so the same device, capability and time always give the same value), the time of day and
 * week (UTC: the demo home keeps UTC), and daily schedules with per-day jitter.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A 32-bit seed from a string (FNV-1a). */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A value in [0, 1) that depends only on the seed and the integer `n` (a murmur3-style finaliser). */
export function noise(seed: number, n: number): number {
  let h = (seed ^ Math.imul(n | 0, 0x9e3779b1) ^ Math.imul(Math.floor(n / 4_294_967_296), 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
}

/** Noise that wanders slowly: linear between fresh values every `periodMs`, in [0, 1). */
export function drift(seed: number, time: number, periodMs: number): number {
  const position = time / periodMs;
  const k = Math.floor(position);
  const a = noise(seed, k);
  return a + (noise(seed, k + 1) - a) * (position - k);
}

/** Hours since midnight UTC, in [0, 24). */
export function hourOfDay(time: number): number {
  return (((time % DAY) + DAY) % DAY) / HOUR;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(time: number): number {
  return (((Math.floor(time / DAY) + 4) % 7) + 7) % 7;
}

export const isWeekend = (time: number) => weekday(time) === 0 || weekday(time) === 6;

/** 0 in early January, 1 in early July: how far into the warm half of the year. */
export function summer(time: number): number {
  const dayOfYear = (time / DAY) % 365.25;
  return (1 - Math.cos((2 * Math.PI * (dayOfYear - 10)) / 365.25)) / 2;
}

/**
 * When something is in use, day by day: intervals in hours of the day, each moved by up to ± `jitterMin`
 * minutes in whole five-minute steps (so every edge falls on the five-minute grid the history is made
 * on), each day with probability `chance`, on the days `days` allows.
 */
export interface Schedule {
  intervals: readonly (readonly [number, number])[];
  jitterMin?: number;
  chance?: number;
  days?: 'weekdays' | 'weekends';
}

/**
 * Whether `schedule` has the thing in use at a time, as a function of time. The day's intervals
 * (jittered, chosen by chance) are worked out once per day and kept while the times asked stay in it,
 * as a history walks them.
 */
export function usage(schedule: Schedule, seed: number): (time: number) => boolean {
  const steps = Math.round((schedule.jitterMin ?? 0) / 5);
  let day = NaN;
  let hours: number[] = [];
  return (time) => {
    if (schedule.days === 'weekdays' && isWeekend(time)) return false;
    if (schedule.days === 'weekends' && !isWeekend(time)) return false;
    const today = Math.floor(time / DAY);
    if (today !== day) {
      day = today;
      hours = [];
      schedule.intervals.forEach(([from, to], index) => {
        const n = day * 16 + index;
        if (schedule.chance === undefined || noise(seed ^ 0x5bd1e995, n) < schedule.chance)
          hours.push(from + shift(noise(seed, 2 * n), steps), to + shift(noise(seed, 2 * n + 1), steps));
      });
    }
    const hour = hourOfDay(time);
    for (let i = 0; i < hours.length; i += 2) if (hour >= hours[i]! && hour < hours[i + 1]!) return true;
    return false;
  };
}

/** Hours for a jitter in [0, 1): a whole number of five-minute steps in [−steps, steps]. */
function shift(jitter: number, steps: number): number {
  return (Math.round(jitter * (2 * steps + 1) - 0.5) - steps) * (5 / 60);
}
