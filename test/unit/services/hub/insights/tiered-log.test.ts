/**
 * The insights store on explicit (fake) time: what a step's value is made of (time-weighted mean,
 * meter last, boolean any-true), values carried across steps with no change, the tiers and their
 * retention (the ring wraps without mixing laps), and buffers that grow only with the recorded span.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSIGHTS_RESOLUTIONS } from '../../../../../common/insights';
import { INSIGHTS_TIERS, TieredLog } from '../../../../../services/hub/insights/tiered-log';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A whole day, so every tier's steps start on it. */
const T0 = Date.parse('2025-03-10T00:00:00Z');
const step = (stepMs: number, time: number) => Math.floor(time / stepMs);

describe('TieredLog', () => {
  it('has one tier per resolution step, each keeping at least the longest window that reads it', () => {
    for (const { windowMs, stepMs } of Object.values(INSIGHTS_RESOLUTIONS)) {
      const tier = INSIGHTS_TIERS.find((candidate) => candidate.stepMs === stepMs);
      expect(tier).toBeDefined();
      expect(tier!.retentionMs).toBeGreaterThanOrEqual(windowMs);
    }
  });

  it('reads null before the first value and carries a value across steps with no change', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0 + 3 * MINUTE, 21);
    const values = log.read(MINUTE, step(MINUTE, T0), 10, T0 + 9 * MINUTE + 30_000);
    expect(values).toEqual([null, null, null, 21, 21, 21, 21, 21, 21, 21]);
  });

  it('weights a step’s mean by how long each value held, the open segment counted up to now', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0, 10);
    log.set(T0 + 45_000, 20); // 10 for 45 s, then 20
    expect(log.read(MINUTE, step(MINUTE, T0), 1, T0 + 60_000)).toEqual([12.5]);
    // Read mid-step: 10 for 45 s and 20 for 5 s so far.
    expect(log.read(MINUTE, step(MINUTE, T0), 1, T0 + 50_000)[0]).toBeCloseTo((10 * 45 + 20 * 5) / 50, 10);
    // The hour tier: 10 for 45 s and 20 for the rest of the hour.
    expect(log.read(HOUR, step(HOUR, T0), 1, T0 + HOUR)[0]).toBeCloseTo((10 * 45 + 20 * 3555) / 3600, 10);
  });

  it('splits a value held across a tier boundary between the steps it spans', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0, 0);
    log.set(T0 + HOUR - 15 * MINUTE, 8); // 8 from 00:45 to 01:15, then 0
    log.set(T0 + HOUR + 15 * MINUTE, 0);
    expect(log.read(HOUR, step(HOUR, T0), 2, T0 + 2 * HOUR)).toEqual([2, 2]);
    expect(log.read(5 * MINUTE, step(5 * MINUTE, T0 + HOUR - 15 * MINUTE), 8, T0 + 2 * HOUR)).toEqual([8, 8, 8, 8, 8, 8, 0, 0]);
  });

  it('keeps a meter’s last value of each step', () => {
    const log = new TieredLog('last', T0);
    log.set(T0, 100);
    log.set(T0 + 20_000, 100.5);
    log.set(T0 + 50_000, 101.25);
    expect(log.read(MINUTE, step(MINUTE, T0), 3, T0 + 2 * MINUTE + 1)).toEqual([101.25, 101.25, 101.25]);
  });

  it('shows a boolean true for every step in which it was true at any moment', () => {
    const log = new TieredLog('any', T0);
    log.set(T0, 0);
    log.set(T0 + 2 * MINUTE + 10_000, 1); // a door open for 5 s in the third minute
    log.set(T0 + 2 * MINUTE + 15_000, 0);
    expect(log.read(MINUTE, step(MINUTE, T0), 5, T0 + 5 * MINUTE)).toEqual([0, 0, 1, 0, 0]);
    expect(log.read(HOUR, step(HOUR, T0), 1, T0 + 5 * MINUTE)).toEqual([1]);
  });

  it('shows a value set at this very instant in its step', () => {
    const log = new TieredLog('any', T0);
    log.set(T0, 0);
    log.set(T0 + 30_000, 1);
    expect(log.read(MINUTE, step(MINUTE, T0), 1, T0 + 30_000)).toEqual([1]);
  });

  it('forgets what is older than a tier’s retention, and a wrapped ring does not mix the previous lap in', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0, 1);
    log.set(T0 + DAY, 2); // 1 all the first day; the minute ring (a day) is full
    log.set(T0 + DAY + 30 * MINUTE, 3);
    const now = T0 + DAY + 40 * MINUTE;
    const minutes = log.read(MINUTE, step(MINUTE, T0), 24 * 60 + 40, now);
    // The first 30 minutes of the first day were overwritten by the second day's first 30 (the
    // last change); the open segment since then is counted when read, not written.
    expect(minutes.slice(0, 30).every((value) => value === null)).toBe(true);
    expect(minutes.slice(30, 24 * 60).every((value) => value === 1)).toBe(true);
    expect(minutes.slice(24 * 60, 24 * 60 + 30).every((value) => value === 2)).toBe(true);
    expect(minutes.slice(24 * 60 + 30).every((value) => value === 3)).toBe(true);
    // The hour tier keeps all of it; the current hour so far: 2 for 30 min, 3 for 10.
    expect(log.read(HOUR, step(HOUR, T0), 25, now)).toEqual([...Array<number>(24).fill(1), 2.25]);
  });

  it('after a silence longer than the retention, holds only the current value', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0, 5);
    const later = T0 + 3 * DAY;
    log.set(later, 6);
    const minutes = log.read(MINUTE, step(MINUTE, later) - 24 * 60 + 1, 24 * 60, later + MINUTE);
    expect(minutes.slice(0, -1).every((value) => value === 5)).toBe(true);
    expect(minutes.at(-1)).toBe(6);
  });

  it('allocates its buffers as the recorded span grows, up to the retention', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0, 1);
    log.set(T0 + MINUTE, 2);
    const small = log.bytes;
    expect(small).toBeLessThan(1024);
    log.set(T0 + 2 * DAY, 3);
    const grown = log.bytes;
    expect(grown).toBeGreaterThan(small);
    log.set(T0 + 2 * 365 * DAY, 4);
    const full = INSIGHTS_TIERS.reduce((sum, { stepMs, retentionMs }) => sum + (retentionMs / stepMs) * 12, 0);
    expect(log.bytes).toBe(full);
  });

  it('treats a change dated before the previous one as made at the previous one’s time', () => {
    const log = new TieredLog('mean', T0);
    log.set(T0 + 30_000, 4);
    log.set(T0 + 10_000, 8); // the clock stepped back
    expect(log.read(MINUTE, step(MINUTE, T0), 1, T0 + 60_000)).toEqual([8]);
  });

  it('agrees with a direct computation for any sequence of changes (property)', () => {
    const changes = fc.array(fc.record({ after: fc.integer({ min: 1, max: 20 * MINUTE }), value: fc.integer({ min: -50, max: 50 }) }), {
      minLength: 1,
      maxLength: 40,
    });
    fc.assert(
      fc.property(changes, fc.constantFrom<'mean' | 'last' | 'any'>('mean', 'last', 'any'), (list, aggregation) => {
        const log = new TieredLog(aggregation, T0);
        const segments: { from: number; value: number }[] = [];
        let time = T0;
        for (const { after, value } of list) {
          time += after;
          const stored = aggregation === 'any' ? (value > 0 ? 1 : 0) : value;
          log.set(time, stored);
          segments.push({ from: time, value: stored });
        }
        const now = time + 7 * MINUTE;
        const first = step(5 * MINUTE, T0);
        const count = Math.ceil((now - T0) / (5 * MINUTE)) + 1;
        const got = log.read(5 * MINUTE, first, count, now);
        for (let i = 0; i < count; i++) {
          const from = (first + i) * 5 * MINUTE;
          const to = Math.min(now, from + 5 * MINUTE);
          const parts = segments
            .map((segment, j) => ({ value: segment.value, ms: Math.max(0, Math.min(to, segments[j + 1]?.from ?? now) - Math.max(from, segment.from)) }))
            .filter((part) => part.ms > 0);
          if (parts.length === 0) expect(got[i]).toBeNull();
          else if (aggregation === 'mean')
            expect(got[i]).toBeCloseTo(parts.reduce((sum, part) => sum + part.value * part.ms, 0) / parts.reduce((sum, part) => sum + part.ms, 0), 9);
          else if (aggregation === 'last') expect(got[i]).toBe(parts.at(-1)!.value);
          else expect(got[i]).toBe(parts.some((part) => part.value === 1) ? 1 : 0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
