/**
 * `npm run bench`: Hubdesk's figures, each next to a baseline measured in the same run on this machine.
 * Method, targets and the latest figures: docs/benchmarks.md (the section named after each part).
 * Parts, by their `BENCH_ONLY` name:
 *   routes     opening a hub with healthy, secure-LAN-dead and LAN-dead routes (route-opening.ts; "Opening a hub: route choice")
 *   live       the live device view of 1,000 devices under 200 events/s, in Chromium (live-view.ts; "The live device view under an event storm")
 *   routing    routing time per request with 100,000 registrations ÷ with 10, and the routing function alone ("Method")
 *   legacy     legacy-function routing throughput, 100 registrations ("Method")
 *   intake     intake throughput, 10,000 registrations ÷ a bare Node server; intake → listener latency at 1,000 requests/s ("Method")
 *   delivery   intake with one live listener acknowledging every message ÷ bare Node ("Intake with one live listener")
 *   redis      the same on Redis, its latency against this machine's floor, and a failover ("The forwarder on Redis")
 *   inspector  bytes per webhook intake to the app and to its renderer (inspector-bytes.ts; "Inspector: bytes per intake")
 *   start      `npm start` on a built checkout ÷ with the renderer rebuilt (start-up.ts; "Start-up on a built checkout")
 *   history    the inspector on a 100,000-message history, and 500 messages/s into it (inspector-history.ts; "The inspector on a large history")
 *   insights   the hub's insights per resolution, start-up, a year of history (insights.ts; "The hub's insights")
 *   insights-flood  another session's device list during one session's 300 year-long reads (insights-flood.ts; "One session's insights flood")
 *   charts     a history chart of 100,000 points in Chromium (charts.ts; "A history chart of 100,000 points")
 *   slow       another address's requests while one holds 1,100 slow sockets, per service (slow-sockets.ts; "One address's slow sockets")
 *   churn      another owner's intakes and Redis's memory while one webhook's listeners re-register for 60 s on three instances (registration-churn.ts; "Registration churn on Redis")
 *   official   hub change → the official client's (homey-api) capability listener and → the hub's own realtime, 100 devices (official-realtime.ts; "The official client's realtime")
 *   heartbeat  SIGSTOP of the hub (each route) or the forwarder → the app's socket says not responding; SIGCONT → responding (heartbeat.ts);
 *              and of the stack under the browser host in Chromium → the page shows the words; SIGCONT → "Live" (heartbeat-screen.ts; "Noticing a silent hub")
 * `BENCH_SMOKE=1` runs every part at its smallest sizes and judges no target (bench-mode.ts; "Smoke run").
 * A part that throws is reported and the others still run; the exit code is then 1, as it is when a part
 * printed no rows. Servers run in their own processes, so the load generator does not share their event loop.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { parseKeyPath } from '../../common/key-path';
import { createLegacyRunner } from '../../services/forwarder/legacy/legacy-runner';
import { ListenerRegistry } from '../../services/forwarder/listener-registry';
import { route, type RouteInput } from '../../services/forwarder/router';
import type { WebhookRecord } from '../../services/forwarder/webhook-store';
import { startProgram } from '../e2e/support/processes';
import { compiledServer } from './compiled-servers';
import { watchMachine } from './machine-load';
import { startTestRedis } from '../support/redis-server';
import { TestListener } from '../support/webhook-listener';
import { charts } from './charts';
import { liveView } from './live-view';
import { inspectorBytes } from './inspector-bytes';
import { inspectorHistory } from './inspector-history';
import { insightsBench } from './insights';
import { insightsFlood } from './insights-flood';
import { registrationChurn } from './registration-churn';
import { slowSockets } from './slow-sockets';
import { startUp } from './start-up';
import { heartbeatBench } from './heartbeat';
import { officialRealtime } from './official-realtime';
import { screenHeartbeat } from './heartbeat-screen';
import { type BenchRow, routeOpening } from './route-opening';
import { LOAD_SECONDS, SMOKE, sized } from './bench-mode';
import { stopLeftoverChildren } from './leftovers';
import { percentile } from './percentile';
import { errorMessage } from '../../common/error-message';

const REGISTRATIONS = sized(10_000, 1_000);
/** The large registry of the routing-cost figures (against 10 registrations). */
const MANY_REGISTRATIONS = sized(100_000, 10_000);
const CONNECTIONS = 32;
const THROUGHPUT_ROUNDS = sized(2, 1);
/** Requests paced at 1,000/s in a latency run (at most 10 s), and in the uncounted second before it. */
const LATENCY_REQUESTS = sized(1000 * Math.max(3, Math.min(LOAD_SECONDS, 10)), 500);
const WARM_UP_REQUESTS = sized(1000, 200);

