/** The per-session turns of insights reads: how many run, how many wait, in which order, and what is refused. */
import { describe, expect, it } from 'vitest';
import { InsightsReadLimiter, type ReleaseRead } from '../../../../../services/hub/insights/read-limiter';

const settled = async <T>(promise: Promise<T>): Promise<T | 'pending'> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

describe('InsightsReadLimiter', () => {
  it('runs up to maxRunning reads of a key, queues up to maxWaiting and refuses the next', async () => {
    const limiter = new InsightsReadLimiter<string>(2, 3);
    const running = [limiter.acquire('a')!, limiter.acquire('a')!];
    const waiting = [limiter.acquire('a')!, limiter.acquire('a')!, limiter.acquire('a')!];
    expect(limiter.acquire('a')).toBeUndefined();
    for (const turn of running) expect(await settled(turn)).toBeTypeOf('function');
    for (const turn of waiting) expect(await settled(turn)).toBe('pending');
    expect(limiter.stats()).toEqual({ running: 2, waiting: 3, peakRunning: 2, peakWaiting: 3, refused: 1 });
  });

  it('hands a released turn to the oldest waiting read, once however often it is released', async () => {
    const limiter = new InsightsReadLimiter<string>(1, 2);
    const first = (await limiter.acquire('a'))!;
    const second = limiter.acquire('a')!;
    const third = limiter.acquire('a')!;
    first();
    first();
    const next = (await settled(second)) as ReleaseRead;
    expect(next).toBeTypeOf('function');
    expect(await settled(third)).toBe('pending');
    next();
    (await third)();
    expect(limiter.stats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it('counts each key apart: one session full does not hold another', async () => {
    const limiter = new InsightsReadLimiter<object>(1, 0);
    const a = {};
    const b = {};
    await limiter.acquire(a);
    expect(limiter.acquire(a)).toBeUndefined();
    expect(await settled(limiter.acquire(b)!)).toBeTypeOf('function');
    expect(limiter.stats()).toMatchObject({ running: 2, refused: 1, peakRunning: 1 });
  });
});
