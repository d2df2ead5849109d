/**
 * The numbers behind a chart (docs/insights-app.md), pure so each rule is unit-tested: the series as shown (the
 * hub's entries plus the live values appended since), its minimum, maximum, average and last value,
 * a boolean log's on-bands, the words that stand in for the canvas, and the CSV of exactly what is shown.
 */
import type { InsightsLogView, InsightsResolution, InsightsSeries } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import { formatMeasurement } from './format-capability';
import { fileStamp } from './file-stamp';

/** A series as a chart shows it: rising times (epoch ms) and values of the same length. */
export interface ShownSeries {
  times: readonly number[];
  values: readonly (number | null)[];
  /** How far back the range reaches from the last time, in ms (the resolution's window). */
  windowMs: number;
}

/** The most points a shown series keeps: the hub's largest answer and a day of live values per minute beyond it. */
export const MAX_SHOWN_POINTS = 20_000 + 1_440;

export const RANGE_LABELS: Readonly<Partial<Record<InsightsResolution, string>>> = {
  lastHour: 'the last hour',
  last24Hours: 'the last 24 hours',
  last7Days: 'the last 7 days',
  last31Days: 'the last 31 days',
  lastYear: 'the last year',
};

export function shownFrom(series: Pick<InsightsSeries, 'times' | 'values' | 'start' | 'end'>): ShownSeries {
  return { times: series.times, values: series.values, windowMs: Math.max(0, series.end - series.start) };
}

/**
 * The series with a live value appended at `time`: one not newer than the last point is ignored (the
 * hub's entries already hold it), points that fall out of the window at the front are dropped, and
 * the series never holds more than `max` points. Returns the same object when nothing changed.
 */
export function appendLive(series: ShownSeries, time: number, value: number | null, max = MAX_SHOWN_POINTS): ShownSeries {
  const last = series.times[series.times.length - 1];
  if (!Number.isFinite(time) || (last !== undefined && time <= last)) return series;
  const times = [...series.times, time];
  const values = [...series.values, value];
  let from = Math.max(0, times.length - max);
  while (from < times.length - 1 && times[from]! < time - series.windowMs) from++;
  return { ...series, times: from === 0 ? times : times.slice(from), values: from === 0 ? values : values.slice(from) };
}

export interface SeriesStats {
  min: number;
  max: number;
  average: number;
  last: number;
  /** Points with a value (gaps left out of everything above). */
  count: number;
}

/** Minimum, maximum, average and last over the points with a value; null when there are none. */
export function seriesStats(values: readonly (number | null)[]): SeriesStats | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  let last: number | null = null;
  for (const value of values) {
    if (value === null || !Number.isFinite(value)) continue;
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value;
    count++;
    last = value;
  }
  return last === null ? null : { min, max, average: sum / count, last, count };
}

export interface Band {
  from: number;
  to: number;
}

/**
 * Where a boolean log was on: each run of on-values as one band, from its first point to the next
 * point (or `end` for a run still on at the end of the series). A gap ends a band.
 */
export function booleanBands(times: readonly number[], values: readonly (number | null)[], end: number): Band[] {
  const bands: Band[] = [];
  let from: number | null = null;
  for (let i = 0; i < times.length; i++) {
    const on = values[i] !== null && values[i] !== 0;
    if (on && from === null) from = times[i]!;
    if (!on && from !== null) {
      bands.push({ from, to: times[i]! });
      from = null;
    }
  }
  if (from !== null) bands.push({ from, to: Math.max(from, end) });
  return bands;
}

/** What a thermostat's bands show: when it was heating (measured under the target) or cooling (over it). */
export type Conditioning = 'heating' | 'cooling';

/**
 * What a thermostat in `mode` (its `thermostat_mode` now) does to reach its target: a thermostat set to
 * cool cools; heat, auto, off or no mode at all read as heating, the hub keeping no history of the mode.
 */
export function conditioningOf(mode: unknown): Conditioning {
  return mode === 'cool' ? 'cooling' : 'heating';
}

/**
 * When a thermostat was heating or cooling, as its history implies it (the hub records no heater state):
 * each run of steps whose measured temperature is under the target (heating) or over it (cooling), from
 * its first step to the step after its last (or `end`). A step missing either value ends a band.
 */
export function conditioningBands(
  times: readonly number[],
  measured: readonly (number | null)[],
  target: readonly (number | null)[],
  end: number,
  conditioning: Conditioning,
): Band[] {
  const working = conditioning === 'heating' ? (m: number, t: number) => m < t : (m: number, t: number) => m > t;
  return booleanBands(
    times,
    times.map((_, i) => {
      const [m, t] = [measured[i] ?? null, target[i] ?? null];
      return m !== null && t !== null && working(m, t) ? 1 : null;
    }),
    end,
  );
}

/** Whether two logs are a thermostat's measured temperature and target (drawn together, with its heating or cooling bands). */
export function isThermostatPair(first: Pick<InsightsLogView, 'capabilityId'>, second: Pick<InsightsLogView, 'capabilityId'>): boolean {
  return first.capabilityId === 'measure_temperature' && second.capabilityId === 'target_temperature';
}