const rows: BenchRow[] = [];

function combined(runs: { rps: number; errors: number }[]): { rps: number; errors: number } {
  return { rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length, errors: runs.reduce((sum, run) => sum + run.errors, 0) };
}

type LoadRun = { rps: number; errors: number; accepted: number };

async function loadTest(url: string, keyOf: () => string): Promise<LoadRun> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ device: { id: keyOf() }, event: 'on', value: 42 }) }) }],
  });
  return { rps: result.requests.average, errors: result.errors + result.non2xx + result.timeouts, accepted: result['2xx'] };
}

async function intakeThroughput(): Promise<void> {
  // Both servers run bundled on plain node (compiled-servers.ts), both stay up, and their load runs
  // alternate, so a slower minute of this shared machine weighs on both sides alike.
  const bare = startProgram(await compiledServer('bare-server'));
  const bareUrl = (JSON.parse(await bare.line('{"url"', 30_000).then((rest) => `{"url"${rest}`)) as { url: string }).url;
  // The 10,000 registrations are loaded into the forwarder's registry: 10,000 listener processes' worth
  // of sockets would share this machine's two cores with the forwarder and the load generator, and
  // measure the listeners, not the intake. Delivery over real sockets is measured by the latency run.
  const forwarder = startProgram(await compiledServer('forwarder-server'), [], { PRELOAD: String(REGISTRATIONS) });
  const info = JSON.parse(await forwarder.line('{"url"', 30_000).then((rest) => `{"url"${rest}`)) as { url: string; webhookId: string; secret: string };
  const intake = `${info.url}/webhook/${info.webhookId}`;
  const loadBare = () => loadTest(bareUrl, () => `dev-${(Math.random() * REGISTRATIONS) | 0}`);
  const loadForwarder = () => loadTest(intake, () => `pre-${(Math.random() * REGISTRATIONS) | 0}`);
  await loadBare(); // JIT warm-up of the load generator and the servers
  await loadForwarder();
  const bareRuns: { rps: number; errors: number }[] = [];
  const forwarderRuns: { rps: number; errors: number }[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    bareRuns.push(await loadBare());
    forwarderRuns.push(await loadForwarder());
  }
  await bare.stop();
  const baseline = combined(bareRuns);
  const measured = combined(forwarderRuns);
  const ratio = measured.rps / baseline.rps;
  rows.push({
    figure: `intake, ${REGISTRATIONS.toLocaleString('en-US')} registrations, key path (req/s)`,
    value: measured.rps.toFixed(0),
    baseline: `${baseline.rps.toFixed(0)} (bare Node)`,
    ratio: ratio.toFixed(2),
    target: '≥ 0.50',
    met: ratio >= 0.5 && measured.errors === 0,
  });
  if (measured.errors > 0 || baseline.errors > 0) console.warn(`errors during load: forwarder ${measured.errors}, bare ${baseline.errors}`);

  await latency(info, intake, 'memory mode', { forwarder: forwarder.child.pid });
  await forwarder.stop();
}

/** A forwarder in its own process (compiled-servers.ts), on Redis when `redisUrl` is given; its URL and webhook. */
async function startBenchForwarder(env: Record<string, string> = {}) {
  const forwarder = startProgram(await compiledServer('forwarder-server'), [], env);
  const info = JSON.parse(await forwarder.line('{"url"', 30_000).then((rest) => `{"url"${rest}`)) as { url: string; webhookId: string; secret: string };
  return { forwarder, info, intake: `${info.url}/webhook/${info.webhookId}` };
}

