import { describe, expect, it } from 'vitest';
import { atMostEvery } from '../../../../renderer/src/stores/frame-scheduler';

/** A fake clock, timers and frames: `advance` runs the timers due; `frame` runs the callbacks waiting for a frame. */
function fakeFrames() {
  let now = 1_000;
  let timers: Array<{ at: number; run: () => void }> = [];
  let frames: Array<() => void> = [];
  return {
    clock: {
      now: () => now,
      schedule: (run: () => void, ms: number) => {
        const timer = { at: now + ms, run };
        timers.push(timer);
        return () => void (timers = timers.filter((other) => other !== timer));
      },
    },
    onFrame: (run: () => void) => void frames.push(run),
    advance(ms: number) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      due.forEach((timer) => timer.run());
    },
    frame() {
      const waiting = frames;
      frames = [];
      waiting.forEach((run) => run());
    },
  };
}

describe('atMostEvery', () => {
  it('flushes a lone burst on the next frame, and a stream at most once per interval', () => {
    const time = fakeFrames();
    const schedule = atMostEvery(100, time.onFrame, time.clock);
    const flushed: number[] = [];
    const flush = () => flushed.push(time.clock.now());

    schedule(flush);
    time.frame();
    expect(flushed).toEqual([1_000]);

    // Right after a flush: held until the interval has passed, then drawn on the next frame.
    time.advance(16);
    schedule(flush);
    time.frame();
    expect(flushed).toHaveLength(1);
    time.advance(83);
    time.frame();
    expect(flushed).toHaveLength(1);
    time.advance(1);
    time.frame();
    expect(flushed).toEqual([1_000, 1_100]);

    // Quiet for longer than the interval: at once again.
    time.advance(500);
    schedule(flush);
    time.frame();
    expect(flushed).toEqual([1_000, 1_100, 1_600]);
  });
});
