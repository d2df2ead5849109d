/**
 * The attacker of the insights-flood bench (docs/benchmarks.md, "One session's insights flood") in a
 * process of its own, so the 150 MiB it receives do not delay the timed client. From HUB_URL with the
 * session SESSION: WARM_UP waves of READS concurrent year-long reads (every log in turn, a connection
 * each), then `warm`; on SIGUSR2, WAVES more, each as soon as the last is answered, then
 * `done {"statuses", "bytes", "ms"}`.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { InsightsLogMap } from '../../common/insights';

const { HUB_URL: url, SESSION: session } = process.env as Record<string, string>;
const [reads, waves, warmUp] = ['READS', 'WAVES', 'WARM_UP'].map((name) => Number(process.env[name]));
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

function get(path: string): Promise<{ status: number; bytes: number; body: Buffer }> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { agent, headers: { authorization: `Bearer ${session}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0), body: Buffer.concat(chunks) }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0, body: Buffer.alloc(0) }));
    req.end();
  });
}

const logs = Object.values(JSON.parse((await get('/api/manager/insights/log')).body.toString()) as InsightsLogMap);
const paths = Array.from({ length: reads! }, (_, i) => {
  const log = logs[i % logs.length]!;
  return `/api/manager/insights/log/${encodeURIComponent(log.ownerUri)}/${encodeURIComponent(log.id)}/entry?resolution=lastYear`;
});
const wave = () => Promise.all(paths.map((path) => get(path).then(({ status, bytes }) => ({ status, bytes }))));
for (let n = 0; n < warmUp!; n++) await wave();
process.stdout.write('warm\n');
// Kept alive until SIGTERM: a signal listener alone does not hold the process.
setInterval(() => {}, 60_000);
process.once('SIGUSR2', () => {
  void (async () => {
    const statuses: Record<number, number> = {};
    let bytes = 0;
    const from = performance.now();
    for (let n = 0; n < waves!; n++) {
      for (const answer of await wave()) {
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        bytes += answer.bytes;
      }
    }
    process.stdout.write(`done ${JSON.stringify({ statuses, bytes, ms: performance.now() - from })}\n`);
  })();
});
process.once('SIGTERM', () => process.exit(0));