/** The pair a device's history opens on (indexes into `logs`): a thermostat's measured temperature and target, else its first two logs. */
export function firstPair(logs: readonly Pick<InsightsLogView, 'capabilityId'>[]): [number, number] {
  const measured = logs.findIndex((log) => log.capabilityId === 'measure_temperature');
  const target = logs.findIndex((log) => log.capabilityId === 'target_temperature');
  return measured >= 0 && target >= 0 ? [measured, target] : [0, 1];
}

/** "5 h 20 min", "45 min", "under a minute". */
export function durationWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours > 0 ? `${hours} h` : '', rest > 0 ? `${rest} min` : ''].filter(Boolean).join(' ');
}

/** The words for two series drawn together (their text alternative): each one's last value, and the heating for a thermostat's pair. */
export function describePair(
  logs: readonly [
    Pick<InsightsLogView, 'title' | 'type' | 'decimals' | 'units' | 'capabilityId'>,
    Pick<InsightsLogView, 'title' | 'type' | 'decimals' | 'units' | 'capabilityId'>,
  ],
  rangeLabel: string,
  data: readonly [readonly number[], readonly (number | null)[], readonly (number | null)[]],
  conditioning: Conditioning = 'heating',
): string {
  const [times, first, second] = data;
  const lasts = logs.map((log, i) => {
    const last = seriesStats(i === 0 ? first : second)?.last ?? null;
    return `${log.title} ${last === null ? 'not recorded' : `last ${formatLogValue(log, last)}`}`;
  });
  let working = '';
  if (isThermostatPair(logs[0], logs[1])) {
    const bands = conditioningBands(times, first, second, times[times.length - 1] ?? 0, conditioning);
    const total = bands.reduce((sum, band) => sum + band.to - band.from, 0);
    const [Doing, doing] = conditioning === 'heating' ? ['Heating', 'heating'] : ['Cooling', 'cooling'];
    working = bands.length === 0 ? ` Not ${doing}.` : ` ${Doing} ${bands.length === 1 ? 'once' : `${bands.length} times`}, ${durationWords(total)} in all.`;
  }
  return `${logs[0].title} and ${logs[1].title} over ${rangeLabel}: ${lasts.join('; ')}.${working}`;
}

/** One reading of a log as people read it: "21.5 °C", "on". */
export function formatLogValue(log: Pick<InsightsLogView, 'type' | 'decimals' | 'units'>, value: number | null): string {
  if (value === null) return 'no value';
  if (log.type === 'boolean') return value === 0 ? 'off' : 'on';
  return formatMeasurement(value, log.decimals, log.units);
}

/** The words for a chart (its text alternative): what it shows over which range, its minimum, maximum, average and last value. */
export function describeSeries(log: Pick<InsightsLogView, 'title' | 'type' | 'decimals' | 'units'>, rangeLabel: string, series: ShownSeries): string {
  const stats = seriesStats(series.values);
  if (stats === null) return `${log.title} over ${rangeLabel}: no values recorded.`;
  const format = (value: number) => formatLogValue(log, value);
  if (log.type === 'boolean') {
    const times = booleanBands(series.times, series.values, series.times[series.times.length - 1] ?? 0).length;
    return `${log.title} over ${rangeLabel}: on ${times === 1 ? 'once' : `${times} times`}; last ${format(stats.last)}.`;
  }
  return `${log.title} over ${rangeLabel}: minimum ${format(stats.min)}, maximum ${format(stats.max)}, average ${format(stats.average)}, last ${format(stats.last)}.`;
}

/**
 * The shown series as CSV (RFC 4180): a header, then one row per point, oldest first, the time in ISO
 * 8601 UTC and the value as the hub gave it (a boolean as true/false, a gap empty). A header cell that
 * a spreadsheet would read as a formula is prefixed with an apostrophe.
 */
export function seriesCsv(log: Pick<InsightsLogView, 'title' | 'type' | 'units'>, series: Pick<ShownSeries, 'times' | 'values'>): string {
  const name = log.units ? `${log.title} (${log.units})` : log.title;
  const rows = [`time,${csvCell(name)}`];
  for (let i = 0; i < series.times.length; i++) {
    const value = series.values[i] ?? null;
    const cell = value === null ? '' : log.type === 'boolean' ? String(value !== 0) : String(value);
    rows.push(`${new Date(series.times[i]!).toISOString()},${cell}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** One CSV cell (RFC 4180 quoting); a text a spreadsheet would run as a formula gets an apostrophe first. */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A file name for a chart's CSV: the device and capability, the range, and when. */
export function csvFileName(deviceName: string, log: Pick<InsightsLogView, 'capabilityId'>, resolution: InsightsResolution, now: Date): string {
  const slug =
    `${deviceName}-${log.capabilityId}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'history';
  return `hubdesk-${slug}-${resolution}-${fileStamp(now)}.csv`;
}

/**
 * The log a card's sparkline shows: the device's first measured number (a sensor's reading, not a
 * setting the user changes, nor a meter that only grows), or none.
 */
export function sparklineLog(logs: readonly InsightsLogView[], device: Pick<Device, 'capabilities' | 'capabilitiesObj'>): InsightsLogView | undefined {
  const measured = (log: InsightsLogView) =>
    log.type === 'number' && log.aggregation === 'mean' && device.capabilitiesObj?.[log.capabilityId]?.setable !== true;
  for (const id of device.capabilities) {
    const log = logs.find((candidate) => candidate.capabilityId === id);
    if (log && measured(log)) return log;
  }
  return undefined;
}
