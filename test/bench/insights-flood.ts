/**
 * One session's insights flood (docs/benchmarks.md, "One session's insights flood"; docs/security.md,
 * "Insights reads"). Three processes: the hub (hub-server.ts), the attacker (insights-attacker.ts: waves
 * of 300 concurrent year-long reads from one session, each as soon as the last is answered, after an
 * uncounted warm-up wave that makes every log's history and warms the code) and this one, where a
 * prober on another session asks for the device list every 10 ms (paced: sent whether or not the last
 * was answered, so a stall delays every request that falls in it). Figures: the prober's p50 / p99 / max
 * during the flood (target p99 ≤ 100 ms) against the same prober with no flood before it; the hub's
 * event loop meanwhile, from inside it; the flood's answers by status and bytes.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startProgram } from '../e2e/support/processes';
import { sized } from './bench-mode';
import { compiledServer } from './compiled-servers';
import { percentile } from './percentile';
import type { BenchRow } from './route-opening';

const READS_PER_WAVE = sized(300, 100);
const WAVES = sized(5, 1);
const WARM_UP_WAVES = sized(1, 0);
const QUIET_MS = sized(3_000, 500);
const PROBE_EVERY_MS = 10;
const TARGET_P99_MS = 100;

/** The time from sending a GET to the last byte of a 200 answer; Infinity for any other outcome. */
function timedGet(agent: Agent, url: string, session: string): Promise<number> {
  return new Promise((resolve) => {
    const from = performance.now();
    const req = request(url, { agent, headers: { authorization: `Bearer ${session}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - from : Number.POSITIVE_INFINITY));
    });
    req.on('error', () => resolve(Number.POSITIVE_INFINITY));
    req.end();
  });
}

/** The device list every PROBE_EVERY_MS until `until` settles: each request's time. */
async function probe(agent: Agent, url: string, session: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: Promise<number>[] = [];
  const start = performance.now();
  for (let n = 0; !done; n++) {
    times.push(timedGet(agent, `${url}/api/manager/devices/device`, session));
    const next = start + (n + 1) * PROBE_EVERY_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  return Promise.all(times);
}

export async function insightsFlood(): Promise<BenchRow[]> {
  const hub = startProgram(await compiledServer('hub-server'));
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 64 });
  let attacker: ReturnType<typeof startProgram> | undefined;
  try {
    const info = JSON.parse(`{"url"${await hub.line('{"url"', 60_000)}`) as { url: string; attacker: string; prober: string };
    attacker = startProgram(await compiledServer('insights-attacker'), [], {
      HUB_URL: info.url,
      SESSION: info.attacker,
      READS: String(READS_PER_WAVE),
      WAVES: String(WAVES),
      WARM_UP: String(WARM_UP_WAVES),
    });
    await attacker.line('warm', 120_000);
    let loops = 0;
    /** The hub's event loop since the last call (hub-server.ts). */
    const loop = async () => {
      const line = hub.line(`loop ${++loops} `, 10_000);
      hub.child.kill('SIGUSR2');
      const { p99, max, cpuMax } = JSON.parse(await line) as { p99: number; max: number; cpuMax: number };
      return `late p99 ${p99.toFixed(0)}, max ${max.toFixed(0)}; longest turn ${cpuMax.toFixed(0)} CPU ms`;
    };
    await loop();
    const quiet = await probe(probeAgent, info.url, info.prober, new Promise((resolve) => setTimeout(resolve, QUIET_MS)));
    const quietLoop = await loop();
    const done = attacker.line('done ', 300_000);
    attacker.child.kill('SIGUSR2');
    const during = await probe(probeAgent, info.url, info.prober, done);
    const floodLoop = await loop();
    const flood = JSON.parse(await done) as { statuses: Record<string, number>; bytes: number; ms: number };
    const figures = (times: number[]) => `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)} / ${Math.max(...times).toFixed(1)}`;
    const p99 = percentile(during, 99);
    const answers = Object.entries(flood.statuses)
      .map(([status, count]) => `${count} × ${status === '0' ? 'no answer' : status}`)
      .join(', ');
    return [
      {
        figure: `device list of another session during ${WAVES} × ${READS_PER_WAVE} year-long reads (${during.length} requests, p50 / p99 / max, ms)`,
        value: figures(during),
        baseline: `${figures(quiet)} with no flood`,
        ratio: '',
        target: `p99 ≤ ${TARGET_P99_MS}`,
        met: p99 <= TARGET_P99_MS,
      },
      { figure: "… the hub's event loop (ms; during the flood, then with none)", value: floodLoop, baseline: quietLoop, ratio: '', target: '', met: true },
      {
        figure: '… the flood: answers; MiB answered; duration (s)',
        value: `${answers}; ${(flood.bytes / 2 ** 20).toFixed(1)}; ${(flood.ms / 1000).toFixed(1)}`,
        baseline: '',
        ratio: '',
        target: '',
        met: true,
      },
    ];
  } finally {
    probeAgent.destroy();
    await Promise.all([attacker?.stop(), hub.stop()]);
  }
}
