/** Coalescing of bursts: stores queue incoming events and apply them in one update per animation frame. */
import { realSchedule, type Schedule } from '../../../common/schedule';

/** Schedules one flush of queued events; the default waits for the next animation frame. */
export type ScheduleFlush = (flush: () => void) => void;

// Looked up rather than named: this module is also type-checked (in tests) without the DOM library.
const frame = (globalThis as { requestAnimationFrame?: (run: () => void) => number }).requestAnimationFrame;

export const nextFrame: ScheduleFlush = (flush) => {
  if (frame) frame(flush);
  else realSchedule(flush, 16);
};

/** What a throttle reads and waits with: a monotonic clock and the one timer port (common/schedule.ts). */
export interface ThrottleClock {
  now(): number;
  schedule: Schedule;
}

const realClock: ThrottleClock = { now: () => performance.now(), schedule: realSchedule };

/**
 * Flushes on the next frame, but at most once per `intervalMs`: a lone event shows at once, and a
 * stream of them (hundreds a second) redraws a few times a second instead of every frame. Each redraw of
 * a long list is a React commit, a layout and a paint; at 500 messages a second, every frame's redraw
 * left the page little time for anything else (docs/benchmarks.md, "The inspector on a large history").
 */
export function atMostEvery(intervalMs: number, onFrame: ScheduleFlush = nextFrame, clock: ThrottleClock = realClock): ScheduleFlush {
  let last = Number.NEGATIVE_INFINITY;
  return (flush) => {
    const run = () => {
      last = clock.now();
      flush();
    };
    const wait = last + intervalMs - clock.now();
    if (wait <= 0) onFrame(run);
    else clock.schedule(() => onFrame(run), wait);
  };
}
