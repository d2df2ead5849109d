/**
 * The byte budgets of docs/security.md ("Byte budgets") with the real processes: the forwarder's byte budgets and caps hold under the floods the
 * audit found, over real sockets, and another tenant is still served. Scaled down from the audit's
 * figures (test/bench/forwarder-floods.ts runs them at full size):
 * - 31 listener slots of one webhook filling their resume buffers, against a forwarder child whose heap
 *   is smaller than those buffers would hold without the forwarder-wide budget;
 * - a flood of large requests to one legacy webhook, in-process, while another legacy webhook sends one;
 * - the same in memory and on Redis with three instances: the other webhook's messages that got a 202
 *   reach its listener while the flood is still being answered, and an instance swept as gone while it
 *   was only busy keeps delivering to its listeners;
 * - the caps on listeners per webhook and per owner, and on connections.
 * Nothing here measures time: each flood checks state (bytes held, queue contents, who got what).
 */
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { LISTEN_PATH } from '../../../common/webhook-protocol';
import { type RunningForwarder, startForwarder } from '../../../services/forwarder/forwarder';
import { createLegacyRunner, type LegacyRunner } from '../../../services/forwarder/legacy/legacy-runner';
import { ALIVE_PREFIX, KEYS, slotKey } from '../../../services/forwarder/redis/redis-keys';
import { createWebhookStore, type WebhookRecord } from '../../../services/forwarder/webhook-store';
import { type ForwarderChild, ONE_ADDRESS_FLOOD_LIMITS, paddedBody, pooled, postRaw, type PostResult, startForwarderChild } from '../../support/flood';
import { forwarderStores, STORE_KINDS } from '../../support/forwarder-stores';
import { TestListener } from '../../support/webhook-listener';

const MiB = 1024 * 1024;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

describe('many listener slots filling their resume buffers (forwarder child, 128 MiB heap)', () => {
  // 31 buffers of 8 MiB as counted (4 Mi characters each) would hold 124 MiB of frames: more than the
  // heap. The budget keeps all of them together at 16 MiB.
  const HEAP_MB = 128;
  const BUDGET = 16 * MiB;
  const SLOTS = 31;
  const BODY = 64 * 1024 - 64;

  it('stays up, keeps the buffers within the budget by evicting from the largest, and still serves another owner', async () => {
    const forwarder: ForwarderChild = await startForwarderChild({
      heapMb: HEAP_MB,
      forwarderOptions: { resumeBudgetBytes: BUDGET, resumeBufferBytes: 8 * MiB, addressLimits: ONE_ADDRESS_FLOOD_LIMITS },
    });
    cleanup.push(() => forwarder.stop());
    const { url, webhooks } = forwarder.info;
    for (let i = 0; i < SLOTS; i++) {
      const listener = await TestListener.connect({
        forwarderUrl: url,
        webhookId: webhooks.flood.id,
        secret: webhooks.flood.secret,
        listenerId: `slot-${i}`,
        hubId: `h-${i}`,
      });
      await listener.close(); // away: everything routed to it waits in its buffer
    }
    const other = await TestListener.connect({
      forwarderUrl: url,
      webhookId: webhooks.other.id,
      secret: webhooks.other.secret,
      listenerId: 'other',
      hubId: 'o',
    });
    cleanup.push(() => other.close());

    // Enough for every buffer to reach its own 8 MiB bound (~27 frames of ~300 KB as counted).
    const perSlot = 28;
    let peakBytes = 0;
    const statuses = await pooled(SLOTS * perSlot, 4, async (index) => {
      const { status } = await postRaw(`${url}/webhook/${webhooks.flood.id}?hub=h-${index % SLOTS}`, paddedBody('a', BODY));
      if (index % 50 === 0) peakBytes = Math.max(peakBytes, (await forwarder.stats()).forwarder.resumeBufferBytes);
      return status;
    });
    expect(statuses.every((status) => status === 202)).toBe(true);

    const stats = await forwarder.stats();
    expect(forwarder.child.exitCode).toBeNull();
    expect(stats.forwarder.listeners).toBe(SLOTS + 1);
    expect(Math.max(peakBytes, stats.forwarder.resumeBufferBytes)).toBeLessThanOrEqual(BUDGET);
    // Full: the budget, not the flood's end, is what stopped the buffers growing.
    expect(stats.forwarder.resumeBufferBytes).toBeGreaterThan(BUDGET * 0.9);
    // After a collection the heap holds the budget and the forwarder itself, far from the 128 MiB that died.
    expect(stats.memory.heapUsed).toBeLessThan(BUDGET + 48 * MiB);
    // The eviction log names the listener, never the payload.
    const evictions = forwarder
      .stderr()
      .split('\n')
      .filter((line) => line.includes('resume budget exceeded'));
    expect(evictions.length).toBeGreaterThan(0);
    expect(JSON.parse(evictions[0]!)).toMatchObject({ webhookId: webhooks.flood.id, listenerId: expect.stringMatching(/^slot-/), budgetBytes: BUDGET });
    expect(forwarder.stderr()).not.toContain('xxxxxxxx');

    // Each away listener still gets its newest messages on return: eviction took the oldest.
    const back = await TestListener.connect({
      forwarderUrl: url,
      webhookId: webhooks.flood.id,
      secret: webhooks.flood.secret,
      listenerId: 'slot-0',
      hubId: 'h-0',
      autoAck: false,
    });
    cleanup.push(() => back.close());
    expect(back.resumed).toBeGreaterThan(0);
    expect(back.resumed).toBeLessThan(perSlot);

    const { status } = await postRaw(`${url}/webhook/${webhooks.other.id}?hub=o`, paddedBody('b', 100));
    expect(status).toBe(202);
    expect((await other.nextMessage()).body).toMatchObject({ room: 'b' });
  }, 60_000);
});

