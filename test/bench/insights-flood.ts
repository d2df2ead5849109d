/**
 * One session's insights flood (docs/benchmarks.md, "One session's insights flood"; docs/security.md,
 * "Insights reads"). The hub in its own process (hub-server.ts, bundled on node); in this process an
 * attacker sends waves of 300 concurrent year-long reads (`lastYear`, every log in turn) from one
 * session, each wave as soon as the last is answered, while a prober on another session asks for the
 * device list every 10 ms (paced: sent whether or not the last was answered, so a stall delays every
 * request that falls in it). Figures: the prober's p50 / p99 / max during the flood (target p99 ≤ 100 ms),
 * against the same prober with no flood before it; how late the hub's own event loop ran meanwhile (its
 * longest turns, p99 and max, from inside the hub); the flood's answers by status and bytes.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { InsightsLogMap } from '../../common/insights';
import { startProgram } from '../e2e/support/processes';
import { sized } from './bench-mode';
import { compiledServer } from './compiled-servers';
import { percentile } from './insights';
import type { BenchRow } from './route-opening';

const READS_PER_WAVE = sized(300, 100);
const WAVES = sized(5, 1);
const QUIET_MS = sized(3_000, 500);
const PROBE_EVERY_MS = 10;
const TARGET_P99_MS = 100;

interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

function get(agent: Agent, url: string, session: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const from = performance.now();
    const req = request(url, { agent, headers: { authorization: `Bearer ${session}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - from }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The device list every PROBE_EVERY_MS until `until` settles: each request's time, send to last byte. */
async function probe(agent: Agent, url: string, session: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: Promise<number>[] = [];
  const start = performance.now();
  for (let n = 0; !done; n++) {
    times.push(get(agent, `${url}/api/manager/devices/device`, session).then((answer) => (answer.status === 200 ? answer.ms : Number.POSITIVE_INFINITY), () => Number.POSITIVE_INFINITY));
    const next = start + (n + 1) * PROBE_EVERY_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  return Promise.all(times);
}

export async function insightsFlood(): Promise<BenchRow[]> {
  const hub = startProgram(await compiledServer('hub-server'));
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 64 });
  // A connection per read, as 300 concurrent reads from one client come.
  const floodAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const { url, attacker, prober } = JSON.parse(`{"url"${await hub.line('{"url"', 60_000)}`) as { url: string; attacker: string; prober: string };
    const logs = Object.values(JSON.parse((await get(floodAgent, `${url}/api/manager/insights/log`, attacker)).body.toString()) as InsightsLogMap);
    const paths = Array.from({ length: READS_PER_WAVE }, (_, i) => {
      const log = logs[i % logs.length]!;
      return `${url}/api/manager/insights/log/${encodeURIComponent(log.ownerUri)}/${encodeURIComponent(log.id)}/entry?resolution=lastYear`;
    });
    let loops = 0;
    /** The hub's event-loop delay since the last call (hub-server.ts). */
    const loop = async () => {
      const line = hub.line(`loop ${++loops} `, 10_000);
      hub.child.kill('SIGUSR2');
      const { p99, max, cpuMax } = JSON.parse(await line) as { p99: number; max: number; cpuMax: number };
      return `late p99 ${p99.toFixed(0)}, max ${max.toFixed(0)}; longest turn ${cpuMax.toFixed(0)} CPU ms`;
    };
    await loop();
    const quiet = await probe(probeAgent, url, prober, new Promise((resolve) => setTimeout(resolve, QUIET_MS)));
    const quietLoop = await loop();
    const statuses = new Map<number, number>();
    let bytes = 0;
    const from = performance.now();
    const flood = (async () => {
      for (let wave = 0; wave < WAVES; wave++) {
        for (const answer of await Promise.all(paths.map((path) => get(floodAgent, path, attacker).catch(() => ({ status: 0, body: Buffer.alloc(0) }))))) {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          bytes += answer.body.length;
        }
      }
    })();
    const during = await probe(probeAgent, url, prober, flood);
    await flood;
    const floodMs = performance.now() - from;
    const floodLoop = await loop();
    const figures = (times: number[]) => `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)} / ${Math.max(...times).toFixed(1)}`;
    const p99 = percentile(during, 99);
    const answers = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status || 'no answer'}`).join(', ');
    return [
      { figure: `device list of another session during ${WAVES} × ${READS_PER_WAVE} year-long reads (${during.length} requests, p50 / p99 / max, ms)`, value: figures(during), baseline: `${figures(quiet)} with no flood`, ratio: '', target: `p99 ≤ ${TARGET_P99_MS}`, met: p99 <= TARGET_P99_MS },
      { figure: "… the hub's event loop (ms; during the flood, then with none)", value: floodLoop, baseline: quietLoop, ratio: '', target: '', met: true },
      { figure: '… the flood: answers; MiB answered; duration (s)', value: `${answers}; ${(bytes / 2 ** 20).toFixed(1)}; ${(floodMs / 1000).toFixed(1)}`, baseline: '', ratio: '', target: '', met: true },
    ];
  } finally {
    probeAgent.destroy();
    floodAgent.destroy();
    await hub.stop();
  }
}
