/**
 * Energy per day from meter logs (issue 16 §2), and the home's power now. A `meter_power` step holds
 * the meter's last reading in that step (common/insights.ts, aggregation `last`), so what a device used
 * on a day is its last reading of that day minus its last reading of the day before; the first day of
 * the range counts from the range's first reading. A meter that went down was reset (replaced, or
 * its counter wrapped): that day counts from zero, i.e. its last reading.
 */
import type { Device } from '../../../common/wire';
import { csvCell } from './insights-series';

/** Local midnight of the day `time` falls on (epoch ms): the user's days, not UTC's. */
export const localDay = (time: number): number => new Date(time).setHours(0, 0, 0, 0);

export interface DailyUse {
  /** Each day's start (epoch ms), ascending. */
  days: number[];
  /** What was used on each day, in the meter's unit (kWh). */
  used: number[];
}

export function dailyUse(times: readonly number[], values: readonly (number | null)[], dayOf: (time: number) => number = localDay): DailyUse {
  const lastOfDay = new Map<number, number>();
  let first: number | null = null;
  for (let i = 0; i < times.length; i++) {
    const value = values[i];
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    first ??= value;
    lastOfDay.set(dayOf(times[i]!), value); // times rise, so days are inserted in order and each keeps its last reading
  }
  const result: DailyUse = { days: [], used: [] };
  let previous = first;
  for (const [day, last] of lastOfDay) {
    result.days.push(day);
    result.used.push(previous !== null && last >= previous ? last - previous : last);
    previous = last;
  }
  return result;
}

export interface DeviceUse extends DailyUse {
  deviceId: string;
}

export interface HomeEnergy {
  /** Every day any meter has a reading on, ascending. */
  days: number[];
  /** Per device, its use on each of `days` (0 where it has no reading), and its total over the range; largest total first. */
  devices: { deviceId: string; used: number[]; total: number }[];
  /** The whole home's use on each of `days`. */
  totals: number[];
}

/** The devices' daily use on one calendar of days. */
export function homeEnergy(uses: readonly DeviceUse[]): HomeEnergy {
  const days = [...new Set(uses.flatMap((use) => use.days))].sort((a, b) => a - b);
  const index = new Map(days.map((day, i) => [day, i]));
  const totals = days.map(() => 0);
  const devices = uses.map(({ deviceId, days: own, used }) => {
    const row = days.map(() => 0);
    own.forEach((day, i) => {
      row[index.get(day)!] = used[i]!;
      totals[index.get(day)!]! += used[i]!;
    });
    return { deviceId, used: row, total: used.reduce((sum, value) => sum + value, 0) };
  });
  devices.sort((a, b) => b.total - a.total || a.deviceId.localeCompare(b.deviceId));
  return { days, devices, totals };
}

/** The home's power now: the sum of every available device's `measure_power` (W); null when none reports one. */
export function homePower(devices: Readonly<Record<string, Device>>): { watts: number; devices: number } | null {
  let watts = 0;
  let count = 0;
  for (const device of Object.values(devices)) {
    const value = device.capabilitiesObj?.measure_power?.value;
    if (device.available === false || typeof value !== 'number' || !Number.isFinite(value)) continue;
    watts += value;
    count++;
  }
  return count === 0 ? null : { watts, devices: count };
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short' });
const energyFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "1.25 kWh" */
export const formatEnergy = (value: number, units: string): string => `${energyFormat.format(value)} ${units}`;

/** The words for the energy bars: the range's total, its highest and lowest day, and the last day. */
export function describeEnergy(home: Pick<HomeEnergy, 'days' | 'totals'>, rangeLabel: string, units: string, formatDay: (day: number) => string = (day) => dayFormat.format(day)): string {
  if (home.days.length === 0) return `Energy used per day over ${rangeLabel}: no meter readings.`;
  let high = 0;
  let low = 0;
  home.totals.forEach((total, i) => {
    if (total > home.totals[high]!) high = i;
    if (total < home.totals[low]!) low = i;
  });
  const total = home.totals.reduce((sum, value) => sum + value, 0);
  const day = (i: number) => `${formatDay(home.days[i]!)} (${formatEnergy(home.totals[i]!, units)})`;
  return `Energy used per day over ${rangeLabel}: ${formatEnergy(total, units)} in all; most on ${day(high)}, least on ${day(low)}, last ${day(home.days.length - 1)}.`;
}

/** The shown days as CSV: one row per day (its local date), one column per device in the shown order, and the home's total. */
export function energyCsv(home: HomeEnergy, nameOf: (deviceId: string) => string, units: string): string {
  const header = ['day', ...home.devices.map((device) => `${nameOf(device.deviceId)} (${units})`), `Total (${units})`].map(csvCell).join(',');
  const rows = home.days.map((day, i) => [isoDate(day), ...home.devices.map((device) => String(device.used[i])), String(home.totals[i])].join(','));
  return `${[header, ...rows].join('\r\n')}\r\n`;
}

/** A local day as YYYY-MM-DD. */
function isoDate(day: number): string {
  const date = new Date(day);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
