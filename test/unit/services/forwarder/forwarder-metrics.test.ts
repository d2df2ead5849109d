import { describe, expect, it } from 'vitest';
import { readAtMostEvery } from '../../../../services/forwarder/forwarder-metrics';

/** A read whose answers the test gives, one per call, counting the calls. */
function controlledRead() {
  const calls: Array<{ resolve: (value: number) => void; reject: (error: Error) => void }> = [];
  const read = () => new Promise<number>((resolve, reject) => calls.push({ resolve, reject }));
  return { read, calls };
}

describe('readAtMostEvery: what a scrape reads from Redis, shared by the scrapes that follow', () => {
  it('starts one read for any number of calls while it is under way, however long it takes', async () => {
    let now = 0;
    const { read, calls } = controlledRead();
    const shared = readAtMostEvery(1_000, read, () => now);
    const answers = Array.from({ length: 100 }, () => shared());
    now = 5_000; // older than the limit, but not yet answered: still the one read
    answers.push(shared());
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(7);
    expect(await Promise.all(answers)).toEqual(Array(101).fill(7));
  });

  it('answers from the last read until maxAgeMs after it started, then reads again', async () => {
    let now = 0;
    const { read, calls } = controlledRead();
    const shared = readAtMostEvery(1_000, read, () => now);
    const first = shared();
    now = 400;
    calls[0]!.resolve(1);
    expect(await first).toBe(1);
    now = 999;
    expect(await shared()).toBe(1);
    expect(calls).toHaveLength(1);
    now = 1_000;
    const second = shared();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(2);
    expect(await second).toBe(2);
    expect(await shared()).toBe(2);
  });

  it('keeps no failed read: the next call reads again at once', async () => {
    const now = 0;
    const { read, calls } = controlledRead();
    const shared = readAtMostEvery(1_000, read, () => now);
    const failing = shared();
    calls[0]!.reject(new Error('Redis away'));
    await expect(failing).rejects.toThrow('Redis away');
    const next = shared();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(3);
    expect(await next).toBe(3);
  });
});
