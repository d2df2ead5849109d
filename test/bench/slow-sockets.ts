/**
 * One client's share (docs/security.md, "One client's share"; docs/benchmarks.md, "One address's slow
 * sockets"): one address (127.0.0.2) keeps 1,100 slow sockets open or opening, 200 new a second, each
 * reconnected as soon as it is closed, against each service in its own process (limited-service.ts);
 * once they are placed, another address (127.0.0.3) asks 400 requests over 20 keep-alive connections.
 * Measured with the services' limits and, as the baseline, with the per-address limits lifted (the global
 * cap of 1,000 alone, as before them): the share of the victim's requests answered (200; the forwarder's
 * empty intakes 202) within 5 s, and their latency.
 */
import { startProgram } from '../e2e/support/processes';
import { sized } from './bench-mode';
import { compiledServer } from './compiled-servers';
import type { BenchRow } from './route-opening';
import { startSlowAttack, type VictimRequest, victimRequests, type VictimResult } from '../support/slow-sockets';

const SOCKETS = sized(1_100, 60);
const PER_SECOND = 200;
const REQUESTS = sized(400, 40);
const CONCURRENCY = 20;
/** Before the limits a request waited in the accept queue until this bound: 20 at a time keep that run short. */
const BOUND_MS = 5_000;
const SERVICES = ['cloud', 'hub', 'hub-https', 'portal', 'forwarder'] as const;

async function underAttack(service: string, limits: 'default' | 'lifted'): Promise<VictimResult> {
  const program = startProgram(await compiledServer('limited-service'), [], { SERVICE: service, LIMITS: limits });
  try {
    const info = JSON.parse(`{"url"${await program.line('{"url"', 30_000)}`) as {
      url: string;
      victim: VictimRequest;
      post: { path: string; contentType: string };
      ca?: string;
    };
    const attack = startSlowAttack(info.url, { sockets: SOCKETS, perSecond: PER_SECOND, ...info.post, ca: info.ca });
    try {
      await attack.placed;
      return await victimRequests(info.url, info.victim, { count: REQUESTS, concurrency: CONCURRENCY, boundMs: BOUND_MS, ca: info.ca });
    } finally {
      attack.stop();
    }
  } finally {
    await program.stop();
  }
}

const percent = (result: VictimResult) => (100 * result.answered) / (result.answered + result.failed);
const p99 = (result: VictimResult) => {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return sorted.length ? `${sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!.toFixed(0)} ms` : '–';
};

export async function slowSockets(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const service of SERVICES) {
    const before = await underAttack(service, 'lifted');
    const after = await underAttack(service, 'default');
    rows.push({
      figure: `${service}: another address's requests answered within 5 s while one holds ${SOCKETS.toLocaleString('en-US')} slow sockets (%, p99)`,
      value: `${percent(after).toFixed(1)} % (p99 ${p99(after)})`,
      baseline: `${percent(before).toFixed(1)} % (p99 ${p99(before)}; per-address limits lifted)`,
      ratio: '',
      target: '≥ 99 %',
      met: percent(after) >= 99,
    });
  }
  return rows;
}
