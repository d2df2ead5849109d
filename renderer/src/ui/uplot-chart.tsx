/**
 * A uPlot chart in React: made once per look (options), its data replaced in place when it changes,
 * sized to its box. The canvas says nothing to assistive technology, so the box is an image with the
 * chart's words (`description`) as its name. With `keyboard`, the box takes focus and the arrow keys
 * (Page Up/Down a twentieth of the range, Home/End the ends) move the cursor from point to point, so
 * the value under it (the options' setCursor hook) can be read without a pointer.
 */
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ShownSeries } from '../format/insights-series';
import { cursorIndexAfter, zoomedRange } from './chart-keys';

/** A shown series as uPlot's columns (uPlot reads them and never writes, so the readonly arrays are passed as they are). */
export const seriesData = (series: Pick<ShownSeries, 'times' | 'values'>): uPlot.AlignedData => [series.times as number[], series.values as (number | null)[]];

export interface UplotChartProps {
  /** Builds the options for a width; a new function makes a new chart (e.g. the theme changed). */
  options(width: number): uPlot.Options;
  data: uPlot.AlignedData;
  description: string;
  className?: string;
  /** Focusable, its cursor moved by the keys above. */
  keyboard?: boolean;
  /** Given: the time range can be zoomed (a drag, `+` and `-`), and this hears whether it is zoomed and how to show it whole again. */
  onZoom?(zoomed: { showWhole(): void } | null): void;
}

/** The series' own time range (its first and last point), or null when it has fewer than two. */
function wholeRange(chart: uPlot): { min: number; max: number } | null {
  const times = chart.data[0];
  return times.length < 2 ? null : { min: times[0]!, max: times[times.length - 1]! };
}

export function UplotChart({ options, data, description, className, keyboard = false, onZoom }: UplotChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // The data a new chart starts with (set before the effect below makes one).
  const latest = useRef(data);
  /** Zoomed in: new data (a live value) keeps the range shown. */
  const zoomedIn = useRef(false);
  useLayoutEffect(() => {
    latest.current = data;
  });

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const made = options(Math.max(1, element.clientWidth));
    if (onZoom) {
      // A drag across the plot selects a range and zooms to it; the hook tells whether what is shown is less than the whole.
      // Whole: uPlot takes `drag` as given, not merged with its defaults (`dist` missing disables the drag).
      made.cursor = { ...made.cursor, drag: { x: true, y: false, setScale: true, dist: 4, click: (_u, event) => event.stopPropagation() } };
      made.select = { show: true, left: 0, top: 0, width: 0, height: 0 };
      made.hooks = {
        ...made.hooks,
        setScale: [
          ...(made.hooks?.setScale ?? []),
          (u: uPlot, key: string) => {
            if (key !== 'x') return;
            const whole = wholeRange(u);
            const { min, max } = u.scales.x!;
            const zoomed = whole !== null && min !== undefined && max !== undefined && (min > whole.min || max < whole.max);
            zoomedIn.current = zoomed;
            onZoom(zoomed && whole ? { showWhole: () => u.setScale('x', whole) } : null);
          },
        ],
      };
    }
    const chart = new uPlot(made, latest.current, element);
    plot.current = chart;
    const resize = new ResizeObserver(() => {
      const width = Math.max(1, element.clientWidth);
      if (width !== chart.width) chart.setSize({ width, height: made.height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [options, onZoom]);

  useEffect(() => {
    if (plot.current && plot.current.data !== data) plot.current.setData(data, !zoomedIn.current);
  }, [data]);

  const moveCursor = (event: KeyboardEvent) => {
    const chart = plot.current;
    if (!chart) return;
    const times = chart.data[0];
    const cursorAt = chart.cursor.idx == null ? null : times[chart.cursor.idx]!;
    const whole = onZoom && wholeRange(chart);
    const { min, max } = chart.scales.x!;
    const zoomed = whole && min !== undefined && max !== undefined ? zoomedRange(event.key, { min, max }, whole, cursorAt) : undefined;
    if (zoomed) {
      event.preventDefault();
      chart.setScale('x', zoomed);
      return;
    }
    const index = cursorIndexAfter(event.key, chart.cursor.idx ?? null, times.length);
    if (index === undefined) return;
    event.preventDefault();
    chart.setCursor({ left: chart.valToPos(times[index]!, 'x'), top: 0 });
  };

  return (
    <div
      ref={box}
      role="img"
      aria-label={description}
      className={className ? `chart ${className}` : 'chart'}
      {...(keyboard && { tabIndex: 0, onKeyDown: moveCursor })}
    />
  );
}
