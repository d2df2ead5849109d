/**
 * A fixed-size pool of `worker_threads` workers that answer one job at a time, with a bounded, fair queue
 * (fair-queue.ts: one FIFO per job key, served round-robin) and a main-thread watchdog. It knows
 * nothing about QuickJS: the legacy runner gives it a worker script and
 * validates the answers.
 *
 * Worker protocol: the worker posts `{type: 'ready'}` once it can take jobs; the pool then posts
 * `{id, job}` and expects `{type: 'answer', id, answer}`. A worker that does not answer within
 * `answerWithinMs` is terminated and replaced (its job answers `timeout`); a worker that exits or fails
 * answers `crashed` and is replaced. A worker that dies before it was ever ready is not respawned at once
 * (a broken script would otherwise spin): the next `submit` tries again.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { FairQueue, type FairQueueLimits } from './fair-queue';

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
  /** Watchdog: a dispatched job must be answered within this many milliseconds. */
  answerWithinMs: number;
  /** What may wait for a free worker, per key and in all (counts and bytes); beyond it `submit` answers `key-full` or `busy`. */
  queue: FairQueueLimits;
}

/** Which queue a job waits in, and what it holds in memory while it waits. */
export interface JobTicket {
  key: string;
  bytes: number;
}

export interface WorkerPool {
  submit(job: unknown, ticket?: JobTicket): Promise<PoolAnswer>;
  /** Whether a job of this ticket would find room in its key's queue now (`submit` would not answer `key-full`). */
  hasRoom(ticket: JobTicket): boolean;
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
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const slots: Slot[] = Array.from({ length: options.workers }, () => ({
    worker: undefined,
    ready: false,
    current: undefined,
    watchdog: undefined,
  }));
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
    slot.watchdog = setTimeout(() => {
      // The sandbox's own deadline did not stop it (e.g. a long native builtin): replace the worker.
      finish(slot, { kind: 'timeout' });
      slot.worker = undefined;
      terminate(worker);
      spawn(slot);
    }, options.answerWithinMs);
    worker.postMessage({ id: pending.id, job: pending.job });
  }

  function pump(): void {
    for (const slot of slots) {
      if (queue.size === 0) return;
      if (slot.ready && slot.current === undefined) dispatch(slot, queue.shift()!);
    }
  }

  for (const slot of slots) spawn(slot);

  return {
    submit(job, ticket = { key: '', bytes: 0 }) {
      if (closed) return Promise.resolve({ kind: 'closed' });
      for (const slot of slots) if (slot.worker === undefined) spawn(slot);
      let settle!: (answer: PoolAnswer) => void;
      const answered = new Promise<PoolAnswer>((resolve) => (settle = resolve));
      const pending: PendingJob = { id: nextId++, job, settle };
      // An idle worker means an empty queue (pump keeps it so): such a job is dispatched at once and never waits.
      const idle = slots.find((slot) => slot.ready && slot.current === undefined);
      if (idle) dispatch(idle, pending);
      else {
        const admission = queue.push(ticket.key, pending, ticket.bytes);
        if (admission === 'key-full') return Promise.resolve({ kind: 'key-full' });
        if (admission === 'full') return Promise.resolve({ kind: 'busy' });
      }
      return answered;
    },

    hasRoom: (ticket) => queue.admission(ticket.key, ticket.bytes) !== 'key-full',
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
