/**
 * Notices what makes the routes the core chose stale without any socket saying so (docs/architecture.md, "Control and the open hub"): the
 * machine's network changed (an interface or address appeared or went away), or the machine slept (the
 * clock jumped past the next tick by far more than a tick). Either calls `onWake` once per change; the
 * core then chooses routes again and reopens what it had open. Electron adds its own `powerMonitor`
 * resume and unlock signals; this one works in both hosts.
 */
import type { Clock, Logger, Schedule } from '../shared';
import { errorMessage } from '../../../common/error-message';

/** One address of one interface, as `os.networkInterfaces()` lists it. */
export interface InterfaceAddress {
  address: string;
  family: string;
  internal: boolean;
}

/** `os.networkInterfaces()`, or a fake. */
export type NetworkInterfaces = () => Partial<Record<string, InterfaceAddress[] | undefined>>;

export type WakeReason = 'network-changed' | 'resumed';

/** How often the interfaces and the clock are looked at. */
export const NETWORK_CHECK_MS = 2_000;
/** A tick this much later than planned means the machine slept (timers do not run while it does). */
export const SLEEP_GAP_MS = 15_000;

export interface NetworkWatchDeps {
  interfaces: NetworkInterfaces;
  clock: Clock;
  schedule: Schedule;
  logger: Logger;
  onWake(reason: WakeReason): void;
  intervalMs?: number;
}

/** The non-loopback addresses, in a stable order: what routes depend on. */
export function networkFingerprint(interfaces: ReturnType<NetworkInterfaces>): string {
  const addresses: string[] = [];
  for (const [name, list] of Object.entries(interfaces)) {
    for (const entry of list ?? []) if (!entry.internal) addresses.push(`${name} ${entry.family} ${entry.address}`);
  }
  return addresses.sort().join('\n');
}

/**
 * Whether the operating system reports a network: some interface has an address that is not its
 * loopback. What the live channel calls `offline` (docs/hub-realtime.md, "The open hub's model and
 * live states"); a host that cannot list its interfaces counts as online (the failure is then the hub's).
 */
export function isOnline(interfaces: NetworkInterfaces): boolean {
  try {
    return networkFingerprint(interfaces()) !== '';
  } catch {
    return true;
  }
}

/** Starts watching; returns the function that stops. */
export function watchNetwork(deps: NetworkWatchDeps): () => void {
  const intervalMs = deps.intervalMs ?? NETWORK_CHECK_MS;
  const read = (): string => {
    try {
      return networkFingerprint(deps.interfaces());
    } catch (error) {
      // A host that cannot list its interfaces: treat as unchanged rather than waking every tick.
      deps.logger.warn('network: could not list the interfaces', { error: errorMessage(error) });
      return last;
    }
  };
  let last = '';
  last = read();
  let lastTick = deps.clock.now();
  let stopped = false;
  let cancel = () => {};

  const tick = () => {
    if (stopped) return;
    const now = deps.clock.now();
    const slept = now - lastTick > intervalMs + SLEEP_GAP_MS;
    lastTick = now;
    const current = read();
    const changed = current !== last;
    last = current;
    if (slept || changed) {
      const reason: WakeReason = slept ? 'resumed' : 'network-changed';
      deps.logger.info('network: routes may be stale', { reason });
      deps.onWake(reason);
    }
    cancel = deps.schedule(tick, intervalMs);
  };
  cancel = deps.schedule(tick, intervalMs);
  return () => {
    stopped = true;
    cancel();
  };
}
