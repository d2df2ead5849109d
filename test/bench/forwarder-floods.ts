/**
 * The two floods of docs/security.md, "Byte budgets", at the audit's full size, against the real forwarder in its own process
 * (test/support/forwarder-process.ts). Too slow for the test suite, which runs them scaled down
 * (test/integration/services/forwarder-floods.test.ts); figures in docs/security.md.
 *
 *   npx tsx test/bench/forwarder-floods.ts slots    # SLOTS (31) listeners of one webhook, each sent
 *                                                   # BODY_BYTES (256 KiB) requests until its buffer is
 *                                                   # full, forwarder heap HEAP_MB (512)
 *   npx tsx test/bench/forwarder-floods.ts legacy   # FLOOD (1,200) concurrent BODY_BYTES requests to
 *                                                   # one legacy webhook, then one to another webhook
 *   REDIS=1 npx tsx test/bench/forwarder-floods.ts legacy   # the same on INSTANCES (3) processes on one
 *                                                   # redis-server, the flood spread over all of them
 *   FLOOD_FROM=127.0.0.2 npx tsx …  legacy          # the flood from that address, the forwarder's
 *                                                   # per-address limits on (one attacker); without it
 *                                                   # one address stands for many senders, limits lifted
 *   FLOOD_SPREAD=12 npx tsx …  legacy               # the flood from 12 addresses, limits on (many senders)
 *   REDIS=1 VIA_NGINX=1 npx tsx …  legacy           # everything through nginx in front of the instances
 *   FORWARDER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx …  # Node flags for the forwarder children
 *
 * The legacy flood and its listener run in a process of their own (flood-sender.ts): the bench's process
 * holds only the other tenant's request and listener, so the other's times are the forwarder's, not
 * those of a load generator busy writing 300 MB (docs/benchmarks.md, "Another webhook during a legacy flood").
 *
 * Each prints what happened: whether the forwarder survived, its peak heap and resume-buffer bytes, and
 * whether (and after how long) the other tenant was served.
 */
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startProgram } from '../e2e/support/processes';
import { type ForwarderChild, ONE_ADDRESS_FLOOD_LIMITS, paddedBody, pooled, postRaw, startForwarderChild } from '../support/flood';
import { startTestNginx } from '../support/nginx';
import { startTestRedis } from '../support/redis-server';
import { TestListener } from '../support/webhook-listener';

const part = process.argv[2] ?? 'slots';
const BODY_BYTES = Number(process.env.BODY_BYTES ?? 256 * 1024 - 64);
const HEAP_MB = Number(process.env.HEAP_MB ?? 512);

async function slotsFlood(): Promise<void> {
  const slots = Number(process.env.SLOTS ?? 31);
  const perSlot = Number(process.env.PER_SLOT ?? 32);
  const forwarder = await startForwarderChild({ heapMb: HEAP_MB });
  const { url, webhooks } = forwarder.info;
  const refused: string[] = [];
  for (let i = 0; i < slots; i++) {
    try {
      const listener = await TestListener.connect({
        forwarderUrl: url,
        webhookId: webhooks.flood.id,
        secret: webhooks.flood.secret,
        listenerId: `slot-${i}`,
        hubId: `h-${i}`,
      });
      await listener.close(); // away: its messages wait in its resume buffer
    } catch (error) {
      refused.push(String(error));
    }
  }
  const other = await TestListener.connect({ forwarderUrl: url, webhookId: webhooks.other.id, secret: webhooks.other.secret, listenerId: 'other', hubId: 'o' });
  let peakHeap = 0;
  let peakBuffers = 0;
  const started = performance.now();
  const statuses = new Map<number, number>();
  let died = false;
  void forwarder.exited.then(() => (died = true));
  await pooled(slots * perSlot, 4, async (index) => {
    if (died) return;
    const result = await postRaw(`${url}/webhook/${webhooks.flood.id}?hub=h-${index % slots}`, paddedBody('a', BODY_BYTES)).catch(() => ({ status: 0 }));
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
    if (index % 25 === 0 && !died) {
      const stats = await forwarder.stats().catch(() => undefined);
      if (stats) {
        peakHeap = Math.max(peakHeap, stats.memory.heapUsed);
        peakBuffers = Math.max(peakBuffers, stats.forwarder.resumeBufferBytes);
      }
    }
  });
  let otherServed = false;
  if (!died) {
    const response = await postRaw(`${url}/webhook/${webhooks.other.id}?hub=o`, paddedBody('b', 100));
    otherServed = response.status === 202 && (await other.nextMessage()) !== undefined;
  }
  report({
    part: 'slots',
    slots,
    refusedRegistrations: refused.length,
    requests: slots * perSlot,
    statuses: Object.fromEntries(statuses),
    forwarderDied: died,
    exitCode: died ? await forwarder.exited : null,
    fatal: /heap out of memory|Allocation failed/i.test(forwarder.stderr()) ? 'JavaScript heap out of memory' : undefined,
    peakHeapMiB: mib(peakHeap),
    peakResumeBufferMiB: mib(peakBuffers),
    otherServed,
    seconds: ((performance.now() - started) / 1000).toFixed(1),
  });
  await finish(forwarder, [other]);
}