/**
 * Intake with one live listener (docs/benchmarks.md, "Intake with one live listener"): every request is routed to a listener in its own process
 * that acknowledges each message, so each one is framed, sent (in Redis mode: stored, read back), acknowledged
 * and let go, as in use. Alternated with the bare server as above; every 202 must reach the listener.
 * In Redis mode the latency at 1,000 requests/s against this machine's floor is measured on the same forwarder first.
 */
async function deliveryThroughput(mode: 'memory' | 'redis'): Promise<void> {
  const redis = mode === 'redis' ? await startTestRedis() : undefined;
  const bare = startProgram(await compiledServer('bare-server'));
  const bareUrl = (JSON.parse(await bare.line('{"url"', 30_000).then((rest) => `{"url"${rest}`)) as { url: string }).url;
  const { forwarder, info, intake } = await startBenchForwarder(redis ? { REDIS_URL: redis.url } : {});
  if (redis) await redisLatency(info, intake, redis, forwarder.child.pid);
  const listener = startProgram(await compiledServer('acking-listener'), [], {
    FORWARDER_URL: info.url,
    WEBHOOK_ID: info.webhookId,
    SECRET: info.secret,
    KEY: 'live',
  });
  await listener.line('{"ready"', 30_000);
  const loadBare = () => loadTest(bareUrl, () => 'live');
  const loadForwarder = () => loadTest(intake, () => 'live');
  await loadBare();
  const accepted: number[] = [await loadForwarder().then((run) => run.accepted)];
  const bareRuns: LoadRun[] = [];
  const forwarderRuns: LoadRun[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    bareRuns.push(await loadBare());
    forwarderRuns.push(await loadForwarder());
    accepted.push(forwarderRuns.at(-1)!.accepted);
  }
  await bare.stop();
  // Whatever is still on its way arrives before the count is asked for.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const receivedLine = listener.line('{"received"', 10_000);
  await listener.stop();
  const received = (JSON.parse(`{"received"${await receivedLine}`) as { received: number }).received;
  await forwarder.stop();
  await redis?.stop();
  const baseline = combined(bareRuns);
  const measured = combined(forwarderRuns);
  const ratio = measured.rps / baseline.rps;
  const sent = accepted.reduce((sum, count) => sum + count, 0);
  const target = mode === 'memory' ? 0.6 : 0.3;
  rows.push({
    figure: `intake with one live listener acknowledging every message, ${mode} mode (req/s)`,
    value: measured.rps.toFixed(0),
    baseline: `${baseline.rps.toFixed(0)} (bare Node)`,
    ratio: ratio.toFixed(2),
    target: `≥ ${target.toFixed(2)}`,
    met: ratio >= target && measured.errors === 0,
  });
  // autocannon stops counting at its deadline: answers still on their way then are received, not counted.
  rows.push({
    figure: '… messages answered 202 / received by the listener',
    value: `${sent} / ${received}`,
    baseline: '',
    ratio: '',
    target: 'all received',
    met: received >= sent,
  });
}

/**
 * The cost of a failover on Redis: two instances, a listener on the first, requests paced at 1,000/s to the
 * second. The first is killed (SIGKILL); the listener, told by its socket closing, reconnects at once to the
 * second, resuming after the last message it acknowledged. Measured: kill → the first message on the new
 * connection, and that every message answered 202 arrived.
 */
