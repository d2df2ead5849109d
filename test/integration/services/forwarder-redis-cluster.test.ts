/**
 * Several forwarder instances on one Redis (docs/services.md, "Running several instances on Redis"), each
 * `node out/services/forwarder-cli.js --redis …` in a process of its own, as deployed:
 * - three instances: posts spread over all three, listeners spread over all three, each message
 *   delivered to exactly the matching listeners, and a tap sees every intake once;
 * - failover: `kill -9` of the instance a listener is connected to while requests stream in at a steady
 *   rate; the listener reconnects to another instance and receives every message that got a 202, none
 *   lost, duplicates only of what the killed connection had already received;
 * - Redis away: intake answers 503 with Retry-After and /readyz says not ready; both come back by
 *   themselves when Redis does, and what was stored before is still delivered;
 * - Redis that hangs (frozen with SIGSTOP): an intake waiting on it is answered 503 after the stall limit;
 * - readiness follows the intake: once an intake is answered 503 for want of Redis (frozen or killed),
 *   the next /readyz is 503 too, and 200 again once an intake is stored;
 * - what an instance reads from Redis is checked: a record that fails is skipped and logged.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sequenceOf } from '../../../services/forwarder/message-ids';
import { STALL_MS } from '../../../services/forwarder/redis/redis-backend';
import { KEYS, slotKey } from '../../../services/forwarder/redis/redis-keys';
import { connectRedis } from '../../../services/forwarder/redis/redis-state';
import { type ForwarderInfo, runForwarderCli } from '../../support/forwarder-cli';
import { startTestRedis, type TestRedis } from '../../support/redis-server';
import { TestListener } from '../../support/webhook-listener';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis.stop());

/**
 * Instances built as deployed (`node out/services/forwarder-cli.js`). The first makes the demo webhooks
 * and the others, started together once it has, find them: one start after another made most of a
 * test's time on a busy machine.
 */
async function instances(count: number) {
  // No cloud here: the listeners name hubs (for ?hub=) on the secret alone.
  const start = () => runForwarderCli(['--redis', redis.url, '--trust-hub-ids'], 'built');
  const first = start();
  const firstInfo = await first.info;
  const others = Array.from({ length: count - 1 }, start);
  const started = [first, ...others];
  const infos: ForwarderInfo[] = [firstInfo, ...(await Promise.all(others.map((cli) => cli.info)))];
  return { clis: started, infos };
}

