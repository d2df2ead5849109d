import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from '../../../../../services/forwarder/legacy/worker-pool';

const SCRIPTED = new URL('./legacy-fixtures/scripted-worker.mjs', import.meta.url);
const BROKEN = new URL('./legacy-fixtures/broken-worker.mjs', import.meta.url);

const pools: WorkerPool[] = [];
const queueLimits = (items: number, itemsPerKey = items) => ({ items, bytes: Infinity, itemsPerKey, bytesPerKey: Infinity });
function pool(options: Partial<WorkerPoolOptions> = {}): WorkerPool {
  const created = createWorkerPool({ workerUrl: SCRIPTED, workers: 1, workerData: {}, answerWithinMs: 300, queue: queueLimits(10), ...options });
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('worker pool', () => {
  it('answers jobs through a worker', async () => {
    const p = pool();
    await expect(p.submit({ mode: 'echo', n: 1 })).resolves.toEqual({ kind: 'answer', answer: { mode: 'echo', n: 1 } });
  });

  it('replaces a worker that does not answer in time, and the next job is served', async () => {
    const p = pool();
    await expect(p.submit({ mode: 'spin' })).resolves.toEqual({ kind: 'timeout' });
    await expect(p.submit({ mode: 'echo', n: 2 })).resolves.toEqual({ kind: 'answer', answer: { mode: 'echo', n: 2 } });
  });

  describe('the watchdog counts from when the worker begins the job (busy machine)', () => {
    it('does not replace a worker that begins the job late and then answers in time', async () => {
      // The job waits 3 × answerWithinMs in the worker before it begins: counted from posting, it would time out.
      const p = pool({ startWithinMs: 10_000 });
      await p.submit({ mode: 'echo' }); // the worker is ready
      await expect(p.submit({ mode: 'late', ms: 900 })).resolves.toEqual({ kind: 'answer', answer: { mode: 'late', ms: 900 } });
    });

    it('does not replace a worker whose answer waited for a busy main thread', async () => {
      const p = pool();
      await p.submit({ mode: 'echo' }); // the worker is ready
      // The worker answers 50 ms after this thread has begun to be busy (in a callback of its own, as the
      // forwarder's intake would be) past the watchdog: the next turn of the loop runs the expired watchdog
      // before it reads the answer waiting in the queue.
      const answered = p.submit({ mode: 'late', ms: 50 });
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = Date.now() + 900;
          while (Date.now() < until);
          resolve();
        }),
      );
      await expect(answered).resolves.toEqual({ kind: 'answer', answer: { mode: 'late', ms: 50 } });
    });

    it('replaces a worker that does not begin a job within startWithinMs', async () => {
      const p = pool({ startWithinMs: 300 });
      await p.submit({ mode: 'echo' }); // the worker is ready
      await expect(p.submit({ mode: 'late', ms: 5_000 })).resolves.toEqual({
        kind: 'crashed',
        reason: expect.stringContaining('did not begin the job within 300 ms'),
      });
      await expect(p.submit({ mode: 'echo', n: 8 })).resolves.toMatchObject({ kind: 'answer' });
    });
  });

  it('answers crashed when a worker exits mid-job, then serves from a new worker', async () => {
    const p = pool();
    await expect(p.submit({ mode: 'exit' })).resolves.toEqual({ kind: 'crashed', reason: 'sandbox worker exited (code 3)' });
    await expect(p.submit({ mode: 'echo', n: 3 })).resolves.toMatchObject({ kind: 'answer' });
  });

  it('keeps serving on the other worker while one is stuck', async () => {
    const p = pool({ workers: 2 });
    await Promise.all([p.submit({ mode: 'echo' }), p.submit({ mode: 'echo' })]); // both workers ready
    const stuck = p.submit({ mode: 'spin' });
    await expect(p.submit({ mode: 'echo', n: 4 })).resolves.toMatchObject({ kind: 'answer' });
    await expect(stuck).resolves.toEqual({ kind: 'timeout' });
  });

  it('answers busy instead of queueing beyond the queue limit', async () => {
    const p = pool({ queue: queueLimits(1, 10) });
    await p.submit({ mode: 'echo' }); // the worker is ready
    const inFlight = p.submit({ mode: 'spin' });
    const waiting = p.submit({ mode: 'echo', n: 5 });
    await expect(p.submit({ mode: 'echo', n: 6 })).resolves.toEqual({ kind: 'busy' });
    await expect(inFlight).resolves.toEqual({ kind: 'timeout' });
    await expect(waiting).resolves.toMatchObject({ kind: 'answer', answer: { n: 5 } });
  });

  it('serves waiting jobs round-robin by key, so a flooded key does not hold up another, and refuses a key over its own limit', async () => {
    const p = pool({ queue: queueLimits(100, 4) });
    await p.submit({ mode: 'echo' }); // the worker is ready
    const done: string[] = [];
    const submit = (key: string, n: number) => p.submit({ mode: 'echo', n }, { key, bytes: 1 }).then((answer) => (done.push(`${key}${n}`), answer));
    // f0 goes to the idle worker at once; f1–f4 wait; f5 is one too many for key "f".
    const flood = [0, 1, 2, 3, 4].map((n) => submit('f', n));
    await expect(p.submit({ mode: 'echo' }, { key: 'f', bytes: 1 })).resolves.toEqual({ kind: 'key-full' });
    expect(p.waiting()).toEqual({ f: 4 });
    const other = submit('o', 0);
    await Promise.all([...flood, other]);
    expect(done).toEqual(['f0', 'f1', 'o0', 'f2', 'f3', 'f4']);
  });

  it('fails waiting jobs (no hang, no respawn loop) when workers cannot start, and tries again on the next job', async () => {
    const p = pool({ workerUrl: BROKEN, workers: 2 });
    await expect(p.submit({ mode: 'echo' })).resolves.toMatchObject({ kind: 'crashed' });
    await expect(p.submit({ mode: 'echo' })).resolves.toMatchObject({ kind: 'crashed' });
  });

  it('starts no worker before the first job', async () => {
    const portCell = new Int32Array(new SharedArrayBuffer(4));
    const p = pool({ workerData: { portCell } });
    // A worker started with the pool writes its port within milliseconds (the next test waits for that).
    expect(Atomics.wait(portCell, 0, 0, 2_000)).toBe('timed-out');
    await p.close();
  });

  it('close() answers pending jobs and terminates the workers', async () => {
    const portCell = new Int32Array(new SharedArrayBuffer(4));
    const p = pool({ workerData: { portCell } });
    const inFlight = p.submit({ mode: 'spin' }); // workers start with the first job
    // The worker runs on its own thread, so blocking this one briefly while it starts is fine.
    expect(Atomics.wait(portCell, 0, 0, 10_000)).not.toBe('timed-out');
    const port = Atomics.load(portCell, 0);
    expect(await canConnect(port)).toBe(true);

    const waiting = p.submit({ mode: 'echo' });
    await p.close();
    await expect(inFlight).resolves.toEqual({ kind: 'closed' });
    await expect(waiting).resolves.toEqual({ kind: 'closed' });
    expect(await canConnect(port)).toBe(false);
    await expect(p.submit({ mode: 'echo' })).resolves.toEqual({ kind: 'closed' });
  });
});
