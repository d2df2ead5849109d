/**
 * How the app's charts look and behave, as uPlot options (no React here, so the bench draws exactly
 * these charts): a history line (a boolean log as on/off bands), the sparkline of a card, and the
 * energy view's stacked bars. Times are epoch ms (`ms: 1`), shown in the user's time zone and the app's
 * one date and time format (date-time.ts).
 */
import uPlot from 'uplot';
import { type Band, booleanBands, type Conditioning, conditioningBands } from '../format/insights-series';
import { labelSpace } from '../format/bar-labels';
import type { ChartTheme } from './chart-theme';
import { axisLabels } from '../format/date-time';

export type ChartKind = 'number' | 'boolean';

const FONT = '12px system-ui, sans-serif';

const axis = (theme: ChartTheme, extra: uPlot.Axis = {}): uPlot.Axis => ({
  stroke: theme.text,
  font: FONT,
  grid: { stroke: theme.grid, width: 1 },
  ticks: { stroke: theme.grid, width: 1 },
  ...extra,
});

/** Paints bands behind the lines (below the axes' labels, inside the plot). */
function paintBands(u: uPlot, theme: ChartTheme, bands: readonly Band[]): void {
  const { ctx, bbox } = u;
  ctx.save();
  ctx.fillStyle = theme.fill;
  for (const band of bands) {
    const left = u.valToPos(band.from, 'x', true);
    const right = u.valToPos(band.to, 'x', true);
    ctx.fillRect(left, bbox.top, Math.max(1, right - left), bbox.height);
  }
  ctx.restore();
}

/** Paints a boolean log's on-bands behind its line. */
function drawBands(theme: ChartTheme): (u: uPlot) => void {
  return (u) => {
    const times = u.data[0] as number[];
    paintBands(u, theme, booleanBands(times, u.data[1] as (number | null)[], times[times.length - 1] ?? 0));
  };
}

/** The time axis's labels in the app's format (date-time.ts), as the readout says them; the shape follows the ticks' spacing. */
export function timeAxisValues(_u: uPlot, splits: number[], _axis: number, _space: number, increment: number): string[] {
  return axisLabels(splits, increment);
}

function pointAt(u: uPlot, index: number | null | undefined): [number | null, number | null] {
  if (index === null || index === undefined) return [null, null];
  return [(u.data[0][index] as number | undefined) ?? null, (u.data[1]?.[index] as number | null | undefined) ?? null];
}

export interface TimeChartSetup {
  kind: ChartKind;
  theme: ChartTheme;
  width: number;
  height: number;
  /** The pointer moved to the point at `time` with `value` (time null: it left the chart); for the value under the pointer. */
  onCursor?(time: number | null, value: number | null): void;
}

