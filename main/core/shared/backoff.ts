/**
 * Reconnection delays: exponential from 250 ms to 30 s with "equal jitter" (half fixed, half random),
 * so many clients dropped together by one forwarder restart do not all come back in the same instant,
 * yet none waits less than half its step.
 */
export const BACKOFF_INITIAL_MS = 250;
export const BACKOFF_MAX_MS = 30_000;

export interface Backoff {
  /** The delay before the next attempt; each call counts one more failed attempt. */
  next(): number;
  /** Failed attempts since the last success. */
  attempts(): number;
  /** After a success: the next failure starts again from the initial delay. */
  reset(): void;
}

export function createBackoff(random: () => number = Math.random, initialMs = BACKOFF_INITIAL_MS, maxMs = BACKOFF_MAX_MS): Backoff {
  let attempt = 0;
  return {
    next() {
      const step = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
      attempt++;
      return Math.round(step / 2 + random() * (step / 2));
    },
    attempts: () => attempt,
    reset: () => void (attempt = 0),
  };
}
