/**
 * Every date and time the app shows, made here and nowhere else (docs/decisions.md, "The interface", dates and times):
 * in the user's locale (the runtime's, or the `locale` a test names), with a 24-hour clock, so a chart's
 * axis, its readout, a card's "at 14:05" and an inspector row read alike. One formatter per shape and
 * locale, made once: `toLocaleTimeString` with options makes a new one per call (about 50 µs; found in a
 * profile at 500 messages/s, and in the first render of a 1,000-device hub). "Today" is the local
 * calendar day.
 */
import { oneLine } from '../../../common/one-line';

const CLOCK = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
const CLOCK_SECONDS = { ...CLOCK, second: '2-digit' } as const;

const SHAPES = {
  /** 14:05 */
  clock: CLOCK,
  /** 14:05:09 */
  time: CLOCK_SECONDS,
  /** 26 Nov, 14:05 */
  'day-clock': { day: 'numeric', month: 'short', ...CLOCK },
  /** 26 Nov, 14:05:09 */
  'day-time': { day: 'numeric', month: 'short', ...CLOCK_SECONDS },
  /** 31 Dec 2025, 23:00:00 */
  'year-day-time': { day: 'numeric', month: 'short', year: 'numeric', ...CLOCK_SECONDS },
  /** 26 Nov 2026, 14:05 */
  moment: { day: 'numeric', month: 'short', year: 'numeric', ...CLOCK },
  /** 26 Nov 2026, 14:05:09 */
  full: { day: 'numeric', month: 'short', year: 'numeric', ...CLOCK_SECONDS },
  /** 26 Nov */
  day: { day: 'numeric', month: 'short' },
  /** Thu 26 Nov */
  weekday: { weekday: 'short', day: 'numeric', month: 'short' },
  /** November */
  month: { month: 'long' },
  /** Nov 2026 */
  'month-year': { month: 'short', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateTimeShape = keyof typeof SHAPES;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a shape, made once per locale (at most a few locales are ever asked for). */
function formatter(shape: DateTimeShape, locale: string | undefined): Intl.DateTimeFormat {
  const key = `${shape}|${locale ?? ''}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, SHAPES[shape]);
    formatters.set(key, made);
  }
  return made;
}

/** A time (epoch ms) in one of the app's shapes. */
export function formatAt(at: number, shape: DateTimeShape, locale?: string): string {
  return formatter(shape, locale).format(at);
}

/** `iso` as epoch ms, or its text made one safe line when it is not a time (an imported file may say anything). */
function parsed(iso: string): number | string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? oneLine(iso, 64) : at;
}

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** The time of day alone, with seconds. */
export function formatTime(iso: string, locale?: string): string {
  const at = parsed(iso);
  return typeof at === 'string' ? at : formatAt(at, 'time', locale);
}

/** A row's time: the time alone today, else the date and the time, with the year when it is not `now`'s year. */
export function formatRowTime(iso: string, now: number, locale?: string): string {
  const at = parsed(iso);
  if (typeof at === 'string') return at;
  const date = new Date(at);
  const today = new Date(now);
  return formatAt(at, sameDay(date, today) ? 'time' : date.getFullYear() === today.getFullYear() ? 'day-time' : 'year-day-time', locale);
}

/** The date and the time, whenever it was: a detail pane's. */
export function formatFullTime(iso: string, locale?: string): string {
  const at = parsed(iso);
  return typeof at === 'string' ? at : formatAt(at, 'full', locale);
}

/** A card's time: "14:05" today, else "26 Nov, 14:05"; null when `iso` is not a time. */
export function formatCardTime(iso: string, now: number, locale?: string): string | null {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return null;
  return formatAt(at, sameDay(new Date(at), new Date(now)) ? 'clock' : 'day-clock', locale);
}

const DAY_MS = 24 * 60 * 60 * 1000;

const isMidnight = (at: number) => {
  const date = new Date(at);
  return date.getHours() === 0 && date.getMinutes() === 0;
};

/**
 * A chart's time-axis labels, from the spacing of its ticks (`stepMs`, uPlot's increment), so that
 * ticks twelve hours apart do not read "26 Nov" twice: under a day apart they read the clock, except at
 * a new calendar day, which reads the day ("26 Nov" at midnight, then "06:00", "12:00"…); a day or more
 * apart, the day; a month or more apart, the month.
 */
export function axisLabels(ticks: readonly number[], stepMs: number, locale?: string): string[] {
  if (stepMs >= 28 * DAY_MS) return ticks.map((at) => formatAt(at, 'month-year', locale));
  if (stepMs >= DAY_MS) return ticks.map((at) => formatAt(at, 'day', locale));
  return ticks.map((at, index) => {
    const startsDay = index === 0 ? isMidnight(at) : !sameDay(new Date(ticks[index - 1]!), new Date(at));
    return formatAt(at, startsDay ? 'day' : 'clock', locale);
  });
}