describe('a flood of large requests to one legacy webhook (in-process)', () => {
  const QUEUE = 8;
  const FLOOD = 40;
  const BODY = 64 * 1024;
  const BY_ROOM = 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }';
  // The flood's function loops a little first, so its queue cannot drain while the test sends the other
  // webhook's request; the assertions are about order, not about this speed (a run that overshoots the
  // deadline only routes nothing).
  const SLOW_BY_ROOM = 'function (hubData, webhookData) { for (var i = 0, n = 0; i < 100000; i++) n += i; return hubData.room === webhookData.body.room; }';

  const legacyWebhook = (id: string, ownerId: string, legacyFunction: string): WebhookRecord => ({
    id,
    name: id,
    ownerId,
    secret: `secret-of-${id}`,
    keyPath: null,
    legacyFunction,
    createdAt: 0,
  });

  it('answers the flood 429 once its own queue is full, and serves the other webhook while the flood still waits', async () => {
    const store = createWebhookStore();
    const flood = legacyWebhook('wh_flood', 'attacker', SLOW_BY_ROOM);
    const other = legacyWebhook('wh_other', 'tenant', BY_ROOM);
    await store.seed(flood);
    await store.seed(other);
    const runner = createLegacyRunner({ workers: 1, maxQueuePerWebhook: QUEUE });
    // What the flood's queue held when the other webhook's sandbox run finished, and how many flood
    // requests had reached the runner by then: read at that instant, in the runner's own turn.
    let floodWaitingWhenOtherRan: number | undefined;
    let floodRuns = 0;
    const observed: LegacyRunner = {
      ...runner,
      async run(source, data, registrations, queue, reservation) {
        if (queue === flood.id) floodRuns++;
        const outcome = await runner.run(source, data, registrations, queue, reservation);
        if (queue === other.id) floodWaitingWhenOtherRan = runner.waiting()[flood.id] ?? 0;
        return outcome;
      },
    };
    // The queue's own bound is what this test is about, whether or not its connections queue to be accepted.
    const forwarder: RunningForwarder = await startForwarder({ store, legacyRunner: observed, legacySpacingWhileBehind: 0 });
    cleanup.push(
      () => runner.close(),
      () => forwarder.close(),
    );
    const floodListener = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: flood.id,
      secret: flood.secret,
      listenerId: 'f',
      data: { room: 'a' },
    });
    const otherListener = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: other.id,
      secret: other.secret,
      listenerId: 'o',
      data: { room: 'b' },
    });
    cleanup.push(
      () => floodListener.close(),
      () => otherListener.close(),
    );

    // Every flood request is on its way before the other webhook's: once one 429 came back, the flood's queue was full.
    let firstRefusal!: (result: PostResult) => void;
    const refused = new Promise<PostResult>((resolve) => (firstRefusal = resolve));
    const floodResults = Promise.all(
      Array.from({ length: FLOOD }, () =>
        postRaw(`${forwarder.url}/webhook/${flood.id}`, paddedBody('a', BODY)).then((result) => {
          if (result.status === 429) firstRefusal(result);
          return result;
        }),
      ),
    );
    const refusal = await refused;
    expect(refusal.headers['retry-after']).toBe('1');
    expect(refusal.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refusal.body)).toEqual({ error: 'too_many_requests', error_description: expect.stringContaining(`at most ${QUEUE} requests`) });

    const { status, body } = await postRaw(`${forwarder.url}/webhook/${other.id}`, paddedBody('b', 100));
    expect(status).toBe(202);
    const delivered = await otherListener.nextMessage();
    expect(delivered.id).toBe((JSON.parse(body) as { id: string }).id);
    // Fair: the other webhook's run finished while flood requests were still waiting. With one queue
    // for all, every flood request queued before it would have run first (nothing of the flood waiting).
    expect(floodWaitingWhenOtherRan).toBeGreaterThan(0);

    const results = await floodResults;
    const accepted = results.filter((result) => result.status === 202).length;
    expect(accepted + results.filter((result) => result.status === 429).length).toBe(FLOOD);
    expect(accepted).toBeGreaterThan(0);
    // Bodies being read count as waiting: every flood request refused was refused before its body was
    // read, and every body read reached the sandbox and was accepted. Without that, the bodies of all the
    // requests that arrived while the queue still had room were read, and most then refused.
    expect(floodRuns).toBe(accepted);
    // Every accepted request was answered after its run: nothing waits any more.
    expect(forwarder.stats().legacyWaiting).toEqual({});
  }, 60_000);

  it('counts bodies being read as waiting: a flood whose headers all came before its bodies is refused before they are read', async () => {
    const store = createWebhookStore();
    const flood = legacyWebhook('wh_flood', 'attacker', SLOW_BY_ROOM);
    await store.seed(flood);
    const runner = createLegacyRunner({ workers: 1, maxQueuePerWebhook: QUEUE });
    let floodRuns = 0;
    let headersSeen = 0;
    const observed: LegacyRunner = {
      ...runner,
      run(...args) {
        floodRuns++;
        return runner.run(...args);
      },
      // Asked for each request once its headers are read, before any of its body.
      reserve(...args) {
        headersSeen++;
        return runner.reserve(...args);
      },
    };
    // The queue's own bound is what this test is about, whether or not its connections queue to be accepted.
    const forwarder = await startForwarder({ store, legacyRunner: observed, legacySpacingWhileBehind: 0 });
    cleanup.push(
      () => runner.close(),
      () => forwarder.close(),
    );
    const listener = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: flood.id,
      secret: flood.secret,
      listenerId: 'f',
      data: { room: 'a' },
    });
    cleanup.push(() => listener.close());

    // Each request sends its headers and the first 1 KiB of its body, and holds the rest back.
    const { answers, sendTheRest } = heldBodies(`${forwarder.url}/webhook/${flood.id}`, paddedBody('a', BODY), FLOOD);
    // Every request's headers have been read; the answers given then have reached their clients.
    await vi.waitFor(() => expect(headersSeen).toBe(FLOOD), { timeout: 30_000, interval: 20 });
    await vi.waitFor(() => expect(answers.length).toBeGreaterThanOrEqual(FLOOD - QUEUE), { timeout: 30_000, interval: 20 });
    const refusedBeforeTheirBodies = answers.length;
    const statuses = await sendTheRest();

    const accepted = statuses.filter((status) => status === 202).length;
    expect(accepted).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 429)).toHaveLength(FLOOD - accepted);
    // Each 429 came while its body was still held back; no body was read only to be refused.
    expect(refusedBeforeTheirBodies).toBe(FLOOD - accepted);
    expect(floodRuns).toBe(accepted);
    expect(accepted).toBeLessThanOrEqual(QUEUE);
    await vi.waitFor(() => expect(listener.messages.all).toHaveLength(accepted), { timeout: 30_000 });
  }, 60_000);
});