/** The detail view's chart: axes, grid, a cursor that reports the point under the pointer. */
export function historyChartOptions({ kind, theme, width, height, onCursor }: TimeChartSetup): uPlot.Options {
  const boolean = kind === 'boolean';
  return {
    width,
    height,
    ms: 1,
    legend: { show: false },
    cursor: { y: false, points: { size: 6, fill: theme.line }, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: { x: { time: true }, y: boolean ? { range: [0, 1] } : { auto: true } },
    series: [
      {},
      {
        stroke: theme.line,
        width: 1.5,
        points: { show: false },
        spanGaps: false,
        ...(boolean && { paths: uPlot.paths.stepped!({ align: 1 }) }),
      },
    ],
    axes: [
      axis(theme, { values: timeAxisValues }),
      axis(theme, boolean ? { values: (_u, splits) => splits.map((v) => (v === 1 ? 'on' : v === 0 ? 'off' : '')), splits: () => [0, 1] } : { size: 56 }),
    ],
    hooks: {
      ...(boolean && { drawClear: [drawBands(theme)] }),
      ...(onCursor && { setCursor: [(u: uPlot) => onCursor(...pointAt(u, u.cursor.idx))] }),
    },
  };
}

export interface PairChartSetup {
  theme: ChartTheme;
  width: number;
  height: number;
  /** Both in one unit: one value axis; else the second has its own, on the right. */
  sameUnits: boolean;
  /** A thermostat's measured temperature and target: its heating (or cooling) periods painted as bands; else null. */
  conditioning: Conditioning | null;
  onCursor?(time: number | null, first: number | null, second: number | null): void;
}

/** Two series of one device on one time axis (docs/insights-app.md, "Two series together"); the second dashed. */
export function pairChartOptions({ theme, width, height, sameUnits, conditioning, onCursor }: PairChartSetup): uPlot.Options {
  const line = (stroke: string, scale: string, dash?: number[]): uPlot.Series => ({
    stroke,
    scale,
    width: 1.5,
    points: { show: false },
    spanGaps: false,
    ...(dash && { dash }),
  });
  const second = sameUnits ? 'y' : 'y2';
  return {
    width,
    height,
    ms: 1,
    legend: { show: false },
    cursor: { y: false, points: { size: 6 }, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: { x: { time: true }, y: { auto: true }, ...(!sameUnits && { y2: { auto: true } }) },
    series: [{}, line(theme.line, 'y'), line(theme.text, second, [6, 4])],
    axes: [
      axis(theme, { values: timeAxisValues }),
      axis(theme, { size: 56 }),
      ...(sameUnits ? [] : [axis(theme, { scale: 'y2', side: 1, size: 56, grid: { show: false } })]),
    ],
    hooks: {
      ...(conditioning && {
        drawClear: [
          (u: uPlot) => {
            const [times, measured, target] = u.data as [number[], (number | null)[], (number | null)[]];
            paintBands(u, theme, conditioningBands(times, measured, target, times[times.length - 1] ?? 0, conditioning));
          },
        ],
      }),
      ...(onCursor && {
        setCursor: [
          (u: uPlot) => {
            const i = u.cursor.idx;
            if (i === null || i === undefined) return onCursor(null, null, null);
            onCursor((u.data[0][i] as number | undefined) ?? null, (u.data[1]?.[i] as number | null) ?? null, (u.data[2]?.[i] as number | null) ?? null);
          },
        ],
      }),
    },
  };
}

/** A card's sparkline: the line alone, no axes, no cursor. */
export function sparklineOptions({ kind, theme, width, height }: Omit<TimeChartSetup, 'onCursor'>): uPlot.Options {
  const options = historyChartOptions({ kind, theme, width, height });
  return {
    ...options,
    cursor: { show: false },
    padding: [2, 0, 2, 0],
    axes: [
      { show: false, size: 0 },
      { show: false, size: 0 },
    ],
  };
}

/**
 * Colours of the stacked energy bars, one per device (the Okabe–Ito palette: told apart with the
 * common colour-vision deficiencies, on light and dark backgrounds); the last is "other devices".
 */
export const DEVICE_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'] as const;
export const OTHER_COLOUR = '#999999';

/**
 * The energy view's bars: one per bucket (hour, day or month), stacked by device. `data` holds the x
 * indexes, then each stack's running total from the top one down (uPlot paints them in order, so each
 * smaller total is painted over the larger one before it).
 */
export function stackedBarsOptions({
  theme,
  width,
  height,
  units,
  labels,
  colours,
}: {
  theme: ChartTheme;
  width: number;
  height: number;
  units: string;
  labels: readonly string[];
  colours: readonly string[];
}): uPlot.Options {
  return {
    width,
    height,
    legend: { show: false },
    cursor: { y: false, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    series: [
      {},
      ...colours.map((colour) => ({
        stroke: colour,
        fill: colour,
        width: 0,
        points: { show: false },
        paths: uPlot.paths.bars!({ size: [0.7, 48], align: 0 }),
      })),
    ],
    axes: [
      axis(theme, { values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? (labels[v] ?? '') : '')), space: labelSpace(labels) }),
      axis(theme, { size: 72, values: (_u, splits) => splits.map((v) => `${v} ${units}`) }),
    ],
  };
}
