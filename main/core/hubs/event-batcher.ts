/**
 * Coalesces a stream of items into batches, at most one per interval (~one frame), in arrival order:
 * a hub sending hundreds of changes a second costs the renderer one update per frame, not one per
 * change. The first item after a quiet period starts the interval; everything that arrives within it
 * goes out together when it ends.
 */
import type { Schedule } from '../shared';

export const BATCH_INTERVAL_MS = 16;

export interface EventBatcher<T> {
  push(item: T): void;
  /** Drops what is pending and stops (the consumer no longer cares, e.g. the hub is no longer watched). */
  dispose(): void;
}

export function createEventBatcher<T>(flush: (items: T[]) => void, schedule: Schedule, intervalMs = BATCH_INTERVAL_MS): EventBatcher<T> {
  let pending: T[] = [];
  let cancel: (() => void) | null = null;
  return {
    push(item) {
      pending.push(item);
      cancel ??= schedule(() => {
        cancel = null;
        const items = pending;
        pending = [];
        flush(items);
      }, intervalMs);
    },
    dispose() {
      cancel?.();
      cancel = null;
      pending = [];
    },
  };
}
