/**
 * A fixed-size pool of `worker_threads` workers that answer one job at a time, with a bounded, fair queue
 * (fair-queue.ts: one FIFO per job key, served round-robin) and a main-thread watchdog. It knows
 * nothing about QuickJS: the legacy runner gives it a worker script and
 * validates the answers.
 *
 * Worker protocol: the worker posts `{type: 'ready'}` once it can take jobs; the pool then posts
 * `{id, job, progress}` and expects `{type: 'answer', id, answer}`; a worker that exits or fails answers
 * `crashed` and is replaced. Workers start with the first `submit`, not with the pool. A worker that dies
 * before it was ever ready is not respawned at once (a broken script would otherwise spin): the next
 * `submit` tries again.
 *
 * What the watchdog measures (docs/legacy-functions.md, "Limits"): the job's own run in the worker, from
 * when the worker began it to its answer, as the worker writes them in `progress` (job-progress.mjs),
 * not the time since the main thread posted it. So a job that waited in the worker's queue (the worker
 * was still preparing its next sandbox, or got no CPU on a busy machine), or an answer that waited for a
 * main thread busy elsewhere, does not count. A worker that has begun a job and not answered it within
 * `answerWithinMs` is terminated and replaced (the job answers `timeout`); one that has not even begun
 * it within `startWithinMs` of its posting is too (`crashed`).
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { type Admission, FairQueue, type FairQueueLimits, type Reservation } from './fair-queue';

export type PoolAnswer =
  | { kind: 'answer'; answer: unknown }
  /** The job's own key has as many jobs (or bytes) waiting as allowed. */
  | { kind: 'key-full' }
  /** All keys together have. */
  | { kind: 'busy' }
  | { kind: 'closed' }
  | { kind: 'timeout' }
  | { kind: 'crashed'; reason: string };

export interface WorkerPoolOptions {
  workerUrl: URL;
  workers: number;
  /** Passed to every worker as `workerData`. */
  workerData: unknown;
  resourceLimits?: ResourceLimits;
  /** Watchdog: a job must be answered within this many milliseconds of when the worker began it. */
  answerWithinMs: number;
  /** Watchdog: a dispatched job must be begun within this many milliseconds (default `answerWithinMs`). */
  startWithinMs?: number;
  /** What may wait for a free worker, per key and in all (counts and bytes); beyond it `submit` answers `key-full` or `busy`. */
  queue: FairQueueLimits;
}

/** Which queue a job waits in, what it holds in memory while it waits, and the room held for it (given back as it arrives). */
export interface JobTicket {
  key: string;
  bytes: number;
  reservation?: Reservation;
}

export interface WorkerPool {
  submit(job: unknown, ticket?: JobTicket): Promise<PoolAnswer>;
  /** Holds room in the ticket's queue for a job to come (fair-queue.ts `reserve`), or says why there is none. */
  reserve(ticket: Pick<JobTicket, 'key' | 'bytes'>): Reservation | Exclude<Admission, 'queued'>;
  /** Jobs waiting for a worker, by key. */
  waiting(): Record<string, number>;
  close(): Promise<void>;
}

interface PendingJob {
  readonly id: number;
  readonly job: unknown;
  readonly settle: (answer: PoolAnswer) => void;
}

interface Slot {
  worker: Worker | undefined;
  ready: boolean;
  current: PendingJob | undefined;
  watchdog: NodeJS.Timeout | undefined;
  /** Shared with the worker (job-progress.mjs): [0] job begun, [1] when (Date.now()), [2] job answered. */
  progress: BigInt64Array;
}

const BEGUN = 0;
const BEGUN_AT = 1;
const ANSWERED = 2;

