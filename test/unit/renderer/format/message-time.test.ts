import { describe, expect, it } from 'vitest';
import { formatFullTime, formatRowTime, formatTime } from '../../../../renderer/src/format/message-time';

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
