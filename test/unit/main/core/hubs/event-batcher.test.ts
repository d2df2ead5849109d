import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_INTERVAL_MS, createEventBatcher } from '../../../../../main/core/hubs/event-batcher';
import { realSchedule } from '../../../../../main/core/shared/ports';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('event batcher', () => {
  it('sends at most one batch per interval, in arrival order, and nothing when idle', () => {
    const batches: number[][] = [];
    const batcher = createEventBatcher<number>((items) => batches.push(items), realSchedule);
    for (let i = 0; i < 5; i++) batcher.push(i);
    vi.advanceTimersByTime(BATCH_INTERVAL_MS - 1);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(1);
    batcher.push(5);
    vi.advanceTimersByTime(BATCH_INTERVAL_MS * 10);
    expect(batches).toEqual([[0, 1, 2, 3, 4], [5]]);
  });

  it('dispose drops what is pending', () => {
    const batches: number[][] = [];
    const batcher = createEventBatcher<number>((items) => batches.push(items), realSchedule);
    batcher.push(1);
    batcher.dispose();
    vi.advanceTimersByTime(BATCH_INTERVAL_MS);
    expect(batches).toEqual([]);
  });
});
