/**
 * Runs read-only legacy routing functions (docs/interface.md §6.1.5) in QuickJS compiled to WebAssembly,
 * inside worker threads, so the forwarder's event loop never runs legacy code. See
 * docs/legacy-functions.md for the design, the limits and the failure semantics.
 */
import { stringBytes } from '../memory-size';
import { webhookDataJson } from '../message-frame';
import type { FairQueueLimits as QueueLimits, Reservation } from './fair-queue';
import { createWorkerPool, type PoolAnswer } from './worker-pool';

export interface LegacyRegistration {
  listenerId: string;
  data: unknown;
}

export interface WebhookData {
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** JSON text of `body`, when at hand: used as it is rather than serialising `body` again (message-frame.ts). */
  bodyJson?: string;
}

export type LegacyOutcome =
  | { ok: true; matched: string[] } // listenerIds whose call returned exactly true
  // 'queue-full': this queue (webhook) has as many requests waiting as allowed; 'busy': all queues together have, or the runner is closed
  | { ok: false; error: 'timeout' | 'memory' | 'invalid-function' | 'crashed' | 'queue-full' | 'busy'; message: string };

export interface LegacyRunner {
  /**
   * `queue` names the fair queue the request waits in (the forwarder gives the webhook id): queues are
   * served round-robin, so one webhook's flood does not delay another's requests.
   */
  run(source: string, webhook: WebhookData, registrations: readonly LegacyRegistration[], queue?: string, reservation?: Reservation): Promise<LegacyOutcome>;
  /**
   * Holds room in `queue` for a request whose body of `bodyBytes` is about to be read, or says why there
   * is none (`queue-full`, `busy`): the intake refuses a flood before reading (and parsing) its bodies,
   * and bodies being read count as waiting, so no more are read at once than may wait. The room is given
   * back by `run` with it, or by `release` when the request goes no further.
   */
  reserve(queue: string, bodyBytes: number): Reservation | { error: 'queue-full' | 'busy'; message: string };
  /** Requests waiting for the sandbox, by queue (those with none left out). */
  waiting(): Record<string, number>;
  close(): Promise<void>;
}

export interface LegacyRunnerOptions {
  /** Worker threads, each running one entry at a time (1–8, default 2). */
  workers?: number;
  /** Wall-clock deadline for one entry (all registrations of one request), at most and by default 100 ms. */
  deadlineMs?: number;
  /** QuickJS heap limit per entry (1–256 MiB, default 32 MiB). */
  memoryBytes?: number;
  /** Requests that may wait for a worker, all queues together (default 1,000); more answer `busy`. */
  maxQueue?: number;
  /** Bytes those requests may hold (memory-size.ts; default 64 MiB); more answer `busy`. */
  maxQueueBytes?: number;
  /** Requests that may wait in one queue (one webhook; default 100); more answer `queue-full`. */
  maxQueuePerWebhook?: number;
  /** Bytes those may hold (default 8 MiB: about 14 requests at the intake's 256 KiB body limit); more answer `queue-full`. */
  maxQueueBytesPerWebhook?: number;
}

export const LEGACY_LIMITS = {
  maxDeadlineMs: 100,
  defaultMemoryBytes: 32 * 1024 * 1024,
  maxSourceBytes: 64 * 1024,
  /**
   * QuickJS's own stack limit. It must trip before the worker's native stack does (QuickJS in wasm
   * also uses the native stack): 128 KiB against an 8 MiB worker stack is a wide margin in our tests.
   */
  stackBytes: 128 * 1024,
  workerStackMb: 8,
  /** The watchdog's allowance beyond the deadline (counted from when the worker began the job) before it replaces a worker. */
  watchdogGraceMs: 250,
  /**
   * How long a posted job may wait for its worker to begin it (the worker is preparing the next sandbox,
   * or gets no CPU on a busy machine): far longer than either takes, only so a wedged worker is replaced.
   */
  beginWithinMs: 5_000,
} as const;

const WORKER_URL = new URL('./legacy-worker.mjs', import.meta.url);