async function failoverCost(): Promise<void> {
  const redis = await startTestRedis();
  const first = await startBenchForwarder({ REDIS_URL: redis.url });
  const second = await startBenchForwarder({ REDIS_URL: redis.url, WEBHOOK_ID: first.info.webhookId });
  const options = { webhookId: first.info.webhookId, secret: first.info.secret, listenerId: 'failover', data: { $key: 'failover' } };
  const before = await TestListener.connect({ ...options, forwarderUrl: first.info.url });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const accepted = new Set<string>();
  const post = (seq: number) =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify({ device: { id: 'failover' }, seq });
      const req = request(
        second.intake,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => {
            if (res.statusCode === 202) accepted.add((JSON.parse(text) as { id: string }).id);
            resolve();
          });
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    });
  const pending: Promise<void>[] = [];
  const streaming = paced(1000, sized(6000, 2000), (seq) => pending.push(post(seq)));
  await new Promise((resolve) => setTimeout(resolve, sized(2000, 1000)));
  const reconnected = before.closed.then(() => TestListener.connect({ ...options, forwarderUrl: second.info.url, resumeAfter: before.ids().at(-1) }));
  const killedAt = performance.now();
  first.forwarder.child.kill('SIGKILL');
  const after = await reconnected;
  await after.nextMessage();
  const gapMs = performance.now() - killedAt;
  await streaming;
  await Promise.all(pending);
  const received = () => new Set([...before.ids(), ...after.ids()]);
  const deadline = performance.now() + 5000;
  while ([...accepted].some((id) => !received().has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const lost = [...accepted].filter((id) => !received().has(id)).length;
  agent.destroy();
  await after.close();
  await second.forwarder.stop();
  await redis.stop();
  rows.push({
    figure: 'failover on Redis at 1,000 req/s: kill -9 → messages again on another instance (ms)',
    value: gapMs.toFixed(0),
    baseline: `${accepted.size} answered 202`,
    ratio: '',
    target: 'none lost',
    met: lost === 0,
  });
}

/** Requests paced at 1,000/s: sorted times, and how many of `total` got none. */
interface PacedTimes {
  sorted: number[];
  total: number;
  lost: number;
}

/**
 * One latency run: after WARM_UP_REQUESTS at the same rate (not counted: connections opened, code and
 * scripts warm), LATENCY_REQUESTS paced at 1,000/s, each timed from its send to the probe listener's
 * receipt of its message, on one clock. Messages not received within 5 s of the last send are lost.
 */
async function deliveryTimes(info: { url: string; webhookId: string; secret: string }, intake: string): Promise<PacedTimes> {
  const probe = await TestListener.connect({
    forwarderUrl: info.url,
    webhookId: info.webhookId,
    secret: info.secret,
    listenerId: 'latency-probe',
    data: { $key: 'latency-probe' },
  });
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  // Timed as the frame arrives, before the probe's own handler validates and acknowledges it: that work is
  // the test listener's, in the sender's process, and the floor's times count nothing like it.
  probe.socket.prependListener('message', (data: Buffer) => {
    const receivedAt = performance.now();
    const frame = JSON.parse(data.toString()) as { type: string; message?: { body: { seq: number } } };
    if (frame.type !== 'message') return;
    const started = sentAt.get(frame.message!.body.seq);
    if (started !== undefined) latencies.push(receivedAt - started);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const warmUp: Promise<number>[] = [];
  await paced(1000, WARM_UP_REQUESTS, (seq) => warmUp.push(postJson(agent, intake, { device: { id: 'latency-probe' }, seq: -1 - seq })));
  await Promise.all(warmUp);
  const total = LATENCY_REQUESTS;
  await paced(1000, total, (seq) => {
    sentAt.set(seq, performance.now());
    void postJson(agent, intake, { device: { id: 'latency-probe' }, seq });
  });
  const deadline = performance.now() + 5000;
  while (latencies.length < total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  agent.destroy();
  await probe.close();
  return { sorted: latencies.sort((a, b) => a - b), total, lost: total - latencies.length };
}

/** As `deliveryTimes`, but each request timed from its send to its 202 (a server with no listener). */
async function answerTimes(url: string): Promise<PacedTimes> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const warmUp: Promise<number>[] = [];
  await paced(1000, WARM_UP_REQUESTS, (seq) => warmUp.push(postJson(agent, url, { device: { id: 'floor' }, seq: -1 - seq })));
  await Promise.all(warmUp);
  const answers: Promise<number>[] = [];
  const total = LATENCY_REQUESTS;
  await paced(1000, total, (seq) => answers.push(postJson(agent, url, { device: { id: 'floor' }, seq })));
  const sorted = (await Promise.all(answers)).filter(Number.isFinite).sort((a, b) => a - b);
  agent.destroy();
  return { sorted, total, lost: total - sorted.length };
}

/** Several runs' times as one set. */
function pooled(runs: readonly PacedTimes[]): PacedTimes {
  return {
    sorted: runs.flatMap((run) => run.sorted).sort((a, b) => a - b),
    total: runs.reduce((sum, run) => sum + run.total, 0),
    lost: runs.reduce((sum, run) => sum + run.lost, 0),
  };
}

const ms = (value: number | undefined) => (value ?? Number.NaN).toFixed(2);

/** Memory mode: the intake → listener latency at 1,000 requests/s, printed with what the machine did meanwhile (machine-load.ts). */
async function latency(
  info: { url: string; webhookId: string; secret: string },
  intake: string,
  mode: string,
  watched: Record<string, number | undefined>,
): Promise<void> {
  const machine = watchMachine({ ...watched, 'sender and probe': process.pid });
  const { sorted, total, lost } = await deliveryTimes(info, intake);
  const meanwhile = machine();
  const pct = (p: number) => percentile(sorted, p);
  rows.push({
    figure: `intake → listener latency at 1,000 req/s, ${mode}, p50 (ms)`,
    value: ms(pct(50)),
    baseline: `meanwhile: ${meanwhile}`,
    ratio: '',
    target: '',
    met: true,
  });
  rows.push({
    figure: `intake → listener latency at 1,000 req/s, ${mode}, p99 (ms)${lost ? `, ${lost} not delivered` : ''}`,
    value: ms(pct(99)),
    baseline: `${total} requests; p90 ${ms(pct(90))}, max ${ms(sorted.at(-1))}`,
    ratio: '',
    target: '≤ 10 ms',
    met: pct(99) <= 10 && lost === 0,
  });
}

/** Alternated pairs of runs (floor, forwarder) behind the Redis-mode latency's ratio. */
const FLOOR_PAIRS = sized(3, 1);
/** Alternated pairs run before the counted ones, not counted (the warm-up above). */
const WARM_UP_PAIRS = sized(2, 1);
/** The Redis-mode latency's target, as a multiple of this machine's floor in the same run. */
const FLOOR_TARGET = 1.5;

/**
 * The Redis-mode latency against this machine's floor (docs/benchmarks.md, "The forwarder on Redis"):
 * the floor is the bare server (bare-server.ts) answering its 202 only after one Redis script on the
 * same Redis, with none of the forwarder's code, paced, warmed up and counted as the forwarder is. Its
 * runs and the forwarder's alternate (floor, forwarder, floor, forwarder…) so a slow minute of this
 * shared machine weighs on both; each side's p50 and p99 are over all its runs together, and the
 * forwarder's are reported as ratios to the floor's (target ≤ FLOOR_TARGET×). Bare Node without Redis
 * is measured once before, for scale.
 */
async function redisLatency(
  info: { url: string; webhookId: string; secret: string },
  intake: string,
  redis: { url: string; pid: number | undefined },
  forwarderPid: number | undefined,
): Promise<void> {
  const startBare = async (env: Record<string, string>) => {
    const server = startProgram(await compiledServer('bare-server'), [], env);
    const { url } = JSON.parse(await server.line('{"url"', 30_000).then((rest) => `{"url"${rest}`)) as { url: string };
    return { server, url };
  };
  const bare = await startBare({});
  const bareNode = await answerTimes(bare.url);
  await bare.server.stop();
  const floorServer = await startBare({ REDIS_URL: redis.url });
  const machine = watchMachine({ forwarder: forwarderPid, Redis: redis.pid, 'floor server': floorServer.server.child.pid, 'sender and probe': process.pid });
  const floorRuns: PacedTimes[] = [];
  const forwarderRuns: PacedTimes[] = [];
  // Pairs first, not counted: a process's first seconds under load are not its steady state (V8 tiers
  // its code up and grows its young generation from 1 MiB as it goes), and the forwarder, started just
  // before, has far more code to warm than the floor: it needs about two pairs' worth (docs/benchmarks.md, "Method").
  for (let pair = 0; pair < WARM_UP_PAIRS; pair++) {
    await answerTimes(floorServer.url);
    await deliveryTimes(info, intake);
  }
  for (let pair = 0; pair < FLOOR_PAIRS; pair++) {
    floorRuns.push(await answerTimes(floorServer.url));
    forwarderRuns.push(await deliveryTimes(info, intake));
  }
  const meanwhile = machine();
  await floorServer.server.stop();
  const p99s = (runs: PacedTimes[]) => runs.map((run) => ms(percentile(run.sorted, 99))).join(', ');
  console.log(
    `Redis-mode latency, ${FLOOR_PAIRS} alternated pair${FLOOR_PAIRS > 1 ? 's' : ''}: floor p99 ${p99s(floorRuns)} ms; forwarder p99 ${p99s(forwarderRuns)} ms`,
  );
  const floor = pooled(floorRuns);
  const forwarder = pooled(forwarderRuns);
  const at = (times: PacedTimes, p: number) => percentile(times.sorted, p);
  const runs = `${FLOOR_PAIRS} run${FLOOR_PAIRS > 1 ? 's' : ''} of ${LATENCY_REQUESTS} requests each`;
  for (const p of [50, 99]) {
    const ratio = at(forwarder, p) / at(floor, p);
    rows.push({
      figure: `intake → listener latency at 1,000 req/s, Redis mode, p${p} (ms)${p === 99 && forwarder.lost ? `, ${forwarder.lost} not delivered` : ''}`,
      value: ms(at(forwarder, p)),
      baseline:
        p === 50
          ? `floor ${ms(at(floor, p))} (${runs}, alternated); meanwhile: ${meanwhile}`
          : `floor ${ms(at(floor, p))}; forwarder p90 ${ms(at(forwarder, 90))}, max ${ms(forwarder.sorted.at(-1))}`,
      ratio: ratio.toFixed(2),
      target: `≤ ${FLOOR_TARGET.toFixed(1)}× floor`,
      met: ratio <= FLOOR_TARGET && forwarder.lost === 0 && floor.lost === 0,
    });
  }
  for (const [label, times] of [
    ['bare Node after one Redis script (the floor)', floor],
    ['bare Node, no Redis (once, before)', bareNode],
  ] as const) {
    rows.push({
      figure: `floor of this machine: time to a 202 at 1,000 req/s, ${label}, p99 (ms)`,
      value: ms(at(times, 99)),
      baseline: `p50 ${ms(at(times, 50))}, p90 ${ms(at(times, 90))}, max ${ms(times.sorted.at(-1))}${times.lost ? `; ${times.lost} failed` : ''}`,
      ratio: '',
      target: '',
      met: times.lost === 0,
    });
  }
}

/** Calls `send(0..total-1)` at `rate` per second; catches up when timers fire late, so the rate holds. */
async function paced(rate: number, total: number, send: (seq: number) => void): Promise<void> {
  let seq = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      while (seq < due) send(seq++);
      if (seq < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
}

/** POSTs JSON; resolves with the time to the complete response (ms), or NaN on an error or non-202. */
function postJson(agent: Agent, url: string, value: unknown): Promise<number> {
  const body = JSON.stringify(value);
  const start = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 202 ? performance.now() - start : Number.NaN));
    });
    req.on('error', () => resolve(Number.NaN));
    req.end(body);
  });
}

