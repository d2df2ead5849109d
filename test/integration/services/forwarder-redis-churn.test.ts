/**
 * Registration churn on Redis (docs/security.md, "Registration churn on Redis"), scaled down: three
 * forwarder instances in their own processes on one redis-server with `maxmemory` 64 MiB and `noeviction`;
 * one webhook's secret holder re-registers its listeners 900 times with about 55 KiB of `$keys` each,
 * while another owner's webhook is sent messages one after the other. When every change carried the whole
 * registration, the change stream took about 112 KiB a registration (100 MB here): Redis reached its
 * `maxmemory`, and the other owner's intakes were answered 503 and registrations refused. Nothing here is
 * timed: the test checks bytes, statuses and deliveries (test/bench/registration-churn.ts runs it at full
 * size for 60 s). Then the bounds on their own: a mirror that falls behind the trimmed stream loads again,
 * and a registration over the size caps is refused, by the channel and by the script.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANGES_MAX_BYTES, CHANGES_MAX_LENGTH, KEYS, MAX_SLOT_RECORD_BYTES, slotKey } from '../../../services/forwarder/redis/redis-keys';
import { connectRedis } from '../../../services/forwarder/redis/redis-state';
import { silentLogger } from '../../../services/shared/logger';
import { CLOSE_PROTOCOL_ERROR, MAX_REGISTRATION_DATA_BYTES } from '../../../common/webhook-protocol';
import { ONE_ADDRESS_FLOOD_LIMITS, startForwarderChild } from '../../support/flood';
import { forwarderStores } from '../../support/forwarder-stores';
import { startTestRedis } from '../../support/redis-server';
import { churnKeys, runRegistrationChurn } from '../../support/registration-churn';
import { TestListener } from '../../support/webhook-listener';

const MiB = 1024 * 1024;
const MAXMEMORY = 64 * MiB;
const REGISTRATIONS = 900;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

describe('registration churn against three instances on one Redis', () => {
  it('keeps the change stream within its bound and Redis under maxmemory, and the other owner is answered 202 throughout', async () => {
    const redis = await startTestRedis(['--maxmemory', String(MAXMEMORY), '--maxmemory-policy', 'noeviction']);
    cleanup.push(() => redis.stop());
    const client = new Redis(redis.url);
    cleanup.push(() => client.quit());
    const start = () => startForwarderChild({ heapMb: 512, redisUrl: redis.url, forwarderOptions: { addressLimits: ONE_ADDRESS_FLOOD_LIMITS } });
    const first = await start();
    const instances = [first, ...(await Promise.all([start(), start()]))];
    for (const instance of instances) cleanup.push(() => instance.stop());
    const urls = instances.map((instance) => instance.info.url);
    const { flood, other } = first.info.webhooks;
    const otherListener = await TestListener.connect({ forwarderUrl: urls[0]!, webhookId: other.id, secret: other.secret, listenerId: 'other', hubId: 'o' });
    cleanup.push(() => otherListener.close());

    const result = await runRegistrationChurn({
      urls,
      attacker: flood,
      other: { ...other, hubId: 'o' },
      keys: churnKeys(55 * 1024),
      workers: 4,
      going: (started) => started < REGISTRATIONS,
      redis: client,
    });

    expect(Object.fromEntries(result.refused)).toEqual({});
    expect(result.registered).toBe(REGISTRATIONS);
    expect(Object.fromEntries(result.statuses)).toEqual({ 202: result.accepted.length });
    expect(result.accepted.length).toBeGreaterThan(0);
    expect(result.peakUsedMemory).toBeLessThan(MAXMEMORY);
    expect(await client.xlen(KEYS.changes)).toBeLessThanOrEqual(CHANGES_MAX_LENGTH + 100);
    expect(Number(await client.memory('USAGE', KEYS.changes))).toBeLessThanOrEqual(CHANGES_MAX_BYTES);
    // Every message answered 202 reaches the other owner's listener.
    await vi.waitFor(() => expect(new Set(otherListener.ids())).toEqual(new Set(result.accepted)), { timeout: 30_000, interval: 50 });
  }, 180_000);
});

describe('the bounds behind it', () => {
  it("a mirror that sees a gap in the changes' numbers (the stream trimmed past it) loads everything again", async () => {
    const redis = await startTestRedis();
    cleanup.push(() => redis.stop());
    const state = await connectRedis(redis.url, { logger: silentLogger });
    cleanup.push(() => state.close());
    const client = new Redis(redis.url);
    cleanup.push(() => client.quit());
    const webhook = await state.store.create({ name: 'gap', ownerId: 'alice' });
    // A slot written without a change of its own: only a full load brings it to the mirror.
    const silent = { webhookId: webhook.id, ownerId: 'alice', listenerId: 'silent', hubId: 'h', keys: [], rawBodyOnly: false };
    await client.hset(KEYS.slots, slotKey(webhook.id, 'silent'), JSON.stringify(silent));
    // Changes in sequence are applied one by one: the silent slot stays unknown.
    await state.store.setKeyPath(webhook.id, 'body.x');
    expect(state.mirror.registry.of(webhook.id)?.slots.has('silent') ?? false).toBe(false);
    // The next change's number skips one.
    const number = await client.incrby(KEYS.changeSequence, 2);
    await client.xadd(KEYS.changes, '*', 'k', 'webhook', 's', webhook.id, 'n', String(number));
    await vi.waitFor(() => expect(state.mirror.registry.of(webhook.id)?.slots.has('silent')).toBe(true), { timeout: 10_000, interval: 20 });
  });

  it('the REGISTER script refuses a slot record over its byte bound, saying the limit', async () => {
    const redis = await startTestRedis();
    cleanup.push(() => redis.stop());
    const state = await connectRedis(redis.url, { logger: silentLogger });
    cleanup.push(() => state.close());
    const key = slotKey('wh_x', 'l');
    const args = { webhookId: 'wh_x', ownerId: 'alice', maxPerWebhook: 100, maxPerOwner: 200, instance: state.instance, resumeAfterEntry: undefined };
    expect(await state.scripts.register(key, { ...args, record: 'x'.repeat(MAX_SLOT_RECORD_BYTES + 1) })).toEqual({
      refused: `this registration takes ${MAX_SLOT_RECORD_BYTES + 1} bytes; the limit is ${MAX_SLOT_RECORD_BYTES}`,
    });
    expect(await state.redis.hexists(KEYS.slots, key)).toBe(0);
  });

  it('the channel closes a listener whose data is over the cap (4400, naming the limit) and keeps nothing of it', async () => {
    const stores = await forwarderStores('redis');
    cleanup.push(() => stores.close());
    const webhook = await stores.store.create({ name: 'large', ownerId: 'alice' });
    const forwarder = await stores.start();
    const data = { $key: 'x'.repeat(MAX_REGISTRATION_DATA_BYTES) };
    const refused = await TestListener.connect({ forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, listenerId: 'l', data }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: CLOSE_PROTOCOL_ERROR,
      reason: `registration data is ${MAX_REGISTRATION_DATA_BYTES + 11} bytes of JSON; the limit is ${MAX_REGISTRATION_DATA_BYTES}`,
    });
    const client = new Redis(stores.redis!.url);
    cleanup.push(() => client.quit());
    expect(await client.hlen(KEYS.slots)).toBe(0);
  });
});