describe('a flood of one legacy webhook whose connections queue to be accepted (in-process)', () => {
  const FLOOD = 20;
  const QUEUE = 8;
  const BODY = 64 * 1024;
  const byRoom = 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }';
  const webhookOf = (id: string, ownerId: string): WebhookRecord => ({
    id,
    name: id,
    ownerId,
    secret: `secret-of-${id}`,
    keyPath: null,
    legacyFunction: byRoom,
    createdAt: 0,
  });

  it('spaces its requests out: fewer bodies read than its queue allows, the rest refused before their bodies; another webhook’s taken', async () => {
    const store = createWebhookStore();
    const [flood, other] = [webhookOf('wh_flood', 'attacker'), webhookOf('wh_other', 'tenant')];
    await store.seed(flood);
    await store.seed(other);
    const runner = createLegacyRunner({ workers: 1, maxQueuePerWebhook: QUEUE });
    // Flood requests given room in the webhook's sandbox queue, their bodies to be read.
    let held = 0;
    const observed: LegacyRunner = {
      ...runner,
      reserve(...args) {
        const room = runner.reserve(...args);
        if (args[0] === flood.id && 'release' in room) held++;
        return room;
      },
    };
    const forwarder = await startForwarder({ store, legacyRunner: observed });
    cleanup.push(
      () => runner.close(),
      () => forwarder.close(),
    );
    const floodListener = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: flood.id,
      secret: flood.secret,
      listenerId: 'f',
      data: { room: 'a' },
    });
    const otherListener = await TestListener.connect({
      forwarderUrl: forwarder.url,
      webhookId: other.id,
      secret: other.secret,
      listenerId: 'o',
      data: { room: 'b' },
    });
    cleanup.push(
      () => floodListener.close(),
      () => otherListener.close(),
    );

    // All connect in one turn, so they wait in the kernel while the forwarder accepts one per turn. Each
    // sends its headers and the first 1 KiB of its body, and holds the rest back.
    const { answers, sendTheRest } = heldBodies(`${forwarder.url}/webhook/${flood.id}`, paddedBody('a', BODY), FLOOD);
    // Every request was either given room or answered, while its body was held back.
    await vi.waitFor(() => expect(answers.length + held).toBe(FLOOD), { timeout: 30_000, interval: 20 });
    // Its own queue would have held QUEUE bodies; while connections queued, its requests were spaced out.
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(QUEUE);
    expect(answers.every((answer) => answer.status === 429)).toBe(true);
    expect(answers.map((answer) => (JSON.parse(answer.body) as { error_description: string }).error_description)).toContainEqual(
      expect.stringContaining('behind on accepting connections'),
    );
    // Another webhook's request is taken, routed and delivered meanwhile.
    const { status, body: accepted } = await postRaw(`${forwarder.url}/webhook/${other.id}`, paddedBody('b', 100));
    expect(status).toBe(202);
    expect((await otherListener.nextMessage()).id).toBe((JSON.parse(accepted) as { id: string }).id);

    const statuses = await sendTheRest();
    expect(statuses.filter((code) => code === 202)).toHaveLength(held);
    await vi.waitFor(() => expect(floodListener.messages.all).toHaveLength(held), { timeout: 30_000 });
  }, 60_000);
});

