import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDemoHome, type DemoHome, type HomeChange } from '../../../../services/hub/demo-home';
import { createSimulation, SIMULATION_TICK_MS } from '../../../../services/hub/simulation';

/** A repeatable random sequence (a linear congruential generator), so runs do not depend on luck. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const find = (home: DemoHome, name: string) => Object.values(home.devices()).find((device) => device.name === name)!;
const valueOf = (home: DemoHome, name: string, capabilityId: string) => find(home, name).capabilitiesObj![capabilityId]!.value;

describe('the living home', () => {
  let home: DemoHome;
  let changes: HomeChange[];
  beforeEach(() => {
    vi.useFakeTimers();
    home = createDemoHome('home');
    changes = [];
    home.onChange((change) => changes.push(change));
  });
  afterEach(() => vi.useRealTimers());

  it('does nothing until started, ticks while started, and nothing after stop', () => {
    const simulation = createSimulation(home, { random: seededRandom(1) });
    vi.advanceTimersByTime(SIMULATION_TICK_MS * 3);
    expect(changes).toHaveLength(0);
    simulation.start();
    simulation.start(); // a second start does not double the ticks
    vi.advanceTimersByTime(SIMULATION_TICK_MS);
    const afterOneTick = changes.length;
    expect(afterOneTick).toBeGreaterThan(0);
    simulation.stop();
    vi.advanceTimersByTime(SIMULATION_TICK_MS * 3);
    expect(changes).toHaveLength(afterOneTick);
  });

  it('moves a thermostat toward its target and keeps it there', () => {
    const thermostat = find(home, 'Living room thermostat');
    expect(home.setCapability(thermostat.id, 'target_temperature', 25, 'tx')).toMatchObject({ ok: true });
    createSimulation(home, { random: seededRandom(2) }).start();
    vi.advanceTimersByTime(SIMULATION_TICK_MS * 60);
    expect(Math.abs((valueOf(home, 'Living room thermostat', 'measure_temperature') as number) - 25)).toBeLessThanOrEqual(0.2);
  });

  it('trips and resets motion and contact sensors, with changes from the hub itself', () => {
    createSimulation(home, { random: seededRandom(3) }).start();
    vi.advanceTimersByTime(SIMULATION_TICK_MS * 200);
    const events = changes.flatMap((change) => (change.type === 'capability' ? [change.data] : []));
    for (const capabilityId of ['alarm_motion', 'alarm_contact']) {
      const values = events.filter((event) => event.capabilityId === capabilityId).map((event) => event.value);
      expect(values).toContain(true);
      expect(values).toContain(false);
    }
    expect(events.every((event) => event.transactionId === null)).toBe(true);
  });

  it('makes power fluctuate while on, drop to 0 when off, and energy only grow', () => {
    const charger = find(home, 'EV charger');
    const simulation = createSimulation(home, { random: seededRandom(4) });
    simulation.start();
    const powers = new Set<unknown>();
    for (let tick = 0; tick < 20; tick++) {
      vi.advanceTimersByTime(SIMULATION_TICK_MS);
      powers.add(valueOf(home, 'EV charger', 'measure_power'));
    }
    expect(powers.size).toBeGreaterThan(3);
    for (const power of powers) expect(Math.abs((power as number) - 7200)).toBeLessThanOrEqual(7200 * 0.05);
    const meter = valueOf(home, 'EV charger', 'meter_power') as number;
    expect(meter).toBeGreaterThan(1532.4);
    home.setCapability(charger.id, 'onoff', false, 'tx');
    vi.advanceTimersByTime(SIMULATION_TICK_MS * 5);
    expect(valueOf(home, 'EV charger', 'measure_power')).toBe(0);
    expect(valueOf(home, 'EV charger', 'meter_power')).toBeGreaterThanOrEqual(meter);
  });

  it('leaves unavailable devices still', () => {
    const thermostat = find(home, 'Bedroom thermostat');
    home.setCapability(thermostat.id, 'target_temperature', 30, 'tx');
    home.setAvailable(thermostat.id, false);
    createSimulation(home, { random: seededRandom(5) }).start();
    vi.advanceTimersByTime(SIMULATION_TICK_MS * 20);
    expect(valueOf(home, 'Bedroom thermostat', 'measure_temperature')).toBe(18.4);
  });
});