const newProgress = () => new BigInt64Array(new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT));

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const slots: Slot[] = Array.from({ length: options.workers }, () => ({
    worker: undefined,
    ready: false,
    current: undefined,
    watchdog: undefined,
    progress: newProgress(),
  }));
  const startWithinMs = options.startWithinMs ?? options.answerWithinMs;
  const queue = new FairQueue<PendingJob>(options.queue);
  const exits = new Set<Promise<number>>();
  let nextId = 1;
  let closed = false;

  function spawn(slot: Slot): void {
    const worker = new Worker(options.workerUrl, {
      workerData: options.workerData,
      // The worker script is plain JavaScript: it needs none of the host's loaders or flags (tsx, vitest).
      execArgv: [],
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
    // Workers alone must not keep the process alive; a job in flight does, through its watchdog timer.
    worker.unref();
    slot.worker = worker;
    slot.ready = false;
    // Its own: a replaced worker still writing cannot be read as the new one.
    slot.progress = newProgress();
    const isCurrent = (): boolean => slot.worker === worker && !closed;
    worker.on('message', (message: unknown) => {
      if (!isCurrent()) return;
      onMessage(slot, message);
    });
    // Without an 'error' listener a failing worker would throw in the main thread; 'exit' follows it.
    worker.on('error', () => {});
    worker.on('exit', (code) => {
      if (!isCurrent()) return;
      onExit(slot, code);
    });
  }

  function onMessage(slot: Slot, message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const { type, id, answer } = message as { type?: unknown; id?: unknown; answer?: unknown };
    if (type === 'ready') {
      slot.ready = true;
      pump();
    } else if (type === 'answer' && slot.current !== undefined && id === slot.current.id) {
      finish(slot, { kind: 'answer', answer });
      pump();
    }
  }

  function onExit(slot: Slot, code: number): void {
    const wasReady = slot.ready;
    slot.worker = undefined;
    slot.ready = false;
    finish(slot, { kind: 'crashed', reason: `sandbox worker exited (code ${code})` });
    if (wasReady) {
      spawn(slot);
    } else if (slots.every((s) => s.worker === undefined)) {
      // No worker can start: fail what waits rather than let it wait forever.
      for (const pending of queue.drain()) {
        pending.settle({ kind: 'crashed', reason: `sandbox worker failed to start (code ${code})` });
      }
    }
  }

  function finish(slot: Slot, answer: PoolAnswer): void {
    clearTimeout(slot.watchdog);
    slot.watchdog = undefined;
    const pending = slot.current;
    slot.current = undefined;
    pending?.settle(answer);
  }

  function terminate(worker: Worker): void {
    const exited = worker.terminate();
    exits.add(exited);
    void exited.finally(() => exits.delete(exited));
  }

  function dispatch(slot: Slot, pending: PendingJob): void {
    const worker = slot.worker;
    if (worker === undefined) return;
    slot.current = pending;
    const { progress } = slot;
    const postedAt = Date.now();
    const check = () => {
      const id = BigInt(pending.id);
      const now = Date.now();
      // Answered: the answer waits for this (late) thread; check again later only to keep the process alive meanwhile.
      if (Atomics.load(progress, ANSWERED) === id) return void (slot.watchdog = setTimeout(check, options.answerWithinMs));
      const begunAt = Atomics.load(progress, BEGUN) === id ? Number(Atomics.load(progress, BEGUN_AT)) : undefined;
      const due = begunAt === undefined ? postedAt + startWithinMs : begunAt + options.answerWithinMs;
      if (now < due) return void (slot.watchdog = setTimeout(check, due - now));
      // The sandbox's own deadline did not stop it (e.g. a long native builtin), or it never began: replace the worker.
      finish(
        slot,
        begunAt === undefined
          ? { kind: 'crashed', reason: `the sandbox worker did not begin the job within ${startWithinMs} ms; worker replaced` }
          : { kind: 'timeout' },
      );
      slot.worker = undefined;
      terminate(worker);
      spawn(slot);
    };
    slot.watchdog = setTimeout(check, Math.min(options.answerWithinMs, startWithinMs));
    worker.postMessage({ id: pending.id, job: pending.job, progress });
  }

  function pump(): void {
    for (const slot of slots) {
      if (queue.size === 0) return;
      if (slot.ready && slot.current === undefined) dispatch(slot, queue.shift()!);
    }
  }

  // No worker before the first job: most forwarders never run a legacy function, and a warm worker costs
  // its start (QuickJS compiled and warmed) and its resident memory (docs/legacy-functions.md, "Limits").

  return {
    submit(job, ticket = { key: '', bytes: 0 }) {
      if (closed) {
        ticket.reservation?.release();
        return Promise.resolve({ kind: 'closed' });
      }
      for (const slot of slots) if (slot.worker === undefined) spawn(slot);
      let settle!: (answer: PoolAnswer) => void;
      const answered = new Promise<PoolAnswer>((resolve) => (settle = resolve));
      const pending: PendingJob = { id: nextId++, job, settle };
      // An idle worker means an empty queue (pump keeps it so): such a job is dispatched at once and never waits.
      const idle = slots.find((slot) => slot.ready && slot.current === undefined);
      if (idle) {
        ticket.reservation?.release();
        dispatch(idle, pending);
      } else {
        // The job takes the room held for it while its body was read (fair-queue.ts `reserve`).
        const admission = queue.push(ticket.key, pending, ticket.bytes, ticket.reservation);
        if (admission === 'key-full') return Promise.resolve({ kind: 'key-full' });
        if (admission === 'full') return Promise.resolve({ kind: 'busy' });
      }
      return answered;
    },

    reserve: (ticket) => queue.reserve(ticket.key, ticket.bytes),
    waiting: () => queue.waitingByKey(),

    async close() {
      if (!closed) {
        closed = true;
        for (const pending of queue.drain()) pending.settle({ kind: 'closed' });
        for (const slot of slots) {
          finish(slot, { kind: 'closed' });
          if (slot.worker !== undefined) terminate(slot.worker);
          slot.worker = undefined;
        }
      }
      await Promise.all(exits);
    },
  };
}
