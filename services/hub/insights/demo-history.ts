/**
 * The backfilled history of a demo device's capability: the changes it made over the year before the
 * hub started, as a pure function of the device, the capability, the hub's start time and the value
 * it has at start (so the same `now` gives the same history, and the history leads into the live
 * value). Readings are made on a five-minute grid (the finest step most sensors report at), sensor
 * trips at the second; only changes are emitted.
 *
 * - thermostats: day and night settings (target_temperature), the room warming after the day setting
 *   begins and cooling after it ends (measure_temperature);
 * - appliances: on while their schedule says (onoff), drawing their usual power then (measure_power),
 *   their meter adding up exactly that power (meter_power; it starts at 0 where the year's use would
 *   take it below, as a new meter does);
 * - sensors: trips by time of day (alarm_motion, alarm_contact, alarm_generic), readings by profile;
 * - batteries: draining slowly, replaced at 20 %;
 * - everything else: its current value.
 *
 * The last grid value of every log is the device's current value, and readings are blended into it
 * over the last two hours, so the history joins the live value without a jump.
 */
import type { CapabilityState, Device } from '../../../common/wire';
import { stableId, type DemoHomeKind } from '../demo-home';
import { DEMO_PROFILES, type DeviceProfile, type Trips } from './demo-profiles';
import { DAY, drift, HOUR, hourOfDay, MINUTE, noise, seedOf, usage } from './signals';

/** How far back the history goes. */
export const BACKFILL_MS = 365 * DAY;
const GRID_MS = 5 * MINUTE;
const JOIN_MS = 2 * HOUR;
const BATTERY_REPLACED_AT = 20;

export type Emit = (time: number, value: number | boolean) => void;
/** Emits the changes of [from, start) in time order. */
export type History = (emit: Emit) => void;

/** The device's profile by its id: the ids of demo devices derive from their seed keys. */
const PROFILE_BY_ID = new Map<string, DeviceProfile>(
  Object.entries(DEMO_PROFILES).flatMap(([kind, profiles]) =>
    Object.entries(profiles).map(([key, profile]) => [stableId(`${kind as DemoHomeKind}/device/${key}`), profile] as const),
  ),
);

/** The first instant of the backfill of a hub started at `start`. */
export function backfillStart(start: number): number {
  return Math.floor((start - BACKFILL_MS) / GRID_MS) * GRID_MS;
}

/** The history of `capabilityId` of `device` (as it is at `start`), or undefined when it has none (not a demo device). */
export function demoHistory(device: Device, capabilityId: string, start: number): History | undefined {
  const profile = PROFILE_BY_ID.get(device.id);
  const capability = device.capabilitiesObj?.[capabilityId];
  if (!profile || !capability || (typeof capability.value !== 'number' && typeof capability.value !== 'boolean')) return undefined;
  const seed = seedOf(`${device.id}/${capabilityId}`);
  const grid = new Grid(backfillStart(start), start);
  const current = capability.value;
  const value = (id: string) => device.capabilitiesObj?.[id]?.value;
  const on = value('onoff');

  if (profile.use && (capabilityId === 'onoff' || capabilityId === 'measure_power' || capabilityId === 'meter_power')) {
    const inUseAt = usage(profile.use, seedOf(device.id));
    const power = powerOf(profile, on === true, value('measure_power'), seed, inUseAt);
    if (capabilityId === 'onoff') return (emit) => grid.sample(emit, inUseAt, current);
    if (capabilityId === 'measure_power') return (emit) => grid.sample(emit, power, current);
    return (emit) => grid.meter(emit, power, value('measure_power'), current as number);
  }
  if (profile.heating && (capabilityId === 'target_temperature' || capabilityId === 'measure_temperature')) {
    const { dayFrom, dayTo, setbackC } = profile.heating;
    const target = value('target_temperature');
    if (typeof target !== 'number') return undefined;
    const isDay = (time: number) => hourOfDay(time) >= dayFrom && hourOfDay(time) < dayTo;
    const day = isDay(start) ? target : target + setbackC;
    const night = day - setbackC;
    if (capabilityId === 'target_temperature') return (emit) => grid.sample(emit, (time) => (isDay(time) ? day : night), current);
    const warmth = (time: number) => {
      const hour = hourOfDay(time);
      return isDay(time) ? Math.min(1, (hour - dayFrom) / 1.5) : Math.max(0, 1 - ((hour - dayTo + 24) % 24) / 3);
    };
    return (emit) => grid.wave(emit, (time) => night + (day - night) * warmth(time) - 0.3 + 0.5 * drift(seed, time, 6 * HOUR), capability);
  }
  const wave = profile.waves?.[capabilityId as keyof NonNullable<DeviceProfile['waves']>];
  if (wave) return (emit) => grid.wave(emit, (time) => wave(time, seed), capability);
  const trips = profile.trips?.[capabilityId as keyof NonNullable<DeviceProfile['trips']>];
  if (trips) return (emit) => grid.trips(emit, trips, seed, current === true);
  if (profile.closedExcept?.capabilityId === capabilityId) {
    const open = usage(profile.closedExcept.open, seed);
    return (emit) => grid.sample(emit, (time) => !open(time), current);
  }
  if (capabilityId === 'measure_battery' && typeof current === 'number') return (emit) => grid.sample(emit, battery(current, seed, start), current);
  return (emit) => emit(grid.from, current);
}

