/** Coalescing of bursts: stores queue incoming events and apply them in one update per animation frame. */

/** Schedules one flush of queued events; the default waits for the next animation frame. */
export type ScheduleFlush = (flush: () => void) => void;

// Looked up rather than named: this module is also type-checked (in tests) without the DOM library.
const frame = (globalThis as { requestAnimationFrame?: (run: () => void) => number }).requestAnimationFrame;

export const nextFrame: ScheduleFlush = (flush) => {
  if (frame) frame(flush);
  else setTimeout(flush, 16);
};
