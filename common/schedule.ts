/**
 * The one timer primitive of main and the renderer (docs/architecture.md, "main/core", the `Schedule`
 * port): runs `run` once after `ms` and returns a function that cancels it (harmless after it ran).
 * Modules take one from their options rather than calling setTimeout, so tests can drive time.
 */
export type Schedule = (run: () => void, ms: number) => () => void;

/** Real timers; unref'd where the runtime has it (Node), so a pending timer never keeps a process alive on its own. */
export const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  (timer as { unref?: () => void }).unref?.();
  return () => clearTimeout(timer);
};