/** Draw while in use: the current draw when on now, else the profile's; off draws the current standby when off now, else nothing. */
function powerOf(profile: DeviceProfile, onNow: boolean, powerNow: unknown, seed: number, inUseAt: (time: number) => boolean) {
  const now = typeof powerNow === 'number' ? powerNow : 0;
  const draw = onNow && now > 0 ? now : (profile.drawW ?? 60);
  const standby = onNow ? 0 : now;
  return (time: number) => (inUseAt(time) ? Math.round(draw * (0.95 + 0.1 * noise(seed, time / GRID_MS)) * 10) / 10 : standby);
}

/** A battery at `current` at start, higher the further back, replaced (a jump from 20 % to 100 %) when that would pass 100 %. */
function battery(current: number, seed: number, start: number) {
  const perDay = 0.04 + 0.06 * noise(seed, 0);
  return (time: number) => {
    const raw = current + (perDay * (start - time)) / DAY;
    return Math.round(raw <= 100 ? raw : BATTERY_REPLACED_AT + ((raw - 100) % (100 - BATTERY_REPLACED_AT)));
  };
}

/** The five-minute grid over [from, start), and the ways to walk it emitting only changes. */
class Grid {
  readonly from: number;
  private readonly count: number;

  constructor(
    from: number,
    readonly start: number,
  ) {
    this.from = from;
    this.count = Math.ceil((start - from) / GRID_MS);
  }

  private at(i: number): number {
    return this.from + i * GRID_MS;
  }

  /** `f` at every grid point, the last one `current`. */
  sample(emit: Emit, f: (time: number) => number | boolean, current: number | boolean): void {
    let previous: number | boolean | undefined;
    for (let i = 0; i < this.count; i++) {
      const value = i === this.count - 1 ? current : f(this.at(i));
      if (value !== previous) emit(this.at(i), value);
      previous = value;
    }
  }

  /** A reading: `f` blended into the current value over the last JOIN_MS, rounded to its decimals, kept in its range. */
  wave(emit: Emit, f: (time: number) => number, capability: CapabilityState): void {
    const current = capability.value as number;
    const offset = current - f(this.start);
    const factor = 10 ** (capability.decimals ?? 1);
    const min = capability.min ?? -Infinity;
    const max = capability.max ?? Infinity;
    this.sample(
      emit,
      (time) => {
        const share = Math.max(0, 1 - (this.start - time) / JOIN_MS);
        return Math.min(max, Math.max(min, Math.round((f(time) + offset * share) * factor) / factor));
      },
      current,
    );
  }

  /** A meter that ends at `current` and grows by exactly the energy `power` draws (W · ms → kWh), never below 0. */
  meter(emit: Emit, power: (time: number) => number, powerNow: unknown, current: number): void {
    const watts = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) watts[i] = i === this.count - 1 && typeof powerNow === 'number' ? powerNow : power(this.at(i));
    let after = 0; // W · ms used from grid point i to start
    const readings = new Float64Array(this.count);
    for (let i = this.count - 1; i >= 0; i--) {
      after += watts[i]! * (Math.min(this.start, this.at(i + 1)) - this.at(i));
      readings[i] = current - after / 3_600_000_000;
    }
    let previous: number | undefined;
    for (let i = 0; i < this.count; i++) {
      if (readings[i]! < 0) continue;
      const value = Math.round(readings[i]! * 100) / 100;
      if (value !== previous) emit(this.at(i), value);
      previous = value;
    }
  }

  /** A sensor that trips now and then (by `trips.chance` per slot), each time for a few seconds to minutes; `current` at the end. */
  trips(emit: Emit, trips: Trips, seed: number, current: boolean): void {
    emit(this.from, false);
    const [shortest, longest] = trips.seconds;
    for (let i = 0; i < this.count - 1; i++) {
      const slot = this.at(i);
      const n = slot / GRID_MS; // by absolute slot, so the history is a function of time, not of when the hub started
      if (noise(seed, n) >= trips.chance(slot)) continue;
      const seconds = shortest + (longest - shortest) * noise(seed ^ 0x68e31da4, n);
      const begin = slot + Math.floor(noise(seed ^ 0x1b873593, n) * (GRID_MS - seconds * 1000 - 1000));
      emit(begin, true);
      emit(begin + Math.round(seconds * 1000), false);
    }
    if (current) emit(this.at(this.count - 1), true);
  }
}
