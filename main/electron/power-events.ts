/**
 * The machine woke from sleep or the user unlocked it: timers did not run meanwhile and the network may
 * be another one, so the core chooses its routes again (docs/architecture.md, "Control and the open hub"). The core also notices sleep by
 * itself (a clock jump, main/core/hubs/network-watch.ts); Electron's signals are simply sooner.
 */
import { powerMonitor } from 'electron';
import type { HubdeskCore } from '../core/host';

const WAKE_EVENTS = ['resume', 'unlock-screen'] as const;

/** Tells the core on every wake; returns the function that stops. */
export function wakeOnResume(core: Pick<HubdeskCore, 'wake'>): () => void {
  const wake = () => core.wake('resumed');
  for (const event of WAKE_EVENTS) powerMonitor.on(event as 'resume', wake);
  return () => {
    for (const event of WAKE_EVENTS) powerMonitor.off(event as 'resume', wake);
  };
}
