import { describe, expect, it } from 'vitest';
import { formatAgo, lastConfirmed } from '../../../../renderer/src/format/relative-time';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const before = (ms: number) => NOW - ms;

describe('formatAgo', () => {
  it.each<[number, string]>([
    [0, 'just now'],
    [59_999, 'just now'],
    [60_000, '1 min ago'],
    [2 * 60_000 + 59_000, '2 min ago'], // rounded down: never fresher than it is
    [59 * 60_000, '59 min ago'],
    [60 * 60_000, '1 h ago'],
    [23 * 3_600_000 + 59 * 60_000, '23 h ago'],
    [24 * 3_600_000, '1 day ago'],
    [3 * 24 * 3_600_000, '3 days ago'],
    [-5_000, 'just now'], // a clock slightly ahead
  ])('%i ms ago is %s', (elapsed, words) => {
    expect(formatAgo(before(elapsed), NOW)).toBe(words);
  });

  it('an unknown time is not turned into a number of minutes', () => {
    expect(formatAgo(Number.NaN, NOW)).toBe('just now');
  });
});

describe('lastConfirmed', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  it('is the later of the value’s own time and the moment the whole view was last confirmed', () => {
    expect(lastConfirmed(iso(before(3_600_000)), before(120_000))).toBe(before(120_000));
    expect(lastConfirmed(iso(before(1_000)), before(120_000))).toBe(before(1_000));
  });
  it('falls back to whichever is known, and is null when neither is', () => {
    expect(lastConfirmed(null, before(5_000))).toBe(before(5_000));
    expect(lastConfirmed('not a date', before(5_000))).toBe(before(5_000));
    expect(lastConfirmed(iso(before(5_000)), null)).toBe(before(5_000));
    expect(lastConfirmed(null, null)).toBeNull();
  });
});
