/**
 * How each device of the demo homes lived over the last year, for the backfilled history: when it
 * was in use (lights in the evening, the TV at night, the EV charging after midnight), how much it
 * drew then, when its sensors tripped, and the shape of its readings over the day. Keyed by the
 * seed keys of services/hub/demo-home.ts; a device with no entry here (a generated or added one) has
 * no backfill. A capability a profile says nothing about keeps its current value all year (a dim
 * level, a volume).
 */
import { DAY, drift, hourOfDay, isWeekend, type Schedule, summer } from './signals';
import type { DemoHomeKind } from '../demo-home';

/** A reading as a function of time and a per-log seed, before it is joined to the current value. */
export type Wave = (time: number, seed: number) => number;

/** How often a sensor trips in a five-minute slot at a time, and how long it stays tripped. */
export interface Trips {
  chance: (time: number) => number;
  seconds: readonly [number, number];
}

export interface DeviceProfile {
  /** When it is on: drives `onoff` and, through `drawW`, `measure_power` and `meter_power`. */
  use?: Schedule;
  /** Its draw in W while in use, when its current value cannot say (it is off now). */
  drawW?: number;
  /** Thermostat: the hours its day setting holds, and how much lower the night setting is. */
  heating?: { dayFrom: number; dayTo: number; setbackC: number };
  /** Other readings by capability. */
  waves?: Partial<Record<'measure_temperature' | 'measure_humidity' | 'measure_co2' | 'measure_luminance', Wave>>;
  /** Boolean sensors by capability. */
  trips?: Partial<Record<'alarm_motion' | 'alarm_contact' | 'alarm_generic', Trips>>;
  /** A boolean that is true except while in use (a lock, a garage door), by capability. */
  closedExcept?: { capabilityId: 'locked' | 'garagedoor_closed'; open: Schedule };
}

const bump = (hour: number, from: number, to: number) => (hour >= from && hour < to ? Math.min(1, (hour - from) * 2, (to - hour) * 2) : 0);
const daylight = (time: number) => {
  const length = 8 + 8 * summer(time);
  const sunrise = 12 - length / 2;
  const hour = hourOfDay(time);
  return hour > sunrise && hour < sunrise + length ? Math.sin((Math.PI * (hour - sunrise)) / length) : 0;
};
const byHour = (table: readonly [number, number, number][], otherwise: number) => (time: number) => {
  const hour = hourOfDay(time);
  return table.find(([from, to]) => hour >= from && hour < to)?.[2] ?? otherwise;
};
const workday = (time: number) => (isWeekend(time) ? 0 : bump(hourOfDay(time), 8.5, 17.5));

const showers = (time: number) => bump(hourOfDay(time), 7, 7.75) + bump(hourOfDay(time), 21, 21.5);

