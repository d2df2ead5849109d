/**
 * The core's Clock and Schedule ports (main/core/shared/ports.ts) on one fake timeline: time moves only in
 * `advance`, which runs every task that falls due on the way, in the order of when it is due (then of
 * when it was scheduled), tasks scheduled meanwhile included, each with the clock at its time.
 */
import type { Clock, Schedule } from '../../main/core/shared/ports';

interface Task {
  at: number;
  order: number;
  run: () => void;
  cancelled: boolean;
}

export interface FakeTimeline {
  clock: Clock;
  schedule: Schedule;
  /** Moves time forward by `ms`, running what falls due. */
  advance(ms: number): void;
  /** Tasks not yet run nor cancelled. */
  pending(): number;
}

export function fakeTimeline(start = 1_000_000): FakeTimeline {
  let now = start;
  let order = 0;
  const tasks: Task[] = [];
  const next = (until: number) => tasks.filter((task) => !task.cancelled && task.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
  return {
    clock: { now: () => now },
    schedule: (run, ms) => {
      const task = { at: now + Math.max(0, ms), order: order++, run, cancelled: false };
      tasks.push(task);
      return () => void (task.cancelled = true);
    },
    advance(ms) {
      const until = now + ms;
      for (let task = next(until); task; task = next(until)) {
        task.cancelled = true;
        now = task.at;
        task.run();
      }
      now = until;
      for (let i = tasks.length - 1; i >= 0; i--) if (tasks[i]!.cancelled) tasks.splice(i, 1);
    },
    pending: () => tasks.filter((task) => !task.cancelled).length,
  };
}
