/**
 * The page side of the charts bench (charts.ts), bundled for Chromium: the app's own history chart
 * (renderer/src/ui/chart-options.ts, the readout written as the dialog writes it) on a series of any
 * length, and a hover driven by pointer moves, one per animation frame.
 */
import uPlot from 'uplot';
import { formatLogValue } from '../../renderer/src/format/insights-series';
import { historyChartOptions } from '../../renderer/src/ui/chart-options';

const THEME = { line: 'rgb(31, 95, 191)', text: 'rgb(79, 88, 99)', grid: 'rgb(211, 216, 222)', fill: 'rgba(31, 95, 191, 0.3)' };
const LOG = { type: 'number' as const, decimals: 1, units: '°C' };
const WIDTH = 1000;
const HEIGHT = 240;

let chart: uPlot | null = null;

/** A believable sensor: a daily wave, a slow drift and noise, one point a minute, a few gaps. */
function series(points: number): uPlot.AlignedData {
  const times = new Array<number>(points);
  const values = new Array<number | null>(points);
  const start = Date.UTC(2026, 0, 1);
  let drift = 0;
  for (let i = 0; i < points; i++) {
    times[i] = start + i * 60_000;
    drift += (Math.sin(i * 12.9898) * 43758.5453) % 0.02;
    values[i] = i % 5_000 < 3 ? null : 20 + 3 * Math.sin((2 * Math.PI * i) / 1_440) + drift + ((Math.sin(i * 78.233) * 12345.678) % 0.3);
  }
  return [times, values];
}

/** Makes the chart anew and resolves with the ms from the call to the end of its first draw, and to the next frame after it. */
function render(points: number): Promise<{ drawMs: number; frameMs: number }> {
  chart?.destroy();
  const data = series(points);
  const readout = document.getElementById('readout')!;
  const box = document.getElementById('chart')!;
  return new Promise((resolve) => {
    let drawnAt = 0;
    const options = historyChartOptions({
      kind: 'number',
      theme: THEME,
      width: WIDTH,
      height: HEIGHT,
      onCursor: (time, value) => {
        readout.textContent = time === null ? '' : `${new Date(time).toISOString()}: ${formatLogValue(LOG, value)}`;
      },
    });
    options.hooks = { ...options.hooks, draw: [() => void (drawnAt ||= performance.now())] };
    const start = performance.now();
    chart = new uPlot(options, data, box);
    requestAnimationFrame(() => setTimeout(() => resolve({ drawMs: drawnAt - start, frameMs: performance.now() - start })));
  });
}

/**
 * Moves the pointer across the chart, one move per animation frame: each move's handler time (the
 * event's dispatch: uPlot's cursor and the readout), and the intervals between frames meanwhile.
 */
function hover(moves: number): Promise<{ handlerMs: number[]; frameMs: number[] }> {
  const over = chart!.over;
  const rect = over.getBoundingClientRect();
  const handlerMs: number[] = [];
  const frameMs: number[] = [];
  return new Promise((resolve) => {
    let last = 0;
    let i = 0;
    const step = (now: number) => {
      if (last) frameMs.push(now - last);
      last = now;
      if (i === moves) return resolve({ handlerMs, frameMs });
      const x = rect.left + ((i * 7.3) % rect.width);
      const y = rect.top + rect.height / 2;
      const start = performance.now();
      over.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: y, bubbles: true }));
      handlerMs.push(performance.now() - start);
      i++;
      requestAnimationFrame(step);
    };
    over.dispatchEvent(new MouseEvent('mouseenter', { clientX: rect.left + 1, clientY: rect.top + 1 }));
    requestAnimationFrame(step);
  });
}

Object.assign(window, { chartBench: { render, hover } });