/** Posts a body to the instance at `url`; the id when answered 202, else undefined (refused, or the instance is gone). */
async function post(url: string, webhookId: string, body: unknown, query = ''): Promise<string | undefined> {
  try {
    const response = await fetch(`${url}/webhook/${webhookId}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { id?: string };
    return response.status === 202 ? json.id : undefined;
  } catch {
    return undefined;
  }
}

describe('three instances on one Redis', () => {
  it('route a message posted to any instance to exactly the matching listeners, wherever they are connected; a tap sees each intake once', async () => {
    const { infos } = await instances(3);
    const { id: webhookId, secret } = infos[0]!.webhook;
    expect(infos.map((info) => info.webhook.id)).toEqual([webhookId, webhookId, webhookId]);
    const [credentialId, tapSecret] = infos[0]!.webhook.tap_credential.split('.') as [string, string];
    const connect = (at: number, listenerId: string, data: Record<string, unknown>, hubId?: string) =>
      TestListener.connect({ forwarderUrl: infos[at]!.webhook_url, webhookId, secret, listenerId, data, hubId });
    // The demo webhook routes by body.device.id; ?hub= goes to the listeners of that hub.
    const lamp = await connect(0, 'lamp', { $key: 'lamp-1' }, 'hub-a');
    const sensor = await connect(1, 'sensor', { $keys: ['sensor-1', 'lamp-1'] }, 'hub-b');
    const plug = await connect(2, 'plug', { $key: 'plug-1' }, 'hub-a');
    const tap = await TestListener.connect({ forwarderUrl: infos[2]!.webhook_url, webhookId, secret: tapSecret, credentialId, role: 'tap', listenerId: 'tap' });

    const expected = new Map<string, string[]>([
      ['lamp', []],
      ['sensor', []],
      ['plug', []],
    ]);
    const posted: string[] = [];
    const cases: Array<[unknown, string, string[]]> = [
      [{ device: { id: 'lamp-1' } }, '', ['lamp', 'sensor']],
      [{ device: { id: 'sensor-1' } }, '', ['sensor']],
      [{ device: { id: 'plug-1' } }, '', ['plug']],
      [{ device: { id: 'nobody' } }, '', []],
      [{ device: { id: 'lamp-1' } }, '?hub=hub-a', ['lamp', 'plug']],
      [{}, '?hub=hub-b', ['sensor']],
    ];
    for (let round = 0; round < 5; round++) {
      for (const [i, [body, query, targets]] of cases.entries()) {
        const id = await post(infos[(round + i) % 3]!.webhook_url, webhookId, body, query);
        expect(id).toBeDefined();
        posted.push(id!);
        for (const target of targets) expected.get(target)!.push(id!);
      }
    }

    for (const [name, listener] of [
      ['lamp', lamp],
      ['sensor', sensor],
      ['plug', plug],
    ] as const) {
      await vi.waitFor(() => expect(listener.ids()).toHaveLength(expected.get(name)!.length), { timeout: 10_000, interval: 20 });
      // Exactly the matching messages, in the order they were stored.
      expect(listener.ids(), name).toEqual(expected.get(name));
    }
    await vi.waitFor(() => expect(tap.taps.all).toHaveLength(posted.length), { timeout: 10_000, interval: 20 });
    expect(tap.taps.all.map((event) => event.id).sort()).toEqual([...posted].sort());
    // A marker after everything: nothing more arrives to any listener than what matched.
    const marker = await post(infos[1]!.webhook_url, webhookId, { device: { id: 'plug-1' } });
    await vi.waitFor(() => expect(plug.ids().at(-1)).toBe(marker), { timeout: 10_000, interval: 20 });
    expect(lamp.ids()).toEqual(expected.get('lamp'));
    expect(sensor.ids()).toEqual(expected.get('sensor'));
    await Promise.all([lamp, sensor, plug, tap].map((listener) => listener.close()));
  });
});

describe('failover', () => {
  it('kill -9 of the instance a listener is on: it reconnects to another and gets every message that got a 202, none twice', async () => {
    const { clis, infos } = await instances(3);
    const { id: webhookId, secret } = infos[0]!.webhook;
    const options = { webhookId, secret, listenerId: 'failover', data: { $key: 'lamp-1' } };
    const first = await TestListener.connect({ ...options, forwarderUrl: infos[0]!.webhook_url });

    // A steady stream, spread over all three instances (those to the killed one fail from then on: no 202, not counted).
    const accepted: string[] = [];
    let sending = true;
    const stream = (async () => {
      for (let n = 0; sending; n++) {
        const id = await post(infos[n % 3]!.webhook_url, webhookId, { device: { id: 'lamp-1' }, n });
        if (id !== undefined) accepted.push(id);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();

    await vi.waitFor(() => expect(first.ids().length).toBeGreaterThanOrEqual(100), { timeout: 20_000, interval: 10 });
    clis[0]!.child.kill('SIGKILL');
    await first.closed;
    const acceptedAtKill = accepted.length;
    const firstIds = first.ids();
    // The listener's last ack may not have reached Redis: it resumes after the last it acknowledged.
    const second = await TestListener.connect({ ...options, forwarderUrl: infos[1]!.webhook_url, resumeAfter: firstIds.at(-1) });
    await vi.waitFor(() => expect(accepted.length).toBeGreaterThanOrEqual(acceptedAtKill + 100), { timeout: 20_000, interval: 10 });
    sending = false;
    await stream;

    const received = () => new Set([...firstIds, ...second.ids()]);
    await vi.waitFor(() => expect(accepted.filter((id) => !received().has(id))).toEqual([]), { timeout: 20_000, interval: 20 });
    // Each connection got each message at most once, in order; the second only what came after its resumeAfter
    // (an ack lost with the first connection would only mean a message sent again, still after that point).
    for (const ids of [firstIds, second.ids()]) {
      expect(new Set(ids).size).toBe(ids.length);
      const sequences = ids.map((id) => sequenceOf(id)!);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    }
    expect(second.ids().filter((id) => firstIds.includes(id))).toEqual([]);
    expect(accepted.length).toBeGreaterThanOrEqual(200);
    await second.close();
  });
});

describe('Redis away', () => {
  it('intake answers 503 with Retry-After and /readyz says not ready; both recover when Redis is back, and stored messages are still delivered', async () => {
    const { infos } = await instances(1);
    const [info] = infos as [ForwarderInfo];
    const { id: webhookId, secret } = info.webhook;
    const metric = async (name: string) => {
      const text = await (await fetch(info.health.metrics)).text();
      return new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
    };
    const pendingBefore = Number(await metric('forwarder_pending_messages'));
    const listener = await TestListener.connect({
      forwarderUrl: info.webhook_url,
      webhookId,
      secret,
      listenerId: 'patient',
      data: { $key: 'patient-lamp' },
      autoAck: false,
    });
    const before = await post(info.webhook_url, webhookId, { device: { id: 'patient-lamp' }, n: 'before' });
    expect((await listener.nextMessage()).id).toBe(before);

    // The unacknowledged message waits in Redis (the gauge counts every instance's listeners; read from Redis at most once a second, PENDING_MAX_AGE_MS).
    await vi.waitFor(async () => expect(Number(await metric('forwarder_pending_messages'))).toBe(pendingBefore + 1), { timeout: 10_000, interval: 100 });
    expect(await metric('forwarder_ready')).toBe('1');

    await redis.stop();
    // At once, whether or not the instance has noticed yet: never a 202 it cannot keep.
    const refused = await fetch(`${info.webhook_url}/webhook/${webhookId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"device":{"id":"patient-lamp"}}',
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
    await vi.waitFor(async () => expect((await fetch(info.health.ready)).status).toBe(503), { timeout: 10_000, interval: 20 });
    expect((await fetch(info.health.alive)).status).toBe(200);
    // /metrics still answers: not ready, and NaN for what only Redis knows.
    expect(await metric('forwarder_ready')).toBe('0');
    await vi.waitFor(async () => expect(Number(await metric('forwarder_pending_messages'))).toBeNaN(), { timeout: 10_000, interval: 100 });

    await redis.start();
    await vi.waitFor(async () => expect((await fetch(info.health.ready)).status).toBe(200), { timeout: 15_000, interval: 50 });
    const after = await post(info.webhook_url, webhookId, { device: { id: 'patient-lamp' }, n: 'after' });
    expect(after).toBeDefined();
    expect((await listener.nextMessage()).id).toBe(after);
    // The unacknowledged message from before the outage is still in Redis: a reconnect gets both again.
    await listener.close();
    const again = await TestListener.connect({ forwarderUrl: info.webhook_url, webhookId, secret, listenerId: 'patient', data: { $key: 'patient-lamp' } });
    expect(again.resumed).toBe(2);
    expect([(await again.nextMessage()).id, (await again.nextMessage()).id]).toEqual([before, after]);
    await again.close();
  });
});

