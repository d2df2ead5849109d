/**
 * `npm start` on a built checkout shows a usable window in under 3 s (docs/benchmarks.md, "Start-up on a
 * built checkout"). Runs `npm start`
 * itself (without an Electron runtime it starts the browser host) and times it from spawn to the app
 * page served: the "Hubdesk is running at" line, then the page and its script fetched from the printed
 * address. Baseline in the same run: `npm start -- --build`, the renderer rebuilt as every start did
 * before (main/build-freshness.ts). Fresh profile per start; rounds alternate cold and warm.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { RUNNING_LINE_PREFIX } from '../../main/browser-host/cli';
import { projectRoot } from '../e2e/support/processes';
import { tempDir } from '../support/temp-dir';
import type { BenchRow } from './route-opening';
import { sized } from './bench-mode';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? sized(3, 1));
const TARGET_MS = 3000;

/** `npm start` in its own process group (npm → sh → node), stopped as a whole. */
function npmStart(extraArgs: string[]): { appUrl: Promise<URL>; stop(): Promise<void> } {
  const env = { ...process.env, HUBDESK_OPEN_EXTERNAL: 'none', XDG_CONFIG_HOME: tempDir('bench-start') };
  const child = spawn('npm', ['start', '--silent', '--', ...extraArgs], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-5_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const appUrl = new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no address; stderr:\n${errors}`)), 120_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith(RUNNING_LINE_PREFIX)) return;
      clearTimeout(timer);
      resolve(new URL(line.slice(RUNNING_LINE_PREFIX.length)));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`npm start exited; stderr:\n${errors}`));
    });
  });
  return {
    appUrl,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

async function timeStart(extraArgs: string[]): Promise<number> {
  const started = performance.now();
  const program = npmStart(extraArgs);
  try {
    const appUrl = await program.appUrl;
    const page = await fetch(appUrl);
    const html = await page.text();
    const script = /src="\.\/([^"]+\.js)"/.exec(html)?.[1];
    if (!page.ok || script === undefined) throw new Error(`the app page did not load (${page.status})`);
    const bundle = await fetch(new URL(script, appUrl));
    await bundle.arrayBuffer();
    if (!bundle.ok) throw new Error(`the app script did not load (${bundle.status})`);
    return performance.now() - started;
  } finally {
    await program.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function startUp(): Promise<BenchRow[]> {
  await timeStart([]); // warm-up: builds if the checkout is not built yet, fills the OS file cache
  const cold: number[] = [];
  const warm: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    cold.push(await timeStart(['--build']));
    warm.push(await timeStart([]));
  }
  const coldMs = median(cold);
  const warmMs = median(warm);
  console.log(`start-up: cold (forced build) ${cold.map(Math.round).join(', ')} ms; warm ${warm.map(Math.round).join(', ')} ms`);
  return [
    {
      figure: 'npm start → app page served, built checkout (ms, median)',
      value: String(Math.round(warmMs)),
      baseline: `${Math.round(coldMs)} (renderer rebuilt, as before)`,
      ratio: (warmMs / coldMs).toFixed(2),
      target: `< ${TARGET_MS} ms`,
      met: warmMs < TARGET_MS,
    },
  ];
}
