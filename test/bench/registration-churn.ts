/**
 * Registration churn on Redis at full size (docs/security.md, "Registration churn on Redis";
 * docs/benchmarks.md, "Registration churn on Redis"): three forwarder instances in their own processes on
 * one redis-server (`maxmemory` 256 MiB, `noeviction`); eight clients of one webhook's secret re-register
 * their listeners with about 55 KiB of `$keys` for 60 s, spread over the instances, while another owner's
 * webhook is sent messages one after the other. Figures: the other owner's statuses, Redis's peak
 * `used_memory`, and the change stream's entries and bytes against their bound.
 */
import { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { CHANGES_MAX_BYTES, KEYS } from '../../services/forwarder/redis/redis-keys';
import { type ForwarderChild, ONE_ADDRESS_FLOOD_LIMITS, startForwarderChild } from '../support/flood';
import { startTestRedis } from '../support/redis-server';
import { churnKeys, runRegistrationChurn } from '../support/registration-churn';
import { TestListener } from '../support/webhook-listener';
import { sized } from './bench-mode';
import type { BenchRow } from './route-opening';

const SECONDS = sized(60, 3);
const INSTANCES = 3;
/** Under the default resume budget (256 MiB), which this run does not use (the other owner acknowledges each message): the churn alone has to fill it. */
const MAXMEMORY_MB = 256;
const MiB = 1024 * 1024;

export async function registrationChurn(): Promise<BenchRow[]> {
  const redis = await startTestRedis(['--maxmemory', `${MAXMEMORY_MB}mb`, '--maxmemory-policy', 'noeviction']);
  const client = new Redis(redis.url);
  const instances: ForwarderChild[] = [];
  try {
    const start = () => startForwarderChild({ heapMb: 1024, redisUrl: redis.url, forwarderOptions: { addressLimits: ONE_ADDRESS_FLOOD_LIMITS } });
    instances.push(await start());
    instances.push(...(await Promise.all(Array.from({ length: INSTANCES - 1 }, start))));
    const urls = instances.map((instance) => instance.info.url);
    const { flood, other } = instances[0]!.info.webhooks;
    const otherListener = await TestListener.connect({ forwarderUrl: urls[0]!, webhookId: other.id, secret: other.secret, listenerId: 'other', hubId: 'o' });
    const deadline = performance.now() + SECONDS * 1000;
    const result = await runRegistrationChurn({
      urls,
      attacker: flood,
      other: { ...other, hubId: 'o' },
      keys: churnKeys(55 * 1024),
      workers: 8,
      going: () => performance.now() < deadline,
      redis: client,
    });
    const changes = Number(await client.memory('USAGE', KEYS.changes));
    const entries = await client.xlen(KEYS.changes);
    await otherListener.close();
    const total = [...result.statuses.values()].reduce((sum, n) => sum + n, 0);
    const accepted = result.statuses.get(202) ?? 0;
    const others = [...result.statuses].filter(([status]) => status !== 202).map(([status, n]) => `${n} × ${status}`);
    const refused = [...result.refused].map(([code, n]) => `${n} × ${code}`);
    const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
    return [
      {
        figure: `registration churn, ${INSTANCES} instances, ${SECONDS} s: the other owner's intakes answered 202`,
        value: `${accepted} of ${total}${others.length ? ` (${others.join(', ')})` : ''}`,
        baseline: `${result.registered} registrations of ~55 KiB${refused.length ? `, ${refused.join(', ')} refused` : ''}`,
        ratio: '',
        target: '100 %',
        met: total > 0 && accepted === total,
      },
      {
        figure: 'registration churn: Redis peak used_memory; change stream bytes (entries)',
        value: `${mib(result.peakUsedMemory)}; ${mib(changes)} (${entries.toLocaleString('en-US')})`,
        baseline: `maxmemory ${MAXMEMORY_MB} MiB; stream bound ${mib(CHANGES_MAX_BYTES)}`,
        ratio: '',
        target: `stream ≤ ${mib(CHANGES_MAX_BYTES)}`,
        met: changes <= CHANGES_MAX_BYTES,
      },
    ];
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await client.quit();
    await redis.stop();
  }
}
