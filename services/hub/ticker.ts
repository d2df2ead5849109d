/**
 * A repeating timer as a value, so the hub's background work (simulation, load) can be driven by a
 * test's fake timers or by hand. The default uses setInterval and does not keep the process alive.
 */
export type Ticker = (callback: () => void, intervalMs: number) => () => void;

export const intervalTicker: Ticker = (callback, intervalMs) => {
  const timer = setInterval(callback, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};

/** Something started and stopped; both may be called again without harm. */
export interface Runner {
  start(): void;
  stop(): void;
}

/** A Runner that calls `tick` every `intervalMs` on `ticker` while started. */
export function tickingRunner(ticker: Ticker, intervalMs: number, tick: () => void): Runner {
  let cancel: (() => void) | undefined;
  return {
    start() {
      cancel ??= ticker(tick, intervalMs);
    },
    stop() {
      cancel?.();
      cancel = undefined;
    },
  };
}
