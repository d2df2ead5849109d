/**
 * "Page start → first rows" in Chromium (inspector-history.ts; docs/benchmarks.md, "The inspector on a
 * large history"): the page's own clock (0 at navigation) read once per animation frame, when its tabs
 * and then its first `.inspector-row` are in the document; and the same for react-floor-page.tsx, React
 * alone drawing such rows from data already in the page, this machine's floor for the figure.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { build } from 'esbuild';
import { projectRoot } from '../e2e/support/processes';

// What the page-side code (run in Chromium by page.evaluate) uses: this program is type-checked without the DOM library.
declare const window: object;
declare const document: { querySelector(selector: string): object | null };
declare const performance: { now(): number };
declare function requestAnimationFrame(callback: () => void): number;

export interface FirstRowsMarks {
  /** The app's tabs in the document (ms from the page's start). */
  shell: number;
  /** The first row in the document. */
  rows: number;
}

/** Before `page.goto`: the page notes when its tabs, then its first row, are in the document. */
export async function markFirstRows(page: Page): Promise<void> {
  await page.addInitScript('globalThis.__name = (fn) => fn'); // tsx keeps function names with a helper the page lacks
  await page.addInitScript(() => {
    const seen: { shell?: number; rows?: number } = {};
    Object.assign(window, { firstRowsMarks: seen });
    const check = () => {
      seen.shell ??= document.querySelector('[role="tab"]') ? performance.now() : undefined;
      seen.rows ??= document.querySelector('.inspector-row') ? performance.now() : undefined;
      if (seen.rows === undefined) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** After the first row is in the document: the marks `markFirstRows` set. */
export async function readFirstRows(page: Page): Promise<FirstRowsMarks> {
  return page.evaluate(() => (window as { firstRowsMarks?: FirstRowsMarks }).firstRowsMarks!);
}

/** React alone (react-floor-page.tsx), bundled as the app's renderer is (production React, minified, an ES module), served without caching as the browser host serves the app: `runs` loads after a first one, each from the page's start to its first row. */
export async function reactFloor(browser: Browser, runs: number): Promise<number[]> {
  const bundle = await build({
    entryPoints: [`${projectRoot}/test/bench/react-floor-page.tsx`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]!.text;
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title><script type="module" src="/page.js"></script></head><body><div id="root"></div></body></html>';
  const server = createServer((request, response) => {
    const [type, body] = request.url === '/page.js' ? ['text/javascript; charset=utf-8', script] : ['text/html; charset=utf-8', html];
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const times: number[] = [];
    for (let run = 0; run <= runs; run++) {
      const page = await browser.newPage();
      await markFirstRows(page);
      await page.goto(url);
      await page.waitForSelector('.inspector-row');
      if (run > 0) times.push((await readFirstRows(page)).rows);
      await page.close();
    }
    return times;
  } finally {
    server.close();
  }
}
