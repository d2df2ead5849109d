/**
 * A history chart of 100,000 points in Chromium. The app's own chart options
 * (renderer/src/ui/chart-options.ts) with uPlot, bundled by esbuild into a page of its own:
 *  1. render: from `new uPlot(…)` to the end of its first draw (uPlot's `draw` hook), RUNS times, each a
 *     new chart (the previous one destroyed); median and p95 (target: p95 < 50 ms); and to the next frame;
 *  2. hover: MOVES pointer moves, one per animation frame, across the chart: each move's handler time
 *     (uPlot's cursor and the value readout) and the frame intervals meanwhile, p50/p95 (target: p95 frame
 *     ≤ 33 ms, i.e. no frame dropped twice in a row at 60 Hz; handler p95 < 4 ms).
 * `BENCH_ONLY=charts npm run bench`, or on its own: `npx tsx test/bench/charts.ts`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import config, { chromiumPath } from '../../playwright.config';
import { projectRoot } from '../e2e/support/processes';
import type { BenchRow } from './route-opening';
import { sized } from './bench-mode';
import { percentile } from './percentile';

const POINTS = sized(100_000, 10_000);
const RUNS = sized(20, 2);
const MOVES = sized(300, 20);

const quantile = (values: number[], q: number) => percentile(values, q * 100);

async function pageScript(): Promise<string> {
  const bundle = await build({
    entryPoints: [`${projectRoot}/test/bench/chart-page.ts`],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    logLevel: 'warning',
  });
  return bundle.outputFiles[0]!.text;
}

export async function charts(): Promise<BenchRow[]> {
  const css = readFileSync(createRequire(pathToFileURL(`${projectRoot}/package.json`)).resolve('uplot/dist/uPlot.min.css'), 'utf8');
  const script = await pageScript();
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: config.use?.launchOptions?.args });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 400 } });
    await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body><div id="chart"></div><p id="readout"></p></body></html>`);
    await page.addScriptTag({ content: script });
    // Warm-up: the JIT, and the canvas's first use.
    await page.evaluate(`chartBench.render(${POINTS})`);
    const renders: { drawMs: number; frameMs: number }[] = [];
    for (let run = 0; run < RUNS; run++) renders.push((await page.evaluate(`chartBench.render(${POINTS})`)) as { drawMs: number; frameMs: number });
    const hovered = (await page.evaluate(`chartBench.hover(${MOVES})`)) as { handlerMs: number[]; frameMs: number[] };
    const moved = await page.locator('#readout').textContent();
    if (!moved?.includes('°C')) throw new Error(`the hover did not reach the chart's readout (${moved})`);

    const draw = renders.map((r) => r.drawMs);
    const frame = renders.map((r) => r.frameMs);
    const drawP95 = quantile(draw, 0.95);
    const handlerP95 = quantile(hovered.handlerMs, 0.95);
    const frameP95 = quantile(hovered.frameMs, 0.95);
    return [
      {
        figure: `chart of ${POINTS.toLocaleString('en')} points: new → first draw, p50 / p95 (ms)`,
        value: `${quantile(draw, 0.5).toFixed(1)} / ${drawP95.toFixed(1)}`,
        baseline: '',
        ratio: '',
        target: 'p95 < 50 ms',
        met: drawP95 < 50,
      },
      {
        figure: `chart of ${POINTS.toLocaleString('en')} points: new → next frame, p50 / p95 (ms)`,
        value: `${quantile(frame, 0.5).toFixed(1)} / ${quantile(frame, 0.95).toFixed(1)}`,
        baseline: '',
        ratio: '',
        target: '',
        met: true,
      },
      {
        figure: `hover, ${MOVES} pointer moves one per frame: handler p50 / p95 (ms)`,
        value: `${quantile(hovered.handlerMs, 0.5).toFixed(2)} / ${handlerP95.toFixed(2)}`,
        baseline: '',
        ratio: '',
        target: 'p95 < 4 ms',
        met: handlerP95 < 4,
      },
      {
        figure: 'hover: frame interval p50 / p95 / max (ms)',
        value: `${quantile(hovered.frameMs, 0.5).toFixed(1)} / ${frameP95.toFixed(1)} / ${Math.max(...hovered.frameMs).toFixed(1)}`,
        baseline: '16.7 at 60 Hz',
        ratio: '',
        target: 'p95 ≤ 33 ms',
        met: frameP95 <= 33,
      },
    ];
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await charts());
}