describe('Redis that hangs', () => {
  it('an intake waiting on a frozen Redis is answered 503 with Retry-After once the stall limit has passed, not left waiting; intake works again once Redis thaws', async () => {
    const { infos } = await instances(1);
    const [info] = infos as [ForwarderInfo];
    const { id: webhookId } = info.webhook;
    expect(await post(info.webhook_url, webhookId, { device: { id: 'lamp-1' } })).toBeDefined();

    redis.pause(); // connections stay open; nothing is answered
    try {
      const sent = performance.now();
      const refused = await fetch(`${info.webhook_url}/webhook/${webhookId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"device":{"id":"lamp-1"}}',
        signal: AbortSignal.timeout(10_000),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      // Not before the stall limit (Redis was only slow until then), and not long after it.
      expect(performance.now() - sent).toBeGreaterThanOrEqual(STALL_MS);
    } finally {
      redis.resume();
    }
    await vi.waitFor(async () => expect(await post(info.webhook_url, webhookId, { device: { id: 'lamp-1' } })).toBeDefined(), {
      timeout: 15_000,
      interval: 100,
    });
  });
});

describe('readiness follows the intake', () => {
  /** An intake's status, then the very next /readyz's: the two must agree. */
  async function intakeThenReady(info: ForwarderInfo): Promise<[number, number]> {
    const intake = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"device":{"id":"lamp-1"}}',
      signal: AbortSignal.timeout(15_000),
    });
    await intake.body?.cancel();
    const ready = await fetch(info.health.ready);
    await ready.body?.cancel();
    return [intake.status, ready.status];
  }

  it('frozen Redis (SIGSTOP): from the first intake answered 503, /readyz is 503 too; after SIGCONT, 200 again once an intake is stored', async () => {
    const { infos } = await instances(1);
    const [info] = infos as [ForwarderInfo];
    expect(await intakeThenReady(info)).toEqual([202, 200]);

    redis.pause();
    try {
      // The first one waits for the stall limit; then no window where intakes are refused and the instance looks ready.
      for (let n = 0; n < 5; n++) expect(await intakeThenReady(info)).toEqual([503, 503]);
    } finally {
      redis.resume();
    }
    await vi.waitFor(async () => expect((await intakeThenReady(info))[0]).toBe(202), { timeout: 15_000, interval: 50 });
    expect(await intakeThenReady(info)).toEqual([202, 200]);
  });

  it('Redis killed (SIGKILL): 503 for intakes and /readyz together; Redis started again on the same port: 200 once an intake is stored', async () => {
    const { infos } = await instances(1);
    const [info] = infos as [ForwarderInfo];
    expect(await intakeThenReady(info)).toEqual([202, 200]);

    await redis.kill();
    for (let n = 0; n < 5; n++) expect(await intakeThenReady(info)).toEqual([503, 503]);
    await redis.start();
    await vi.waitFor(async () => expect((await intakeThenReady(info))[0]).toBe(202), { timeout: 15_000, interval: 50 });
    expect(await intakeThenReady(info)).toEqual([202, 200]);
  });
});

describe("Redis's script cache", () => {
  it('emptied (SCRIPT FLUSH, as after a restart): the next intake sends its script again and is delivered, and so is an ack', async () => {
    const { infos } = await instances(1);
    const [info] = infos as [ForwarderInfo];
    const { id: webhookId, secret } = info.webhook;
    const listener = await TestListener.connect({ forwarderUrl: info.webhook_url, webhookId, secret, listenerId: 'flushed', data: { $key: 'flushed' } });
    const admin = new Redis(redis.url);
    try {
      const first = await post(info.webhook_url, webhookId, { device: { id: 'flushed' }, n: 1 });
      expect((await listener.messages.next()).id).toBe(first);
      expect(await admin.script('FLUSH')).toBe('OK');
      const id = await post(info.webhook_url, webhookId, { device: { id: 'flushed' }, n: 2 });
      expect(id).toBeDefined();
      expect((await listener.messages.next()).id).toBe(id);
      // Acknowledged since (the listener acks each message): nothing of the listener's is left in its queue.
      await vi.waitFor(async () => expect(await admin.xlen(slotKey(webhookId, 'flushed'))).toBe(0));
    } finally {
      admin.disconnect();
      await listener.close();
    }
  });
});

describe("Redis's records are checked", () => {
  it('a webhook or listener slot that fails its schema, or is stored under another id, is skipped and logged; the valid ones load', async () => {
    const client = new Redis(redis.url);
    const valid = {
      record: { id: 'wh_valid', name: 'Valid', ownerId: 'owner', secret: 's'.repeat(43), keyPath: 'body.id', legacyFunction: null, createdAt: 1 },
      taps: [],
    };
    const slot = { webhookId: 'wh_valid', ownerId: 'owner', listenerId: 'good', keys: ['k'], rawBodyOnly: false };
    await client.hset(KEYS.webhooks, {
      wh_valid: JSON.stringify(valid),
      wh_garbage: 'not json',
      wh_elsewhere: JSON.stringify({ ...valid, record: { ...valid.record, id: 'wh_other' } }),
      wh_bad_key_path: JSON.stringify({ ...valid, record: { ...valid.record, id: 'wh_bad_key_path', keyPath: 'body[' } }),
    });
    await client.hset(KEYS.slots, {
      [slotKey('wh_valid', 'good')]: JSON.stringify(slot),
      [slotKey('wh_valid', 'garbage')]: '{"webhookId":1}',
      [slotKey('wh_valid', 'misplaced')]: JSON.stringify({ ...slot, listenerId: 'someone-else' }),
    });
    client.disconnect();
    const errors: Array<Record<string, unknown>> = [];
    const logger = { info: () => {}, warn: () => {}, error: (_message: string, fields?: Record<string, unknown>) => void errors.push(fields ?? {}) };
    const state = await connectRedis(redis.url, { logger });
    try {
      expect(state.store.get('wh_valid')?.name).toBe('Valid');
      for (const id of ['wh_garbage', 'wh_elsewhere', 'wh_other', 'wh_bad_key_path']) expect(state.store.get(id), id).toBeUndefined();
      expect([...(state.mirror.registry.of('wh_valid')?.slots.keys() ?? [])]).toEqual(['good']);
      expect(errors.map((fields) => fields.webhookId ?? fields.slot).sort()).toEqual(
        ['wh_bad_key_path', 'wh_elsewhere', 'wh_garbage', slotKey('wh_valid', 'garbage'), slotKey('wh_valid', 'misplaced')].sort(),
      );
    } finally {
      await state.close();
    }
  });
});
