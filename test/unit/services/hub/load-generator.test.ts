import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDemoHome, type DemoHome } from '../../../../services/hub/demo-home';
import { createLoadGenerator } from '../../../../services/hub/load-generator';

describe('the bench load', () => {
  let home: DemoHome;
  let events: { deviceId: string; transactionId: string | null }[];
  beforeEach(() => {
    vi.useFakeTimers();
    home = createDemoHome('home', { devices: 200 });
    events = [];
    home.onChange((change) => {
      if (change.type === 'capability') events.push({ deviceId: change.deviceId, transactionId: change.data.transactionId });
    });
  });
  afterEach(() => vi.useRealTimers());

  it('keeps the asked rate over time even when ticks come late, spread over many devices', () => {
    const load = createLoadGenerator(home, { eventsPerSecond: 200, tickMs: 20, now: () => Date.now() });
    load.start();
    vi.advanceTimersByTime(10_000);
    expect(events).toHaveLength(2000);
    // Late ticks (a busy event loop) catch up instead of losing events.
    vi.setSystemTime(Date.now() + 3_000);
    vi.advanceTimersByTime(20);
    expect(events).toHaveLength(2600 + 4);
    expect(new Set(events.map((event) => event.deviceId)).size).toBeGreaterThan(150);
    expect(events.every((event) => event.transactionId === null)).toBe(true);
    load.stop();
    vi.advanceTimersByTime(1_000);
    expect(events).toHaveLength(2604);
  });

  it('refuses a rate that is not a finite number ≥ 0', () => {
    expect(() => createLoadGenerator(home, { eventsPerSecond: -1 })).toThrow(RangeError);
    expect(() => createLoadGenerator(home, { eventsPerSecond: Number.NaN })).toThrow(RangeError);
  });
});
