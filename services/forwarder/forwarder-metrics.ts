/**
 * The forwarder's Prometheus metrics (`GET /metrics`, prom-client), in a registry of its own: one process
 * may run several forwarders (the tests do). No label holds a webhook id, a listener id or anything a
 * request chose, so the number of series stays the same whatever the traffic (docs/services.md lists them).
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LegacyRunner } from './legacy/legacy-runner';

/** What the gauges read when scraped: the forwarder's state at that moment. */
export interface ForwarderGauges {
  /** Unacknowledged messages held for listeners, and their bytes (memory-size.ts in memory, UTF-8 in Redis). */
  pending(): { messages: number; bytes: number } | Promise<{ messages: number; bytes: number }>;
  listenersConnected(): number;
  /** Requests waiting for the legacy sandbox, all webhooks together. */
  legacyWaiting(): number;
  /** Whether it takes intake (as /readyz says). */
  ready(): boolean;
}

export interface ForwarderMetrics {
  readonly registry: Registry;
  /** An intake answered with this status (202 accepted, or the refusal's). */
  intake(status: number): void;
  /** An accepted intake's routing decision: its option, and whether any listener matched. */
  routed(option: string, matched: boolean): void;
  /** A listener acknowledged a message this long after the intake accepted it. */
  acknowledged(lagMs: number): void;
  /** What the legacy sandbox answered for one request (`ok`, `timeout`, `memory`…). */
  legacyOutcome(outcome: string): void;
}

export function createForwarderMetrics(gauges: ForwarderGauges): ForwarderMetrics {
  const registry = new Registry();
  // The counters an intake touches are counted here, in plain numbers, and handed to prom-client when
  // scraped: its `inc` hashes the label set on every call (also through `labels()`), per request.
  const intakeCounts = new Map<number, number>();
  const routingCounts = new Map<string, { option: string; outcome: string; count: number }>();
  /** A counter whose series are set, when scraped, from the plain counts `read` gives (each is at least 1). */
  const countedCounter = (name: string, help: string, labelNames: string[], read: () => Iterable<[Record<string, string>, number]>) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect(this: Counter) {
        this.reset();
        for (const [labels, count] of read()) this.inc(labels, count);
      },
    });
  countedCounter('forwarder_intake_requests_total', 'Intake requests answered, by HTTP status.', ['status'], () =>
    [...intakeCounts].map(([status, count]) => [{ status: String(status) }, count]),
  );
  countedCounter(
    'forwarder_routing_total',
    'Accepted intakes by routing option (query, key-path, legacy, none) and outcome (matched, unmatched).',
    ['option', 'outcome'],
    () => [...routingCounts.values()].map(({ option, outcome, count }) => [{ option, outcome }, count]),
  );
  const lag = new Histogram({
    name: 'forwarder_delivery_lag_seconds',
    help: 'From the intake accepting a message to its listener acknowledging it.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [registry],
  });
  const legacy = new Counter({
    name: 'forwarder_legacy_outcomes_total',
    help: 'Answers of the legacy-function sandbox, by outcome (ok, timeout, memory, crashed, queue-full, busy…).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const gauge = (name: string, help: string, read: () => number | Promise<number>) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect(this: Gauge) {
        this.set(await read());
      },
    });
  gauge(
    'forwarder_pending_messages',
    'Messages held for listeners until they acknowledge them (with Redis: all instances).',
    async () => (await gauges.pending()).messages,
  );
  gauge('forwarder_pending_bytes', 'Bytes of the messages held for listeners (with Redis: all instances).', async () => (await gauges.pending()).bytes);
  gauge('forwarder_listeners_connected', 'Listener connections registered now.', gauges.listenersConnected);
  gauge('forwarder_legacy_queue_requests', 'Requests waiting for the legacy-function sandbox.', gauges.legacyWaiting);
  gauge('forwarder_ready', 'Whether this instance takes intake (1) or not (0: draining, or Redis does not answer), as /readyz says.', () =>
    gauges.ready() ? 1 : 0,
  );
  return {
    registry,
    intake: (status) => void intakeCounts.set(status, (intakeCounts.get(status) ?? 0) + 1),
    routed(option, matched) {
      const key = `${option} ${matched}`;
      const counted = routingCounts.get(key);
      if (counted) counted.count++;
      else routingCounts.set(key, { option, outcome: matched ? 'matched' : 'unmatched', count: 1 });
    },
    acknowledged: (lagMs) => lag.observe(Math.max(0, lagMs) / 1000),
    legacyOutcome: (outcome) => legacy.inc({ outcome }),
  };
}

/**
 * `read`, started at most once per `maxAgeMs` (on the clock `now`, milliseconds): a call within that time
 * of the last start gets that read's answer, and a call while a read is under way waits for it, however
 * old. For what a scrape reads from elsewhere (Redis runs a script per read): a flood of scrapes then
 * costs one read per `maxAgeMs` (docs/services.md, "Forwarder endpoints", `/metrics`). A failed read is
 * not kept: the next call starts another.
 */
export function readAtMostEvery<T>(maxAgeMs: number, read: () => Promise<T>, now: () => number = () => performance.now()): () => Promise<T> {
  let last: { startedAt: number; answer: Promise<T>; settled: boolean } | undefined;
  return () => {
    if (last && (!last.settled || now() - last.startedAt < maxAgeMs)) return last.answer;
    const current = { startedAt: now(), answer: read(), settled: false };
    last = current;
    current.answer.then(
      () => (current.settled = true),
      () => {
        if (last === current) last = undefined;
      },
    );
    return current.answer;
  };
}

/** The runner, counting what it answers (`ok` or the failure) in `forwarder_legacy_outcomes_total`. */
export function countLegacyOutcomes(runner: LegacyRunner, metrics: Pick<ForwarderMetrics, 'legacyOutcome'>): LegacyRunner {
  return {
    ...runner,
    async run(...args) {
      const outcome = await runner.run(...args);
      metrics.legacyOutcome(outcome.ok ? 'ok' : outcome.error);
      return outcome;
    },
  };
}