export const DEMO_PROFILES: Record<DemoHomeKind, Record<string, DeviceProfile>> = {
  home: {
    'living-ceiling': { use: { intervals: [[17.5, 23]], jitterMin: 45 } },
    'living-floor-lamp': { use: { intervals: [[19, 23.5]], jitterMin: 30, chance: 0.6 } },
    'living-tv-socket': { use: { intervals: [[18.5, 23]], jitterMin: 40, chance: 0.85 } },
    'living-thermostat': { heating: { dayFrom: 6.5, dayTo: 22.5, setbackC: 3 } },
    'living-speaker': {},
    'living-blinds': {},
    'kitchen-spots': {
      use: {
        intervals: [
          [6.5, 7.75],
          [17.5, 21],
        ],
        jitterMin: 20,
      },
    },
    'kitchen-coffee': {
      use: {
        intervals: [
          [6.75, 6.917],
          [13, 13.083],
        ],
        jitterMin: 15,
        chance: 0.9,
      },
      drawW: 1450,
    },
    'kitchen-motion': {
      trips: {
        alarm_motion: {
          chance: byHour(
            [
              [6, 9, 0.5],
              [11.5, 14, 0.3],
              [17, 22.5, 0.6],
              [0, 6, 0.01],
              [22.5, 24, 0.05],
            ],
            0.12,
          ),
          seconds: [45, 200],
        },
      },
      waves: { measure_luminance: (time, seed) => 20 + 600 * daylight(time) * (0.6 + 0.4 * drift(seed, time, DAY)) },
    },
    'kitchen-smoke': {},
    'kitchen-leak': {},
    'hallway-lock': {
      closedExcept: {
        capabilityId: 'locked',
        open: {
          intervals: [
            [7.917, 8],
            [17.5, 17.667],
          ],
          jitterMin: 20,
        },
      },
    },
    'hallway-doorbell': { trips: { alarm_generic: { chance: byHour([[10, 19, 0.012]], 0), seconds: [4, 12] } } },
    'hallway-light': {
      use: {
        intervals: [
          [6.75, 7.25],
          [18, 23],
        ],
        jitterMin: 30,
        chance: 0.8,
      },
    },
    'hallway-door-sensor': {
      trips: {
        alarm_contact: {
          chance: byHour(
            [
              [7, 9, 0.15],
              [16, 20, 0.12],
              [0, 6, 0.002],
              [22, 24, 0.01],
            ],
            0.04,
          ),
          seconds: [15, 110],
        },
      },
    },
    'bedroom-bedside': {
      use: {
        intervals: [
          [22, 23.25],
          [6.5, 7],
        ],
        jitterMin: 25,
        chance: 0.9,
      },
    },
    'bedroom-thermostat': { heating: { dayFrom: 7, dayTo: 21.5, setbackC: 3 } },
    'bedroom-fan': {},
    'bedroom-curtains': {},
    'bathroom-climate': {
      waves: {
        measure_temperature: (time, seed) => 21.2 + 1.4 * showers(time) + 0.8 * drift(seed, time, 6 * 3_600_000),
        measure_humidity: (time, seed) => 52 + 30 * showers(time) + 8 * drift(seed, time, DAY),
      },
    },
    'bathroom-towel-rail': {
      use: {
        intervals: [
          [6, 9],
          [18, 22],
        ],
        jitterMin: 15,
      },
    },
    'office-desk-lamp': { use: { intervals: [[8.5, 17]], jitterMin: 30, days: 'weekdays' } },
    'office-air': {
      waves: {
        measure_co2: (time, seed) => 430 + 650 * workday(time) + 60 * drift(seed, time, 2 * 3_600_000),
        measure_temperature: (time, seed) => 19.8 + 1.6 * workday(time) + 0.6 * drift(seed, time, 6 * 3_600_000),
        measure_humidity: (time, seed) => 38 + 10 * summer(time) + 6 * drift(seed, time, DAY),
      },
    },
    'office-printer': {
      use: {
        intervals: [
          [9, 9.25],
          [14, 14.167],
        ],
        jitterMin: 30,
        chance: 0.4,
        days: 'weekdays',
      },
      drawW: 22,
    },
    'garden-lights': { use: { intervals: [[19, 24]], jitterMin: 30 } },
    'garden-sprinkler': {},
    'garage-door': {
      closedExcept: {
        capabilityId: 'garagedoor_closed',
        open: {
          intervals: [
            [7.667, 7.75],
            [17.583, 17.667],
          ],
          jitterMin: 20,
          days: 'weekdays',
        },
      },
    },
    'garage-charger': { use: { intervals: [[0.5, 4.5]], jitterMin: 30, chance: 0.45 } },
  },
  cabin: {
    'main-lights': { use: { intervals: [[17, 23]], jitterMin: 45, days: 'weekends', chance: 0.5 } },
    'main-heater': { heating: { dayFrom: 0, dayTo: 24, setbackC: 0 } },
    'main-water-heater': { use: { intervals: [[17, 19]], jitterMin: 30, days: 'weekends', chance: 0.3 }, drawW: 2000 },
    'main-smoke': {},
    'main-door-lock': { closedExcept: { capabilityId: 'locked', open: { intervals: [[10, 10.083]], jitterMin: 60, days: 'weekends', chance: 0.5 } } },
    'loft-lamp': { use: { intervals: [[22, 23]], jitterMin: 30, days: 'weekends', chance: 0.5 } },
    'outside-porch': { use: { intervals: [[18, 23]], jitterMin: 30, days: 'weekends', chance: 0.5 } },
    'outside-weather': {
      waves: {
        measure_temperature: (time, seed) =>
          -4 + 20 * summer(time) + 3 * Math.sin((2 * Math.PI * (hourOfDay(time) - 9)) / 24) + 6 * (drift(seed, time, 2 * DAY) - 0.5),
        measure_humidity: (time, seed) => 85 - 15 * summer(time) - 10 * daylight(time) + 8 * drift(seed, time, DAY),
      },
    },
  },
};
