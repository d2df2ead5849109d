/**
 * The forwarder on either store, for the suites that run against both (docs/services.md, "Running several instances on Redis"): in memory, or on
 * a real Redis of the test's own (redis-server.ts), each instance with its own connections as in a
 * deployment. With Redis the store's writes resolve once every instance started here has them, so a
 * test can register on any instance right after creating a webhook.
 */
import { type ForwarderOptions, type RunningForwarder, startForwarder } from '../../services/forwarder/forwarder';
import { connectRedis, type RedisState } from '../../services/forwarder/redis/redis-state';
import { silentLogger } from '../../services/shared/logger';
import { createWebhookStore, type WebhookStore } from '../../services/forwarder/webhook-store';
import { startTestRedis, type TestRedis } from './redis-server';

export type StoreKind = 'memory' | 'redis';
export const STORE_KINDS: readonly StoreKind[] = ['memory', 'redis'];

export type InstanceOptions = Omit<ForwarderOptions, 'store' | 'redis'>;

/**
 * The suites on these stores test routing, delivery and budgets with listeners named by hub id and no
 * cloud: they trust hub ids unless told otherwise (forwarder-hub-binding.test.ts tests the proof).
 */
const TRUSTING: InstanceOptions = { hubIds: 'trust' };

export interface ForwarderStores {
  readonly kind: StoreKind;
  readonly store: WebhookStore;
  /** Redis, when the kind is redis. */
  readonly redis: TestRedis | undefined;
  /** A forwarder instance on the store (with Redis: connections of its own); closed by `close`, or earlier by the caller. */
  start(options?: InstanceOptions): Promise<RunningForwarder>;
  close(): Promise<void>;
}

const WRITES = new Set(['create', 'setKeyPath', 'seed', 'createTapCredential', 'revokeTapCredential']);

export async function forwarderStores(kind: StoreKind): Promise<ForwarderStores> {
  if (kind === 'memory') {
    const store = createWebhookStore();
    const started: RunningForwarder[] = [];
    return {
      kind,
      store,
      redis: undefined,
      async start(options = {}) {
        const forwarder = await startForwarder({ store, ...TRUSTING, ...options });
        started.push(forwarder);
        return forwarder;
      },
      async close() {
        await Promise.all(started.map((forwarder) => forwarder.close()));
      },
    };
  }
  const redis = await startTestRedis();
  const states: RedisState[] = [];
  const connect = async () => {
    const state = await connectRedis(redis.url, { logger: silentLogger });
    states.push(state);
    return state;
  };
  const first = await connect();
  const started: RunningForwarder[] = [];
  // Every write waits until all instances have it (in a deployment a webhook reaches the others within milliseconds).
  const store = new Proxy(first.store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof name !== 'string' || !WRITES.has(name) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...values: unknown[]) => Promise<unknown>).apply(target, args);
        await Promise.all(states.map((state) => state.mirror.sync()));
        return result;
      };
    },
  });
  return {
    kind,
    store,
    redis,
    async start(options = {}) {
      const state = started.length === 0 ? first : await connect();
      const forwarder = await startForwarder({ redis: state, ...TRUSTING, ...options });
      started.push(forwarder);
      return forwarder;
    },
    async close() {
      await Promise.allSettled(started.map((forwarder) => forwarder.close()));
      await Promise.allSettled(states.map((state) => state.close()));
      await redis.stop();
    },
  };
}
