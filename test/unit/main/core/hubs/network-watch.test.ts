import { describe, expect, it } from 'vitest';
import { isOnline, NETWORK_CHECK_MS, networkFingerprint, SLEEP_GAP_MS, type WakeReason, watchNetwork } from '../../../../../main/core/hubs/network-watch';
import type { Schedule } from '../../../../../main/core/shared/ports';
import { recordingLogger } from '../../../../support/core-fakes';

const LOOPBACK = { address: '127.0.0.1', family: 'IPv4', internal: true };
const eth = (address: string) => ({ address, family: 'IPv4', internal: false });

/** A watch on fake interfaces, clock and timer: `tick(ms)` moves the clock and runs the pending timer. */
function setup(initial: Record<string, { address: string; family: string; internal: boolean }[]>) {
  let interfaces = initial;
  let now = 1_000_000;
  let pending: (() => void) | null = null;
  const schedule: Schedule = (run) => {
    pending = run;
    return () => void (pending = null);
  };
  const wakes: WakeReason[] = [];
  const stop = watchNetwork({
    interfaces: () => interfaces,
    clock: { now: () => now },
    schedule,
    logger: recordingLogger(),
    onWake: (reason) => void wakes.push(reason),
  });
  const tick = (ms = NETWORK_CHECK_MS) => {
    now += ms;
    const run = pending;
    pending = null;
    run?.();
  };
  return { wakes, tick, stop, set: (next: typeof interfaces) => void (interfaces = next), pending: () => pending };
}

describe('watchNetwork', () => {
  it('stays quiet while nothing changes', () => {
    const t = setup({ lo: [LOOPBACK], eth0: [eth('192.0.2.1')] });
    for (let i = 0; i < 5; i++) t.tick();
    expect(t.wakes).toEqual([]);
  });

  it('wakes once when an address appears, goes away or changes; loopback does not count', () => {
    const t = setup({ lo: [LOOPBACK], eth0: [eth('192.0.2.1')] });
    t.set({ lo: [LOOPBACK], eth0: [eth('192.0.2.1')], wlan0: [eth('198.51.100.2')] });
    t.tick();
    t.tick();
    expect(t.wakes).toEqual(['network-changed']);
    t.set({ lo: [LOOPBACK, { address: '::1', family: 'IPv6', internal: true }], wlan0: [eth('198.51.100.2')] });
    t.tick();
    expect(t.wakes).toEqual(['network-changed', 'network-changed']);
    t.set({ lo: [LOOPBACK], wlan0: [eth('198.51.100.2')] });
    t.tick();
    expect(t.wakes).toHaveLength(2);
  });

  it('wakes when the clock jumped far past the next check (the machine slept), not for a late timer', () => {
    const t = setup({ eth0: [eth('192.0.2.1')] });
    t.tick(NETWORK_CHECK_MS + SLEEP_GAP_MS - 1);
    expect(t.wakes).toEqual([]);
    t.tick(NETWORK_CHECK_MS + SLEEP_GAP_MS + 1);
    expect(t.wakes).toEqual(['resumed']);
  });

  it('stops checking when stopped', () => {
    const t = setup({ eth0: [eth('192.0.2.1')] });
    t.stop();
    expect(t.pending()).toBeNull();
  });

  it('fingerprints addresses in a stable order', () => {
    expect(networkFingerprint({ b: [eth('2')], a: [eth('1')] })).toBe(networkFingerprint({ a: [eth('1')], b: [eth('2')] }));
    expect(networkFingerprint({ lo: [LOOPBACK] })).toBe('');
  });
});

describe('isOnline', () => {
  it('is online while some interface has an address other than loopback, and when the interfaces cannot be listed', () => {
    expect(isOnline(() => ({ lo: [LOOPBACK], eth0: [eth('192.0.2.1')] }))).toBe(true);
    expect(isOnline(() => ({ lo: [LOOPBACK] }))).toBe(false);
    expect(isOnline(() => ({}))).toBe(false);
    expect(
      isOnline(() => {
        throw new Error('not supported');
      }),
    ).toBe(true);
  });
});