async function legacyFlood(): Promise<void> {
  const flood = Number(process.env.FLOOD ?? 1200);
  // REDIS=1: INSTANCES (default 3) forwarder processes on one redis-server of the bench's own, the flood
  // spread over all of them, the other webhook's listener on the second and its request to the third.
  const instances = process.env.REDIS === '1' ? Number(process.env.INSTANCES ?? 3) : 1;
  const redis = process.env.REDIS === '1' ? await startTestRedis() : undefined;
  const forwarders: ForwarderChild[] = [];
  // Who sends the flood. FLOOD_FROM=127.0.0.2: one attacker at that address, the forwarder's per-address
  // limits on. FLOOD_SPREAD=N: N senders (127.0.1.1…127.0.1.N, the flood dealt among them), limits on.
  // Neither: flood and other share 127.0.0.1 with those limits lifted (one address standing for many).
  const spread = Number(process.env.FLOOD_SPREAD ?? 0);
  const floodFrom = process.env.FLOOD_FROM
    ? [process.env.FLOOD_FROM]
    : spread > 0
      ? Array.from({ length: spread }, (_, index) => `127.0.1.${index + 1}`)
      : undefined;
  // VIA_NGINX=1 (with REDIS=1 and three instances): every request and listener goes through nginx running
  // deploy/nginx/forwarder.conf.template, as deployed (docs/services.md, "Behind a load balancer"); the
  // instances exempt nginx's address, which limits each client itself.
  const viaNginx = process.env.VIA_NGINX === '1';
  if (viaNginx && (!redis || instances !== 3)) throw new Error('VIA_NGINX=1 needs REDIS=1 and three instances');
  const addressLimits = viaNginx ? { exemptAddresses: ['127.0.0.1'] } : floodFrom ? {} : ONE_ADDRESS_FLOOD_LIMITS;
  for (let i = 0; i < instances; i++)
    forwarders.push(
      await startForwarderChild({ heapMb: Number(process.env.HEAP_MB ?? 4096), legacy: true, redisUrl: redis?.url, forwarderOptions: { addressLimits } }),
    );
  // Each client connection through nginx holds two of its worker connections (client and upstream).
  const nginx = viaNginx
    ? await startTestNginx(forwarders.map((forwarder) => new URL(forwarder.info.url).host) as [string, string, string], 2 * flood + 256)
    : undefined;
  const urls = nginx ? [nginx.url, nginx.url, nginx.url] : forwarders.map((forwarder) => forwarder.info.url);
  const { webhooks } = forwarders[0]!.info;
  const otherListener = await TestListener.connect({
    forwarderUrl: urls[1 % instances]!,
    webhookId: webhooks.other.id,
    secret: webhooks.other.secret,
    listenerId: 'other',
    data: { room: 'b' },
  });
  // The flood, and its listener, each in a process of their own (flood-sender.ts).
  const senderPlan = {
    FLOOD_SENDER: JSON.stringify({
      urls,
      webhookId: webhooks.flood.id,
      secret: webhooks.flood.secret,
      listenerUrl: urls[0],
      count: flood,
      bodyBytes: BODY_BYTES,
      from: floodFrom,
    }),
  };
  const floodListener = startProgram('test/bench/flood-sender.ts', ['listener'], senderPlan);
  let floodDelivered = 0;
  let lastDeliveryAt = performance.now();
  await new Promise<void>((resolve) =>
    createInterface({ input: floodListener.child.stdout! }).on('line', (line) => {
      const event = JSON.parse(line) as { connected?: true; delivered?: number };
      if (event.connected) resolve();
      if (event.delivered !== undefined) [floodDelivered, lastDeliveryAt] = [event.delivered, performance.now()];
    }),
  );
  const sender = startProgram('test/bench/flood-sender.ts', ['flood'], senderPlan);
  let answered = 0;
  let firstAnsweredMs = 0;
  let floodEndedMs = 0;
  let done: { statuses: Record<string, number> } | undefined;
  let started = 0;
  let sending!: () => void;
  const floodBegan = new Promise<void>((resolve) => (sending = resolve));
  let floodFinished!: () => void;
  const finished = new Promise<void>((resolve) => (floodFinished = resolve));
  createInterface({ input: sender.child.stdout! }).on('line', (line) => {
    const event = JSON.parse(line) as { sending?: true; answered?: number; done?: typeof done };
    if (event.sending) {
      started = performance.now();
      sending();
    }
    if (event.answered !== undefined) {
      if (answered === 0) firstAnsweredMs = performance.now() - started;
      answered = event.answered;
    }
    if (event.done) {
      done = event.done;
      floodEndedMs = performance.now() - started;
      floodFinished();
    }
  });
  await floodBegan;
  // The other tenant's request goes out once OTHER_AFTER flood requests were answered (default 1: the
  // flood has reached the forwarder), or OTHER_AFTER_MS (default 5,000) after the flood began, whichever
  // comes first: on a loaded machine the flood's first answers can take longer than that.
  const otherAfter = Number(process.env.OTHER_AFTER ?? 1);
  const otherAfterMs = Number(process.env.OTHER_AFTER_MS ?? 5_000);
  while (answered < otherAfter && performance.now() - started < otherAfterMs) await new Promise((resolve) => setTimeout(resolve, 5));
  const answeredBeforeOther = answered;
  const otherAt = forwarders[2 % instances]!;
  const before = await otherAt.stats();
  const sent = performance.now();
  const response = await postRaw(`${urls[2 % instances]}/webhook/${webhooks.other.id}`, paddedBody('b', 100));
  const acceptedMs = performance.now() - sent;
  const delivered = await Promise.race([
    otherListener.nextMessage().then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 120_000)),
  ]);
  const otherMs = performance.now() - sent;
  const floodAnsweredWhenOtherDelivered = answered;
  const after = await otherAt.stats();
  await finished;
  await sender.stop();
  // Answers come before their deliveries: wait until every 202 is delivered, or deliveries stop (2 s without one).
  const accepted = done?.statuses['202'] ?? 0;
  while (floodDelivered < accepted && performance.now() - lastDeliveryAt < 2_000) await new Promise((resolve) => setTimeout(resolve, 50));
  await floodListener.stop();
  report({
    part: 'legacy',
    store: redis ? `redis, ${instances} instances` : 'memory',
    senders: floodFrom
      ? `flood from ${floodFrom.length === 1 ? floodFrom[0] : `${floodFrom.length} addresses`}, per-address limits on`
      : 'one address standing for many, per-address limits lifted',
    via: nginx ? 'nginx' : 'direct',
    flood,
    bodyBytes: BODY_BYTES,
    floodFirstAnsweredAfterMs: Math.round(firstAnsweredMs),
    otherSentAfterMs: Math.round(sent - started),
    otherStatus: response.status,
    otherAnsweredAfterMs: Math.round(acceptedMs),
    otherDelivered: delivered,
    otherDeliveredAfterMs: delivered ? Math.round(otherMs) : undefined,
    floodAnsweredBeforeOtherDelivered: answeredBeforeOther,
    floodAnsweredWhenOtherDelivered,
    floodLastAnsweredAfterMs: Math.round(floodEndedMs),
    floodWaitingWhenOtherSent: before.forwarder.legacyWaiting,
    floodWaitingWhenOtherDelivered: after.forwarder.legacyWaiting,
    floodStatuses: done?.statuses,
    floodDelivered,
    peakHeapMiB: mib(Math.max(before.memory.heapUsed, after.memory.heapUsed)),
    // Redis mode: the instances' "Redis did not answer an intake in time" reconnects, and their other warnings.
    stallReconnects: forwarders.map(
      (forwarder) =>
        forwarder
          .stderr()
          .split('\n')
          .filter((line) => line.includes('did not answer an intake')).length,
    ),
    warnings: [
      ...new Set(
        forwarders.flatMap((forwarder) =>
          forwarder
            .stderr()
            .split('\n')
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { message: string }).message),
        ),
      ),
    ],
  });
  await otherListener.close().catch(() => undefined);
  await nginx?.stop();
  await Promise.all(forwarders.map((forwarder) => forwarder.stop()));
  await redis?.stop();
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function report(figures: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

async function finish(forwarder: ForwarderChild, listeners: TestListener[]): Promise<void> {
  await Promise.all(listeners.map((listener) => listener.close().catch(() => undefined)));
  await forwarder.stop();
}

if (part === 'slots') await slotsFlood();
else if (part === 'legacy') await legacyFlood();
else throw new Error(`unknown part ${part}: slots or legacy`);
process.exit(0);
