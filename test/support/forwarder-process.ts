/**
 * The forwarder in a process of its own, for the flood tests and test/bench/forwarder-floods.ts: a
 * flood must be able to kill the process it floods without taking the test runner with it, and the
 * heap limit (`--max-old-space-size`) is per process.
 *
 * Seeds two webhooks of two owners, `flood` (the attacker's) and `other` (another tenant's), both routed
 * by the `match-by-room` legacy function when LEGACY=1 (else by `?hub=` only). With REDIS_URL its state
 * is in that Redis (several such processes are instances of one deployment; each seeds the same two
 * webhooks, and starts once it knows them). Listeners name their hub ids without proof (no cloud: `hubIds:
 * 'trust'`). FORWARDER_OPTIONS (JSON) is merged into ForwarderOptions,
 * LEGACY_OPTIONS into the legacy runner's. Prints one line
 * `forwarder {url, webhooks}`; then answers each `stats` line on stdin with `stats {json}` (the
 * forwarder's stats and process.memoryUsage() after a garbage collection when --expose-gc is given).
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startForwarder } from '../../services/forwarder/forwarder';
import { createLegacyRunner } from '../../services/forwarder/legacy/legacy-runner';
import { connectRedis } from '../../services/forwarder/redis/redis-state';
import { createWebhookStore } from '../../services/forwarder/webhook-store';

const legacy = process.env.LEGACY === '1';
const source = readFileSync(new URL('../../services/forwarder/legacy/fixtures/match-by-room.js', import.meta.url), 'utf8');
// Warnings and errors on stderr, one JSON line each: the tests read what the forwarder logged.
const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
const logger = { info: () => {}, warn: log('warn'), error: log('error') };
const redis = process.env.REDIS_URL ? await connectRedis(process.env.REDIS_URL, { logger }) : undefined;
const store = redis?.store ?? createWebhookStore();
const seed = async (name: string, ownerId: string) => {
  const record = { id: `wh_${name}`, name, ownerId, secret: `secret-of-${name}`, keyPath: null, legacyFunction: legacy ? source : null, createdAt: 0 };
  if (!store.get(record.id)) await store.seed(record); // on Redis, an instance started before may have
  return { id: record.id, secret: record.secret };
};
const webhooks = { flood: await seed('flood', 'attacker'), other: await seed('other', 'tenant') };
const legacyRunner = legacy ? createLegacyRunner(JSON.parse(process.env.LEGACY_OPTIONS ?? '{}')) : undefined;
const forwarder = await startForwarder({
  ...(redis ? { redis } : { store }),
  legacyRunner,
  logger,
  heartbeatMs: 600_000,
  hubIds: 'trust',
  ...JSON.parse(process.env.FORWARDER_OPTIONS ?? '{}'),
});

const gc = (globalThis as { gc?: () => void }).gc;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'stats') return;
  gc?.();
  process.stdout.write(`stats ${JSON.stringify({ forwarder: forwarder.stats(), memory: process.memoryUsage() })}\n`);
});
process.stdout.write(`forwarder ${JSON.stringify({ url: forwarder.url, webhooks })}\n`);
process.once('SIGTERM', () => void Promise.all([forwarder.close().then(() => redis?.close()), legacyRunner?.close()]).then(() => process.exit(0)));