const BY_ROOM_FN = 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }';
// Loops a little first, so the flood's sandbox queues stay full while the test runs (see above).
const SLOW_BY_ROOM_FN = 'function (hubData, webhookData) { for (var i = 0, n = 0; i < 100000; i++) n += i; return hubData.room === webhookData.body.room; }';
const floodWebhook = (id: string, ownerId: string, legacyFunction: string): WebhookRecord => ({
  id,
  name: id,
  ownerId,
  secret: `secret-of-${id}`,
  keyPath: null,
  legacyFunction,
  createdAt: 0,
});

describe.each(STORE_KINDS)('a flood of one legacy webhook does not starve another (%s)', (kind) => {
  // Scaled down from the audit's 1,200 × 256 KiB (test/bench/forwarder-floods.ts legacy, REDIS=1 for three
  // instances): SENDERS clients each post BODY-byte requests to the flooded webhook, one after the other,
  // spread over the instances, until the other webhook's messages have arrived or MAX_FLOOD were sent.
  // SENDERS is more than the instances' sandbox queues hold together, so the flood is also refused (429).
  // Once it is under way (a first flood request answered), the other webhook sends OTHER requests to another
  // instance than its listener's. Nothing is timed: every one of them that got a 202 must arrive, in order, while
  // the flood still goes on (before its MAX_FLOOD-th request was answered).
  const SENDERS = 40;
  const MAX_FLOOD = 1_000;
  const BODY = 64 * 1024;
  const OTHER = 5;

  it("delivers every 202'd message of the other webhook while the flood is still going on", async () => {
    const stores = await forwarderStores(kind);
    cleanup.push(() => stores.close());
    const flood = floodWebhook('wh_flood', 'attacker', SLOW_BY_ROOM_FN);
    const other = floodWebhook('wh_other', 'tenant', BY_ROOM_FN);
    await stores.store.seed(flood);
    await stores.store.seed(other);
    const forwarders: RunningForwarder[] = [];
    for (let i = 0; i < (kind === 'redis' ? 3 : 1); i++) {
      const runner = createLegacyRunner({ workers: 1, maxQueuePerWebhook: 8 });
      cleanup.push(() => runner.close());
      forwarders.push(await stores.start({ legacyRunner: runner, addressLimits: ONE_ADDRESS_FLOOD_LIMITS }));
    }
    const at = (i: number) => forwarders[i % forwarders.length]!.url;
    const floodListener = await TestListener.connect({ forwarderUrl: at(0), webhookId: flood.id, secret: flood.secret, listenerId: 'f', data: { room: 'a' } });
    const otherListener = await TestListener.connect({ forwarderUrl: at(1), webhookId: other.id, secret: other.secret, listenerId: 'o', data: { room: 'b' } });
    cleanup.push(
      () => floodListener.close(),
      () => otherListener.close(),
    );

    let sent = 0;
    let answered = 0;
    let delivered = false;
    let firstAnswer!: () => void;
    const underWay = new Promise<void>((resolve) => (firstAnswer = resolve));
    const statuses = new Set<number>();
    const senders = Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (!delivered && sent < MAX_FLOOD) {
          const { status } = await postRaw(`${at(sent++)}/webhook/${flood.id}`, paddedBody('a', BODY));
          answered++;
          statuses.add(status);
          firstAnswer();
        }
      }),
    );
    await underWay;
    const accepted: string[] = [];
    for (let n = 0; n < OTHER; n++) {
      const { status, body } = await postRaw(`${at(2)}/webhook/${other.id}`, paddedBody('b', 100));
      expect(status).toBe(202);
      accepted.push((JSON.parse(body) as { id: string }).id);
    }
    const ids: string[] = [];
    for (let n = 0; n < OTHER; n++) ids.push((await otherListener.nextMessage()).id);
    const floodAnsweredAtDelivery = answered;
    delivered = true;
    await senders;

    expect(ids).toEqual(accepted);
    // The flood had not run its course: the other webhook's messages did not wait for it to end.
    expect(floodAnsweredAtDelivery).toBeLessThan(MAX_FLOOD);
    expect([...statuses].sort()).toEqual([202, 429]);
  }, 60_000);
});

