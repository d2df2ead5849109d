/**
 * The living demo home: on every tick thermostats' measured temperature drifts toward the target,
 * motion and contact sensors trip and reset now and then, power meters fluctuate around their
 * device's usual draw (nothing when switched off) and energy meters add it up. Every change goes
 * through DemoHome.setCapability with no transaction id, so it reaches realtime subscribers like any
 * other. Unavailable devices stay still.
 */
import type { Device } from '../../common/wire';
import type { DemoHome } from './demo-home';
import { intervalTicker, type Runner, type Ticker, tickingRunner } from './ticker';

export const SIMULATION_TICK_MS = 5_000;

export interface SimulationOptions {
  tickMs?: number;
  ticker?: Ticker;
  /** In [0, 1); default Math.random. */
  random?: () => number;
}

/** Per tick: the share of the gap to the target a room closes, and the chances a sensor changes. */
const DRIFT_SHARE = 0.15;
const MOTION_TRIP = 0.08;
const MOTION_RESET = 0.5;
const CONTACT_TRIP = 0.03;
const CONTACT_RESET = 0.3;
const POWER_WOBBLE = 0.05;
const FALLBACK_DRAW_W = 60;

export function createSimulation(home: DemoHome, options: SimulationOptions = {}): Runner {
  const tickMs = options.tickMs ?? SIMULATION_TICK_MS;
  const random = options.random ?? Math.random;
  /** The draw a device shows when on: its value at start, or a fallback when it started at 0. */
  const usualDraw = new Map<string, number>();
  /** Energy in kWh before rounding, so small ticks add up. */
  const energy = new Map<string, number>();

  const set = (device: Device, capabilityId: string, value: boolean | number | string) => {
    if (device.capabilitiesObj?.[capabilityId]?.value !== value) home.setCapability(device.id, capabilityId, value, null);
  };
  const value = (device: Device, capabilityId: string) => device.capabilitiesObj?.[capabilityId]?.value;
  const chance = (probability: number) => random() < probability;

  const driftTemperature = (device: Device) => {
    const target = value(device, 'target_temperature');
    const measured = value(device, 'measure_temperature');
    if (typeof target !== 'number' || typeof measured !== 'number' || value(device, 'thermostat_mode') === 'off') return;
    const noise = (random() - 0.5) * 0.1;
    set(device, 'measure_temperature', round(measured + (target - measured) * DRIFT_SHARE + noise, 1));
  };

  const flicker = (device: Device, capabilityId: string, trip: number, reset: number) => {
    const current = value(device, capabilityId);
    if (typeof current === 'boolean' && chance(current ? reset : trip)) set(device, capabilityId, !current);
  };

  const meterPower = (device: Device) => {
    const power = value(device, 'measure_power');
    if (typeof power !== 'number') return;
    if (!usualDraw.has(device.id)) usualDraw.set(device.id, power > 0 ? power : FALLBACK_DRAW_W);
    const on = value(device, 'onoff') !== false;
    const next = on ? round(usualDraw.get(device.id)! * (1 + (random() * 2 - 1) * POWER_WOBBLE), 1) : 0;
    set(device, 'measure_power', next);
    const meter = value(device, 'meter_power');
    if (typeof meter !== 'number') return;
    const total = (energy.get(device.id) ?? meter) + (next * tickMs) / 3_600_000_000;
    energy.set(device.id, total);
    set(device, 'meter_power', round(total, 2));
  };

  return tickingRunner(options.ticker ?? intervalTicker, tickMs, () => {
    for (const device of Object.values(home.devices())) {
      if (device.available === false) continue;
      driftTemperature(device);
      flicker(device, 'alarm_motion', MOTION_TRIP, MOTION_RESET);
      flicker(device, 'alarm_contact', CONTACT_TRIP, CONTACT_RESET);
      meterPower(device);
    }
  });
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
