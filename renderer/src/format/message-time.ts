/**
 * When a message arrived, in the user's locale (docs/webhooks-app.md, "Rows and routing words"): a row
 * says the time alone for today's messages and the date with the time otherwise (with the year when it
 * is not this year); the detail pane always says both. "Today" is the local calendar day.
 */
import { oneLine } from '../../../common/one-line';

type Shape = 'time' | 'date-time' | 'year-date-time' | 'full';

const SHAPES: Record<Shape, Intl.DateTimeFormatOptions> = {
  time: { hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false },
  'date-time': { day: 'numeric', month: 'short', hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false },
  'year-date-time': { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false },
  full: { dateStyle: 'medium', timeStyle: 'medium', hour12: false },
};

/**
 * One formatter per shape and locale, made once: `toLocaleTimeString` with options makes a new one per
 * call (about 50 µs; found in a profile at 500 messages/s). At most a few locales are ever asked for.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(shape: Shape, locale: string | undefined): Intl.DateTimeFormat {
  const key = `${shape}|${locale ?? ''}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, SHAPES[shape]);
    formatters.set(key, made);
  }
  return made;
}

/** `iso` as a Date, or its text made one safe line when it is not a time (an imported file may say anything). */
function parsed(iso: string): Date | string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? oneLine(iso, 64) : date;
}

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** The time of day alone. */
export function formatTime(iso: string, locale?: string): string {
  const date = parsed(iso);
  return typeof date === 'string' ? date : formatter('time', locale).format(date);
}

/** A row's time: the time alone today, else the date and the time, with the year when it is not `now`'s year. */
export function formatRowTime(iso: string, now: number, locale?: string): string {
  const date = parsed(iso);
  if (typeof date === 'string') return date;
  const today = new Date(now);
  const shape = sameDay(date, today) ? 'time' : date.getFullYear() === today.getFullYear() ? 'date-time' : 'year-date-time';
  return formatter(shape, locale).format(date);
}

/** The date and the time, whenever it was: the detail pane's. */
export function formatFullTime(iso: string, locale?: string): string {
  const date = parsed(iso);
  return typeof date === 'string' ? date : formatter('full', locale).format(date);
}