describe('an instance on Redis swept as gone while it was only busy', () => {
  it('takes its listeners back when it renews its alive key, and delivers what was stored for them meanwhile', async () => {
    const stores = await forwarderStores('redis');
    cleanup.push(() => stores.close());
    const webhook = await stores.store.create({ name: 'busy', ownerId: 'alice' });
    // `busy` holds the listener; `sweeper` sweeps every 50 ms and takes the intake.
    const busy = await stores.start({ sweepMs: 60_000 });
    const sweeper = await stores.start({ sweepMs: 50 });
    const listener = await TestListener.connect({ forwarderUrl: busy.url, webhookId: webhook.id, secret: webhook.secret, listenerId: 'l', hubId: 'h' });
    cleanup.push(() => listener.close());
    const client = new Redis(stores.redis!.url);
    cleanup.push(() => client.quit());
    const slot = slotKey(webhook.id, 'l');
    const owner = await client.hget(KEYS.owners, slot);
    expect(owner).not.toBeNull();

    // Its alive key lapses, as it does when a flood keeps the instance from renewing it within 15 s: the
    // sweeper's next sweep takes its listener as away, though it is still connected.
    await client.del(ALIVE_PREFIX + owner!);
    await vi.waitFor(async () => expect(await client.hget(KEYS.owners, slot)).toBeNull(), { timeout: 10_000, interval: 20 });

    const { status, body } = await postRaw(`${sweeper.url}/webhook/${webhook.id}?hub=h`, '{"n":1}');
    expect(status).toBe(202);
    // Nobody was woken for it; the busy instance's next renewal (every 5 s) takes the listener back and reads.
    const message = await listener.nextMessage();
    expect(message.id).toBe((JSON.parse(body) as { id: string }).id);
    expect(await client.hget(KEYS.owners, slot)).toBe(owner);
  }, 30_000);
});

