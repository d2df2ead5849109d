import type { Envelope } from '../../../../common/app-error';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTION_DEADLINE_MS, isTimeout, NO_ANSWER_IN_TIME, settle } from '../../../../renderer/src/stores/settle';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('settle', () => {
  it('passes an answer through', async () => {
    await expect(settle(() => Promise.resolve({ ok: true, value: 1 }))).resolves.toEqual({ ok: true, value: 1 });
  });

  it('turns a rejected or malformed answer into an error envelope', async () => {
    await expect(settle(() => Promise.reject(new Error('gone')))).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
    await expect(settle(() => Promise.resolve('nonsense' as never))).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('fails a call that has not answered by the deadline, and ignores its later answer', async () => {
    let answer!: (value: Envelope<number>) => void;
    const result = settle(() => new Promise<Envelope<number>>((resolve) => (answer = resolve)));
    let settled: unknown;
    void result.then((value) => (settled = value));
    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual({ ok: false, error: { code: 'internal', message: NO_ANSWER_IN_TIME } });
    expect(isTimeout((settled as { error: { code: 'internal'; message: string } }).error)).toBe(true);
    answer({ ok: true, value: 2 });
    await expect(result).resolves.toEqual({ ok: false, error: { code: 'internal', message: NO_ANSWER_IN_TIME } });
  });

  it('takes a shorter deadline and its own sentence', async () => {
    const result = settle(() => new Promise(() => {}), { deadlineMs: 50, timeoutMessage: 'Too slow.' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(result).resolves.toEqual({ ok: false, error: { code: 'internal', message: 'Too slow.' } });
  });

  it('leaves no timer behind once answered', async () => {
    await settle(() => Promise.resolve({ ok: true, value: 1 }));
    expect(vi.getTimerCount()).toBe(0);
  });
});
