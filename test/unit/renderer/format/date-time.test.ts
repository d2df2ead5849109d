import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { axisLabels, formatAt, formatCardTime, formatFullTime, formatRowTime, formatTime } from '../../../../renderer/src/format/date-time';

// Local times, so "today" is the same day whatever the machine's time zone.
const at = (...parts: [number, number, number, number, number, number]) => new Date(...parts).toISOString();
const now = new Date(2026, 10, 27, 15, 0, 0).getTime();

describe('message times', () => {
  it('a row shows the time alone for a message of today', () => {
    expect(formatRowTime(at(2026, 10, 27, 9, 5, 3), now, 'en-GB')).toBe('09:05:03');
    expect(formatRowTime(at(2026, 10, 27, 0, 0, 0), now, 'en-GB')).toBe('00:00:00');
    expect(formatRowTime(at(2026, 10, 27, 9, 5, 3), now, 'en-GB')).toBe(formatTime(at(2026, 10, 27, 9, 5, 3), 'en-GB'));
  });

  it('a row shows the date too for any other day, and the year when it is not this one', () => {
    expect(formatRowTime(at(2026, 10, 26, 23, 59, 59), now, 'en-GB')).toBe('26 Nov, 23:59:59');
    expect(formatRowTime(at(2026, 0, 2, 8, 0, 0), now, 'en-GB')).toBe('2 Jan, 08:00:00');
    expect(formatRowTime(at(2025, 11, 31, 23, 0, 0), now, 'en-GB')).toBe('31 Dec 2025, 23:00:00');
    // A message from a clock ahead of ours (tomorrow) is not "today" either.
    expect(formatRowTime(at(2026, 10, 28, 0, 0, 1), now, 'en-GB')).toBe('28 Nov, 00:00:01');
  });

  it('follows the locale', () => {
    expect(formatRowTime(at(2026, 10, 26, 14, 3, 2), now, 'en-US')).toBe('Nov 26, 14:03:02');
    expect(formatRowTime(at(2026, 10, 26, 14, 3, 2), now, 'de-DE')).toBe('26. Nov., 14:03:02');
  });

  it('the detail pane always says the date and the time', () => {
    expect(formatFullTime(at(2026, 10, 27, 9, 5, 3), 'en-GB')).toBe('27 Nov 2026, 09:05:03');
  });

  it('shows what an imported file says, on one line, when it is not a time', () => {
    expect(formatRowTime('yesterday\nat noon', now)).toBe('yesterday at noon');
    expect(formatFullTime('not a time')).toBe('not a time');
  });
});

describe('one date and time format across the app', () => {
  const noon = new Date(2026, 10, 27, 14, 5, 9).getTime();

  it('a 24-hour clock in every locale, the day and month as the locale writes them', () => {
    expect(formatAt(noon, 'clock', 'en-US')).toBe('14:05');
    expect(formatAt(noon, 'moment', 'en-GB')).toBe('27 Nov 2026, 14:05');
    expect(formatAt(noon, 'moment', 'en-US')).toBe('Nov 27, 2026, 14:05');
    expect(formatAt(noon, 'weekday', 'en-GB')).toBe('Fri 27 Nov');
  });

  it("a card's time: the clock today, the day too otherwise; nothing for what is not a time", () => {
    expect(formatCardTime(new Date(noon).toISOString(), now, 'en-GB')).toBe('14:05');
    expect(formatCardTime(new Date(2026, 10, 26, 8, 0).toISOString(), now, 'en-GB')).toBe('26 Nov, 08:00');
    expect(formatCardTime('soon', now, 'en-GB')).toBeNull();
  });

  it("a chart's time axis: the clock under a day apart, the day at each midnight, the month a month apart", () => {
    const hour = 60 * 60 * 1000;
    const day = 24 * hour;
    const at = (date: number, hours: number) => new Date(2026, 10, date, hours).getTime();
    // Twelve hours apart over three days (a week's chart once narrow): the day at each midnight, the clock between.
    expect(axisLabels([at(25, 12), at(26, 0), at(26, 12), at(27, 0)], 12 * hour, 'en-GB')).toEqual(['12:00', '26 Nov', '12:00', '27 Nov']);
    expect(axisLabels([at(26, 6), at(26, 12), at(26, 18)], 6 * hour, 'en-GB')).toEqual(['06:00', '12:00', '18:00']);
    expect(axisLabels([at(23, 0), at(24, 0), at(25, 0)], day, 'en-GB')).toEqual(['23 Nov', '24 Nov', '25 Nov']);
    expect(axisLabels([new Date(2026, 0, 1).getTime(), new Date(2026, 1, 1).getTime()], 31 * day, 'en-GB')).toEqual(['Jan 2026', 'Feb 2026']);
    expect(axisLabels([at(26, 0), at(26, 6)], 6 * hour, 'en-GB')).toEqual(['26 Nov', '06:00']);
  });

  it('is made in date-time.ts only: no other renderer module makes a date format of its own', () => {
    const root = fileURLToPath(new URL('../../../../renderer/src/', import.meta.url));
    const own = /\bDateTimeFormat\b|\.toLocale(?:Date|Time)?String\(/;
    const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(join('format', 'date-time.ts')))
      .filter((file) => own.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