describe('the cap on connections', () => {
  it('answers a connection over the cap 503 (JSON, Retry-After) and admits one again once another closes', async () => {
    const store = createWebhookStore();
    const webhook = await store.create({ name: 'one', ownerId: 'alice' });
    const forwarder = await startForwarder({ store, maxConnections: 2 });
    cleanup.push(() => forwarder.close());
    const listeners = [0, 1].map((i) =>
      TestListener.connect({ forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, listenerId: `l${i}` }),
    );
    const [a, b] = await Promise.all(listeners);
    cleanup.push(() => b!.close());
    expect(forwarder.stats().connections).toBe(2);

    const refused = await postRaw(`${forwarder.url}/webhook/${webhook.id}`, '{}');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body)).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('2 open connections') });
    const upgrade = new WebSocket(forwarder.url.replace(/^http/, 'ws') + LISTEN_PATH);
    upgrade.on('error', () => {}); // ws reports the refused upgrade as an error too
    const answer = await new Promise<number>((resolve) => upgrade.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
    expect(answer).toBe(503);
    upgrade.terminate();

    await a!.close();
    expect((await postRaw(`${forwarder.url}/webhook/${webhook.id}`, '{}')).status).toBe(202);
  });
});

/**
 * `count` POSTs of `body` to `url`, each on its own connection, sending its headers and the first 1 KiB of its
 * body and holding the rest back: `answers` holds each answer as it comes (status and text), `sendTheRest`
 * sends every body's rest and resolves with each request's status (0 for a connection that failed).
 */
function heldBodies(url: string, body: string, count: number): { answers: { status: number; body: string }[]; sendTheRest(): Promise<number[]> } {
  const answers: { status: number; body: string }[] = [];
  const requests = Array.from({ length: count }, () => {
    const held = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const status = new Promise<number>((resolve) => {
      held.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          answers.push({ status: response.statusCode ?? 0, body: text });
          resolve(response.statusCode ?? 0);
        });
      });
      held.on('error', () => resolve(0));
    });
    held.write(body.slice(0, 1024));
    return { held, status };
  });
  return {
    answers,
    sendTheRest: () => {
      for (const { held } of requests) held.end(body.slice(1024));
      return Promise.all(requests.map(({ status }) => status));
    },
  };
}
