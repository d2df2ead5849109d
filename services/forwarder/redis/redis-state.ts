/**
 * A forwarder instance's connection to Redis (`npm run forwarder -- --redis redis://…`): four connections
 * (commands; the change stream's blocking reads; listener stream reads and the alive renewal; pub/sub),
 * the scripts, the mirror of what routing reads, and the webhook store on it (reads from the mirror, writes to Redis). The developer
 * portal and the forwarder of one process share it.
 *
 * Nothing is queued while Redis is away: a command fails at once (when Redis hangs, the backend drops the
 * connection after STALL_MS, which fails what waits), so the intake answers 503 instead of a 202 it cannot
 * keep, and nothing is sent twice when Redis comes back. ioredis reconnects by itself; the mirror then
 * loads again.
 */
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../../common/logger';
import { webhookStoreOn, type WebhookStore } from '../webhook-store';
import { KEYS } from './redis-keys';
import { parseStoredWebhook, RedisMirror } from './redis-mirror';
import { ForwarderScripts } from './redis-scripts';
import { errorMessage } from '../../../common/error-message';

/** A write retried this often while other writers keep changing the same webhook. */
const MAX_WRITE_ATTEMPTS = 10;

export interface RedisState {
  /** This instance's name in Redis (the owner of the listeners connected here). */
  readonly instance: string;
  readonly redis: Redis;
  /**
   * For what must not wait behind this instance's intake scripts (each up to megabytes during a flood of
   * large requests): listeners' stream reads and the alive renewal (docs/services.md, "Delivery across instances").
   */
  readonly side: Redis;
  readonly subscriber: Redis;
  readonly scripts: ForwarderScripts;
  /** The scripts on `side`. */
  readonly sideScripts: ForwarderScripts;
  readonly mirror: RedisMirror;
  readonly store: WebhookStore;
  /** Redis answers and the mirror is loaded. */
  ready(): boolean;
  close(): Promise<void>;
}

export interface RedisStateOptions {
  logger: Logger;
  now?: () => number;
}

export async function connectRedis(url: string, options: RedisStateOptions): Promise<RedisState> {
  const { logger } = options;
  const base: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  };
  // No auto-pipelining: ioredis runs one auto-pipeline at a time, so a command waits for the batch in flight
  // (measured: no throughput gained, latency lost). The backend batches what can wait itself (acks).
  const redis = new Redis(url, base);
  const reader = new Redis(url, base);
  const side = new Redis(url, base);
  // The subscriber keeps its subscriptions across reconnects (ioredis subscribes again).
  const subscriber = new Redis(url, { ...base, autoResubscribe: true });
  const connections = [redis, reader, side, subscriber];
  let reported = false;
  for (const connection of connections) {
    connection.on('error', (error: Error) => {
      if (reported) return;
      reported = true;
      logger.warn('forwarder: Redis connection failed; retrying', { error: error.message });
    });
    connection.on('ready', () => (reported = false));
  }
  const closeAll = () => Promise.allSettled(connections.map((connection) => connection.quit().catch(() => connection.disconnect())));
  try {
    await Promise.all(connections.map((connection) => connection.connect()));
  } catch (error) {
    for (const connection of connections) connection.disconnect();
    throw new Error(`cannot reach Redis at ${url}: ${errorMessage(error)}`, { cause: error });
  }
  const scripts = new ForwarderScripts(redis);
  const mirror = new RedisMirror(redis, reader, logger);
  try {
    await mirror.start();
  } catch (error) {
    await closeAll();
    throw error;
  }
  const store = webhookStoreOn(
    mirror.webhooks,
    async (id, change) => {
      for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
        const json = await redis.hget(KEYS.webhooks, id);
        const next = change(json === null ? undefined : parseStoredWebhook(json));
        const version = await scripts.putWebhook(id, json, JSON.stringify(next));
        if (version !== undefined) return mirror.caughtUp(version);
      }
      throw new Error(`webhook ${id} kept changing while it was written; try again`);
    },
    options.now,
  );
  return {
    instance: randomBytes(8).toString('hex'),
    redis,
    side,
    subscriber,
    scripts,
    sideScripts: new ForwarderScripts(side),
    mirror,
    store,
    ready: () => redis.status === 'ready' && mirror.ready,
    async close() {
      await mirror.close();
      await closeAll();
    },
  };
}
