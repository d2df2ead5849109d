/**
 * The energy view's words, numbers and CSV (docs/insights-app.md, "Energy"), in the user's locale
 * (`locale` undefined: the browser's).
 */
import { type Bucket, change, type EnergyPeriod, type EnergySummary } from './energy-periods';
import { csvCell } from './insights-series';
import { type DateTimeShape, formatAt } from './date-time';

export const PERIOD_WORDS: Readonly<Record<EnergyPeriod, { label: string; current: string; previous: string }>> = {
  today: { label: 'Today', current: 'Today', previous: 'Yesterday' },
  week: { label: 'Week', current: 'This week', previous: 'Last week' },
  month: { label: 'Month', current: 'This month', previous: 'Last month' },
  year: { label: 'Year', current: 'This year', previous: 'Last year' },
};

export interface EnergyFormats {
  energy(value: number, units: string): string;
  cost(value: number): string | null;
  bucket(start: number, bucket: Bucket): string;
}

/** Formatters made once per locale and price (Intl formatters are costly to make). */
export function energyFormats(price: { perKwh: number | null; currency: string }, locale?: string): EnergyFormats {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: price.currency });
  const bucketShape: Record<Bucket, DateTimeShape> = { hour: 'clock', day: 'weekday', month: 'month' };
  return {
    energy: (value, units) => `${number.format(value)} ${units}`,
    cost: (value) => (price.perKwh === null ? null : money.format(value * price.perKwh)),
    bucket: (start, bucket) => formatAt(start, bucketShape[bucket], locale),
  };
}

/** "12 % less than last week", "3 % more than yesterday", "the same as last month"; null when last period used nothing. */
export function changeWords(summary: Pick<EnergySummary, 'current' | 'previous' | 'plan'>): string | null {
  const fraction = change(summary.current, summary.previous);
  if (fraction === null) return null;
  const previous = PERIOD_WORDS[summary.plan.period].previous.toLowerCase();
  const percent = Math.round(Math.abs(fraction) * 100);
  if (percent === 0) return `the same as ${previous}`;
  return `${percent} % ${fraction < 0 ? 'less' : 'more'} than ${previous}`;
}

/** The stacked bars' words: the period's total, its highest bucket, and the largest consumer. */
export function describeEnergyBars(summary: EnergySummary, formats: EnergyFormats, units: string): string {
  const { plan, buckets, totals, devices } = summary;
  const period = PERIOD_WORDS[plan.period].current;
  if (devices.length === 0) return `Energy used ${period.toLowerCase()}: no meter readings.`;
  let high = 0;
  totals.forEach((total, i) => {
    if (total > totals[high]!) high = i;
  });
  const top = devices[0]!;
  return `Energy used ${period.toLowerCase()}, per ${plan.bucket}: ${formats.energy(summary.current, units)} in all; most at ${formats.bucket(buckets[high]!, plan.bucket)} (${formats.energy(totals[high]!, units)}); largest user ${top.name} (${formats.energy(top.current, units)}).`;
}

/** The current period as CSV: one row per bucket (its local start, ISO 8601 without zone), one column per device and the total. */
export function energyPeriodCsv(summary: EnergySummary, units: string): string {
  const header = ['start', ...summary.devices.map((device) => `${device.name} · ${device.hubName} (${units})`), `Total (${units})`].map(csvCell).join(',');
  const rows = summary.buckets.map((start, i) =>
    [localIso(start), ...summary.devices.map((device) => String(device.byBucket[i])), String(summary.totals[i])].join(','),
  );
  return `${[header, ...rows].join('\r\n')}\r\n`;
}

/** A local time as YYYY-MM-DDTHH:MM. */
function localIso(time: number): string {
  const date = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}