/**
 * Routing cost as a request pays it: the forwarder's time per intake request (POST → 202, key-path
 * routing included) at a steady 500 req/s, with 10 and with 100,000 registrations, every request
 * matching one registration.
 */
async function intakeRoutingScale(): Promise<void> {
  const medianFor = async (registrations: number): Promise<number> => {
    const forwarder = startProgram('test/bench/forwarder-server.ts', [], { PRELOAD: String(registrations) });
    const info = JSON.parse(await forwarder.line('{"url"', 60_000).then((rest) => `{"url"${rest}`)) as { url: string; webhookId: string };
    const intake = `${info.url}/webhook/${info.webhookId}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const run = async (count: number) => {
      const pending: Promise<number>[] = [];
      await paced(500, count, () => pending.push(postJson(agent, intake, { device: { id: `pre-${(Math.random() * registrations) | 0}` } })));
      return Promise.all(pending);
    };
    await run(sized(1000, 200)); // warm-up
    const counted = sized(3000, 500);
    const times = (await run(counted)).filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
    agent.destroy();
    await forwarder.stop();
    if (times.length < counted * 0.97) throw new Error(`intake failed for ${counted - times.length} of ${counted} requests`);
    return percentile(times, 50);
  };
  const small = await medianFor(10);
  const large = await medianFor(MANY_REGISTRATIONS);
  const ratio = large / small;
  rows.push({
    figure: `intake time per request (key-path routing), ${MANY_REGISTRATIONS.toLocaleString('en-US')} registrations, p50 (ms)`,
    value: large.toFixed(3),
    baseline: `${small.toFixed(3)} (10 registrations)`,
    ratio: ratio.toFixed(2),
    target: '≤ 1.30',
    met: ratio <= 1.3,
  });
}

const ROUTING_ROUNDS = sized(7, 3);

/** Routing alone, in this process: the same requests against 10 and MANY_REGISTRATIONS registrations. */
async function routingScale(): Promise<void> {
  const keyPath = parseKeyPath('body.device.id');
  const webhook: WebhookRecord = { id: 'wh_bench', name: 'bench', ownerId: 'bench', secret: 'x', keyPath: keyPath.source, legacyFunction: null, createdAt: 0 };
  const timePerRoute = async (registrations: number): Promise<number> => {
    // Caps lifted: the bench measures routing cost against a number of registrations no real webhook may have.
    const registry = new ListenerRegistry({ bufferCapacity: 10, maxListenersPerWebhook: Infinity, maxListenersPerOwner: Infinity });
    for (let i = 0; i < registrations; i++) registry.register(webhook, `l-${i}`, { hubId: undefined, data: { $key: `dev-${i}` }, keys: [`dev-${i}`] });
    const context = { webhook, keyPath, listeners: registry.of(webhook.id), legacyRunner: undefined };
    const inputs: RouteInput[] = Array.from({ length: sized(50_000, 5_000) }, () => ({
      headers: {},
      query: {},
      body: { device: { id: `dev-${(Math.random() * registrations) | 0}` } },
    }));
    const samples: number[] = [];
    for (let round = 0; round < ROUTING_ROUNDS; round++) {
      const start = performance.now();
      for (const input of inputs) void route(context, input); // key-path routing is synchronous: it returns a Routed, no promise
      samples.push(((performance.now() - start) * 1e6) / inputs.length);
    }
    samples.sort((a, b) => a - b);
    return samples[ROUTING_ROUNDS >> 1]!; // the median round, in ns
  };
  await timePerRoute(10); // warm-up
  const small = await timePerRoute(10);
  const large = await timePerRoute(MANY_REGISTRATIONS);
  const ratio = large / small;
  rows.push({
    figure: `routing function alone, hot loop, ${MANY_REGISTRATIONS.toLocaleString('en-US')} registrations (ns) — see docs/benchmarks.md`,
    value: large.toFixed(0),
    baseline: `${small.toFixed(0)} (10 registrations)`,
    ratio: ratio.toFixed(2),
    target: '',
    met: true,
  });
}

async function legacyThroughput(): Promise<void> {
  const source = readFileSync(new URL('../../services/forwarder/legacy/fixtures/match-by-room.js', import.meta.url), 'utf8');
  const runner = createLegacyRunner();
  const registrations = Array.from({ length: 100 }, (_, i) => ({ listenerId: `l-${i}`, data: { room: `room ${i % 20}` } }));
  const webhook = { headers: {}, query: {}, body: { room: 'Room 7', event: 'ring' } };
  const check = await runner.run(source, webhook, registrations);
  if (!check.ok || check.matched.length !== 5) throw new Error(`legacy fixture did not route as expected: ${JSON.stringify(check)}`);
  const seconds = Math.min(LOAD_SECONDS, 5);
  const end = performance.now() + seconds * 1000;
  let runs = 0;
  let failures = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const outcome = await runner.run(source, webhook, registrations);
      if (outcome.ok) runs++;
      else failures++;
    }
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  await runner.close();
  rows.push({
    figure: `legacy function, 100 registrations (requests/s)${failures ? `, ${failures} failed` : ''}`,
    value: (runs / seconds).toFixed(0),
    baseline: `${((runs * 100) / seconds).toFixed(0)} function calls/s`,
    ratio: '',
    target: '',
    met: failures === 0,
  });
}

const PARTS: { name: string; run(): Promise<unknown> }[] = [
  { name: 'routes', run: async () => rows.push(...(await routeOpening())) },
  { name: 'live', run: async () => rows.push(...(await liveView())) },
  { name: 'routing', run: async () => (await routingScale(), await intakeRoutingScale()) },
  { name: 'legacy', run: legacyThroughput },
  { name: 'intake', run: intakeThroughput },
  { name: 'delivery', run: () => deliveryThroughput('memory') },
  { name: 'redis', run: async () => (await deliveryThroughput('redis'), await failoverCost()) },
  { name: 'inspector', run: async () => rows.push(...(await inspectorBytes())) },
  { name: 'start', run: async () => rows.push(...(await startUp())) },
  { name: 'history', run: async () => rows.push(...(await inspectorHistory())) },
  { name: 'insights', run: async () => rows.push(...(await insightsBench())) },
  { name: 'insights-flood', run: async () => rows.push(...(await insightsFlood())) },
  { name: 'charts', run: async () => rows.push(...(await charts())) },
  { name: 'slow', run: async () => rows.push(...(await slowSockets())) },
  { name: 'churn', run: async () => rows.push(...(await registrationChurn())) },
  { name: 'official', run: async () => rows.push(...(await officialRealtime())) },
  { name: 'heartbeat', run: async () => rows.push(...(await heartbeatBench()), ...(await screenHeartbeat())) },
];

/** `BENCH_ONLY=intake,redis…` runs only the named parts; unset runs every part. */
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
);
const unknown = [...ONLY].filter((name) => !PARTS.some((part) => part.name === name));
if (unknown.length > 0) {
  console.error(`BENCH_ONLY names no part called ${unknown.join(', ')}; the parts are ${PARTS.map((part) => part.name).join(', ')}`);
  process.exit(2);
}

const benchStarted = performance.now();
const failures: string[] = [];
const durations: string[] = [];
for (const part of PARTS.filter(({ name }) => ONLY.size === 0 || ONLY.has(name))) {
  const started = performance.now();
  const before = rows.length;
  console.log(`bench: ${part.name}…`);
  try {
    await part.run();
    if (rows.length === before) failures.push(`${part.name}: printed no rows`);
  } catch (error) {
    console.error(`bench: ${part.name} failed:`, error);
    failures.push(`${part.name}: ${errorMessage(error).split('\n', 1)[0]}`);
  }
  durations.push(`${part.name} ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
const leftovers = stopLeftoverChildren();
if (leftovers.length > 0) failures.push(`child processes left running (now stopped): ${leftovers.join(', ')}`);

const mode = SMOKE ? 'smoke run (smallest sizes; figures not comparable, targets not judged)' : 'full run';
console.log(`\nHubdesk benchmarks — ${new Date().toISOString()}, Node ${process.version}, ${LOAD_SECONDS} s per load run, ${mode}\n`);
console.table(
  rows.map((row) =>
    SMOKE
      ? { figure: row.figure, value: row.value, baseline: row.baseline, ratio: row.ratio }
      : { figure: row.figure, value: row.value, baseline: row.baseline, ratio: row.ratio, target: row.target, met: row.target ? (row.met ? 'yes' : 'NO') : '' },
  ),
);
console.log(`\n${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all: ${durations.join(', ')}`);
if (failures.length > 0) console.error(`\nbench: ${failures.length} part(s) did not complete:\n  ${failures.join('\n  ')}`);
process.exit(failures.length > 0 ? 1 : 0);
