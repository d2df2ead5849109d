/**
 * One clock for every "2 min ago" and every sparkline's "now" (docs/hub-realtime.md, "While the open
 * hub is not live"): a single timer, running only while something reads it, and a component re-renders
 * only when what it shows of the time changes — a thousand cards do not each keep a timer.
 */
import { useSyncExternalStore } from 'react';
import { formatAgo } from '../format/relative-time';
import { createEmitter } from '../../../common/emitter';

/** Minutes are what these labels show: a tick every few seconds is exact enough and cheap. */
export const SLOW_CLOCK_TICK_MS = 5_000;

const ticks = createEmitter<void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  const off = ticks.on(listener);
  timer ??= setInterval(() => ticks.emit(), SLOW_CLOCK_TICK_MS);
  return () => {
    off();
    if (ticks.size > 0 || timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
  };
}

const stillClock = () => () => {};

/** "just now", "2 min ago"… for a time (epoch ms), kept current. */
export function useAgo(at: number): string {
  return useSyncExternalStore(subscribe, () => formatAgo(at, Date.now()));
}

/** The time, to the clock's tick, while `running`; null otherwise. */
export function useSlowNow(running: boolean): number | null {
  return useSyncExternalStore(running ? subscribe : stillClock, () => (running ? Math.floor(Date.now() / SLOW_CLOCK_TICK_MS) * SLOW_CLOCK_TICK_MS : null));
}

/** The start of today (epoch ms, local), while `running`, else null: a card's times need their day only when it is not today (format/device-presentation.ts). */
export function useToday(running: boolean): number | null {
  return useSyncExternalStore(running ? subscribe : stillClock, () => (running ? new Date().setHours(0, 0, 0, 0) : null));
}