export function createLegacyRunner(options: LegacyRunnerOptions = {}): LegacyRunner {
  const workers = integerIn('workers', options.workers ?? 2, 1, 8);
  const deadlineMs = integerIn('deadlineMs', options.deadlineMs ?? LEGACY_LIMITS.maxDeadlineMs, 1, LEGACY_LIMITS.maxDeadlineMs);
  const memoryBytes = integerIn('memoryBytes', options.memoryBytes ?? LEGACY_LIMITS.defaultMemoryBytes, 1024 * 1024, 256 * 1024 * 1024);
  const queue = {
    items: integerIn('maxQueue', options.maxQueue ?? 1000, 0, 1_000_000),
    bytes: integerIn('maxQueueBytes', options.maxQueueBytes ?? 64 * 1024 * 1024, 0, 2 ** 40),
    itemsPerKey: integerIn('maxQueuePerWebhook', options.maxQueuePerWebhook ?? 100, 0, 1_000_000),
    bytesPerKey: integerIn('maxQueueBytesPerWebhook', options.maxQueueBytesPerWebhook ?? 8 * 1024 * 1024, 0, 2 ** 40),
  };
  const answerWithinMs = deadlineMs + LEGACY_LIMITS.watchdogGraceMs;

  const pool = createWorkerPool({
    workerUrl: WORKER_URL,
    workers,
    workerData: { deadlineMs, memoryBytes, stackBytes: LEGACY_LIMITS.stackBytes },
    // Bounds the worker's own V8 heap (QuickJS's heap is WebAssembly memory, bounded by memoryBytes).
    resourceLimits: { maxOldGenerationSizeMb: 128, stackSizeMb: LEGACY_LIMITS.workerStackMb },
    answerWithinMs,
    startWithinMs: LEGACY_LIMITS.beginWithinMs,
    queue,
  });

  return {
    async run(source, webhook, registrations, queueKey = '', reservation) {
      const job = sandboxJob(source, webhook, registrations);
      if ('ok' in job) {
        reservation?.release();
        return job;
      }
      // What a waiting job holds: the two JSON texts (the source is the webhook's, shared by all its jobs).
      const bytes = stringBytes(job.webhookJson) + stringBytes(job.dataJson);
      return toOutcome(await pool.submit(job, { key: queueKey, bytes, ...(reservation && { reservation }) }), registrations, { answerWithinMs, queue });
    },
    reserve(queueKey, bodyBytes) {
      // The webhook data's JSON holds the body at least once: two bytes a character of it (memory-size.ts).
      const held = pool.reserve({ key: queueKey, bytes: 2 * bodyBytes });
      if (held === 'key-full') return { error: 'queue-full', message: queueFullMessage(queue) };
      if (held === 'full') return { error: 'busy', message: busyMessage(queue) };
      return held;
    },
    waiting: () => pool.waiting(),
    close: () => pool.close(),
  };
}

interface SandboxJob {
  source: string;
  webhookJson: string;
  dataJson: string;
}

/** The job the sandbox runs, or the outcome when there is no need or no way to run one. */
function sandboxJob(source: string, webhook: WebhookData, registrations: readonly LegacyRegistration[]): SandboxJob | LegacyOutcome {
  if (typeof source !== 'string' || Buffer.byteLength(source) > LEGACY_LIMITS.maxSourceBytes) {
    return failure('invalid-function', `the source must be a string of at most ${LEGACY_LIMITS.maxSourceBytes} bytes`);
  }
  // Nothing to decide: no need to enter the sandbox (the source is not even checked).
  if (registrations.length === 0) return { ok: true, matched: [] };
  try {
    return {
      source,
      webhookJson:
        webhook.bodyJson === undefined
          ? JSON.stringify({ headers: webhook.headers, query: webhook.query, body: webhook.body })
          : webhookDataJson(webhook.headers, webhook.query, webhook.bodyJson),
      dataJson: JSON.stringify(registrations.map((registration) => registration.data ?? null)),
    };
  } catch {
    return failure('crashed', 'the webhook or registration data is not serialisable as JSON');
  }
}

function toOutcome(answer: PoolAnswer, registrations: readonly LegacyRegistration[], limits: { answerWithinMs: number; queue: QueueLimits }): LegacyOutcome {
  const { queue } = limits;
  switch (answer.kind) {
    case 'key-full':
      return failure('queue-full', queueFullMessage(queue));
    case 'busy':
      return failure('busy', busyMessage(queue));
    case 'closed':
      return failure('busy', 'the legacy-function runner is closed');
    case 'timeout':
      return failure('timeout', `the sandbox did not answer within ${limits.answerWithinMs} ms; its worker was replaced`);
    case 'crashed':
      return failure('crashed', answer.reason);
    case 'answer':
      return readAnswer(answer.answer, registrations);
  }
}

function busyMessage(queue: QueueLimits): string {
  return `the forwarder's queue for legacy functions is full (at most ${queue.items} requests and ${queue.bytes} bytes wait); retry later`;
}

function queueFullMessage(queue: QueueLimits): string {
  return `this webhook's queue for its legacy function is full (at most ${queue.itemsPerKey} requests and ${queue.bytesPerKey} bytes wait); retry later`;
}

const SANDBOX_ERRORS = new Set(['timeout', 'memory', 'invalid-function', 'crashed']);

/** The worker is our code, but its answer still crosses a boundary: check it before trusting it. */
function readAnswer(answer: unknown, registrations: readonly LegacyRegistration[]): LegacyOutcome {
  const { status, flags, error, message } = (answer ?? {}) as Record<string, unknown>;
  if (status === 'ok' && typeof flags === 'string' && flags.length === registrations.length) {
    const matched: string[] = [];
    registrations.forEach((registration, index) => {
      if (flags[index] === '1') matched.push(registration.listenerId);
    });
    return { ok: true, matched };
  }
  if (status === 'error' && typeof error === 'string' && SANDBOX_ERRORS.has(error) && typeof message === 'string') {
    return failure(error as 'timeout' | 'memory' | 'invalid-function' | 'crashed', message);
  }
  return failure('crashed', 'the sandbox worker gave a malformed answer');
}

function failure(error: Extract<LegacyOutcome, { ok: false }>['error'], message: string): LegacyOutcome {
  return { ok: false, error, message };
}

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`legacy runner option ${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}
