/**
 * Registration churn on Redis (docs/security.md, "Registration churn on Redis"): a holder of one webhook's
 * secret re-registers its listeners over and over with about 55 KiB of `$keys` each, spread over the
 * instances, while another owner's webhook is sent messages and Redis's memory is read. Used by
 * test/integration/services/forwarder-redis-churn.test.ts (scaled down) and test/bench/registration-churn.ts
 * (three instances for 60 s).
 */
import type { Redis } from 'ioredis';
import { postRaw } from './flood';
import { TestListener } from './webhook-listener';

/** 1,000 `$keys` (the most a registration may carry) of `bytes / 1000` characters each: about `bytes` of registration data. */
export function churnKeys(bytes: number): string[] {
  const each = Math.max(8, Math.floor(bytes / 1000) - 3);
  return Array.from({ length: 1000 }, (_, i) => `k${i}-`.padEnd(each, 'x'));
}

export interface ChurnOptions {
  /** The instances' URLs; registrations and the other owner's messages go to each in turn. */
  urls: readonly string[];
  attacker: { id: string; secret: string };
  other: { id: string; secret: string; hubId: string };
  keys: readonly string[];
  /** Registrations at once (each worker re-registers its own listenerId). */
  workers: number;
  /** Keeps going while this says so (a count or a deadline). */
  going(registrations: number): boolean;
  /** Reads Redis's memory between the other owner's messages. */
  redis: Redis;
}

export interface ChurnResult {
  /** Registrations answered `registered`. */
  registered: number;
  /** Registrations closed instead, by close code. */
  refused: Map<number, number>;
  /** The other owner's intakes by status, and the ids answered 202. */
  statuses: Map<number, number>;
  accepted: string[];
  /** The most `used_memory` read from Redis while the churn ran (bytes). */
  peakUsedMemory: number;
}

const count = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1);

export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
}

/** Runs the churn until `going` says stop; the other owner's messages are sent one at a time meanwhile. */
export async function runRegistrationChurn(options: ChurnOptions): Promise<ChurnResult> {
  // A webhook body of a few KiB, as a device event with its context would be.
  const probeBody = JSON.stringify({ probe: true, pad: 'x'.repeat(4096) });
  const { urls, attacker, other, keys } = options;
  const result: ChurnResult = { registered: 0, refused: new Map(), statuses: new Map(), accepted: [], peakUsedMemory: 0 };
  let started = 0;
  let done = false;
  const churn = Array.from({ length: options.workers }, async (_, worker) => {
    while (options.going(started)) {
      const at = urls[started++ % urls.length]!;
      try {
        const listener = await TestListener.connect({
          forwarderUrl: at,
          webhookId: attacker.id,
          secret: attacker.secret,
          listenerId: `churn-${worker}`,
          data: { $keys: [...keys] },
        });
        result.registered++;
        await listener.close();
      } catch (error) {
        count(result.refused, typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 0);
      }
    }
  });
  const probe = (async () => {
    for (let n = 0; !done; n++) {
      const { status, body } = await postRaw(`${urls[n % urls.length]!}/webhook/${other.id}?hub=${other.hubId}`, probeBody).catch(() => ({
        status: 0,
        body: '',
      }));
      count(result.statuses, status);
      if (status === 202) result.accepted.push((JSON.parse(body) as { id: string }).id);
      result.peakUsedMemory = Math.max(result.peakUsedMemory, await usedMemory(options.redis));
    }
  })();
  await Promise.all(churn);
  done = true;
  await probe;
  return result;
}
