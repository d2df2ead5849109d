/**
 * The recorder over a demo home on a fake clock: the backfilled history (deterministic, believable,
 * joined to the live value, made only when needed), live changes, logs of added and removed devices,
 * and which owner URI and id name a log.
 */
import { describe, expect, it } from 'vitest';
import { deviceLogId, deviceLogUri, InsightsEntriesSchema, InsightsLogMapSchema, type InsightsResolution } from '../../../../../common/insights';
import { createDemoHome } from '../../../../../services/hub/demo-home';
import { createInsightsRecorder } from '../../../../../services/hub/insights/recorder';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2025-01-15T12:34:56Z');

function setup(devices?: number, start = NOW) {
  let time = start;
  const clock = () => time;
  const home = createDemoHome('home', { now: clock, devices });
  const recorder = createInsightsRecorder(home, { now: clock });
  const idOf = (name: string) => Object.values(home.devices()).find((device) => device.name === name)!.id;
  const read = (name: string, capabilityId: string, resolution: InsightsResolution) => {
    const entries = recorder.entries(deviceLogUri(idOf(name)), capabilityId, resolution)!;
    return InsightsEntriesSchema.parse({ ...entries.head, values: entries.slice(0, entries.count) });
  };
  return { home, recorder, idOf, read, advance: (ms: number) => (time += ms) };
}

const hourOf = (iso: string) => new Date(iso).getUTCHours();
const numbers = (values: { t: string; v: unknown }[], keep: (hour: number) => boolean) =>
  values.filter(({ t, v }) => typeof v === 'number' && keep(hourOf(t))).map(({ v }) => v as number);
const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;

describe('the insights recorder', () => {
  it('lists a log for every numeric and boolean capability, none for enums, with the current value', () => {
    const { home, recorder, idOf } = setup();
    const logs = InsightsLogMapSchema.parse(recorder.logs());
    const thermostat = idOf('Living room thermostat');
    expect(logs[deviceLogId(thermostat, 'measure_temperature')]).toEqual({
      id: deviceLogId(thermostat, 'measure_temperature'),
      ownerUri: deviceLogUri(thermostat),
      ownerId: thermostat,
      ownerName: 'Living room thermostat',
      title: 'Temperature',
      type: 'number',
      units: '°C',
      decimals: 1,
      titleTrue: null,
      titleFalse: null,
      lastValue: 20.6,
    });
    expect(logs[deviceLogId(thermostat, 'thermostat_mode')]).toBeUndefined();
    const expected = Object.values(home.devices()).flatMap((device) =>
      Object.values(device.capabilitiesObj ?? {}).filter((c) => c.type === 'number' || c.type === 'boolean'),
    );
    expect(Object.keys(logs)).toHaveLength(expected.length);
  });

  it('makes no buffers at start: a log is made on its first read or change', () => {
    const { recorder, read, home, idOf } = setup();
    expect(recorder.stats()).toMatchObject({ materialised: 0, bytes: 0 });
    read('Bedroom thermostat', 'measure_temperature', 'lastHour');
    home.setCapability(idOf('Floor lamp'), 'dim', 0.25, 'test');
    expect(recorder.stats().materialised).toBe(2);
    expect(recorder.stats().bytes).toBeGreaterThan(0);
  });

  it('answers one entry per step of the window, oldest first, the last one the current step', () => {
    const { read } = setup();
    for (const [resolution, count, step] of [
      ['lastHour', 60, 60_000],
      ['last24Hours', 288, 300_000],
      ['lastYear', 8760, HOUR],
    ] as const) {
      const entries = read('Bathroom climate sensor', 'measure_humidity', resolution);
      expect(entries.values).toHaveLength(count);
      expect(entries.step).toBe(step);
      expect(entries.start).toBe(entries.values[0]!.t);
      expect(Date.parse(entries.values.at(-1)!.t)).toBe(Math.floor(NOW / step) * step);
      expect(entries.end).toBe(new Date(NOW).toISOString());
      expect(entries.values.every(({ v }) => typeof v === 'number')).toBe(true);
    }
  });

  it('gives the same history for the same start, and it is a function of time, not of when the hub started', () => {
    const a = setup().read('Kitchen motion sensor', 'alarm_motion', 'last7Days');
    const b = setup().read('Kitchen motion sensor', 'alarm_motion', 'last7Days');
    expect(a).toEqual(b);
    expect(a.values.filter(({ v }) => v === true).length).toBeGreaterThan(50);
    // A hub started a day later has the same past, but for the last hours before each start (the join).
    const later = setup(undefined, NOW + DAY);
    for (const [name, capabilityId] of [
      ['Kitchen motion sensor', 'alarm_motion'],
      ['Bedroom thermostat', 'measure_temperature'],
      ['EV charger', 'measure_power'],
    ] as const) {
      const mine = new Map(
        setup()
          .read(name, capabilityId, 'last7Days')
          .values.map(({ t, v }) => [t, v]),
      );
      const theirs = later.read(name, capabilityId, 'last7Days').values.filter(({ t }) => Date.parse(t) < NOW - 3 * HOUR);
      expect(theirs.length).toBeGreaterThan(1500);
      for (const { t, v } of theirs) expect(mine.get(t)).toBe(v);
    }
  });

  it('backfills thermostats following day and night: the bedroom is warmer by day than at night', () => {
    const { read } = setup();
    const week = read('Bedroom thermostat', 'measure_temperature', 'last7Days').values;
    expect(mean(numbers(week, (hour) => hour >= 12 && hour < 18)) - mean(numbers(week, (hour) => hour >= 1 && hour < 5))).toBeGreaterThan(1.5);
    const target = read('Bedroom thermostat', 'target_temperature', 'last7Days').values;
    expect(new Set(numbers(target, () => true)).size).toBe(2); // the day and the night setting
  });

  it('backfills meters that never decrease and add up exactly the power drawn', () => {
    const { read } = setup();
    const meter = read('EV charger', 'meter_power', 'last31Days').values.map(({ v }) => v as number | null);
    const power = read('EV charger', 'measure_power', 'last31Days').values.map(({ v }) => v as number);
    const known = meter.filter((v): v is number => v !== null);
    expect(known.length).toBeGreaterThan(700);
    for (let i = 1; i < known.length; i++) expect(known[i]!).toBeGreaterThanOrEqual(known[i - 1]!);
    // Between the ends of two hours, the meter grows by that hour's mean power × 1 h (kWh), to its rounding.
    const first = meter.findIndex((v) => v !== null);
    const used = meter.at(-2)! - meter[first]!;
    const drawn = power.slice(first + 1, -1).reduce((sum, watts) => sum + watts / 1000, 0);
    expect(used).toBeGreaterThan(100);
    expect(Math.abs(used - drawn)).toBeLessThan(0.02 * drawn);
  });

  it('backfills lights on in the evening, motion by day, and batteries that drain', () => {
    const { read } = setup();
    const light = read('Ceiling light', 'onoff', 'last31Days').values;
    const at = (hour: number) => light.filter(({ t, v }) => hourOf(t) === hour && v === true).length;
    expect(at(20)).toBeGreaterThan(25);
    expect(at(3)).toBe(0);
    const motion = read('Kitchen motion sensor', 'alarm_motion', 'last31Days').values;
    const trips = (hour: number) => motion.filter(({ t, v }) => hourOf(t) === hour && v === true).length;
    expect(trips(19)).toBeGreaterThan(3 * trips(3));
    const battery = numbers(read('Kitchen motion sensor', 'measure_battery', 'last31Days').values, () => true);
    expect(battery[0]!).toBeGreaterThan(battery.at(-1)!);
  });

  it('joins the backfill to the live value', () => {
    const { read, home, idOf } = setup();
    // Readings are blended into the current value: no jump in the last hour.
    for (const [name, capabilityId] of [
      ['Living room thermostat', 'measure_temperature'],
      ['Bathroom climate sensor', 'measure_humidity'],
      ['Office air quality', 'measure_co2'],
    ] as const) {
      const current = home.device(idOf(name))!.capabilitiesObj![capabilityId]!.value as number;
      const values = read(name, capabilityId, 'lastHour').values.map(({ v }) => v as number);
      expect(values.at(-1)).toBe(current);
      for (let i = 1; i < values.length; i++) expect(Math.abs(values[i]! - values[i - 1]!)).toBeLessThan(Math.max(1.5, 0.1 * Math.abs(current)));
    }
    // A switched device's last backfilled state is its current one (the TV is on at start, at 12:34, outside its evening).
    const tv = read('TV socket', 'onoff', 'lastHour').values;
    expect(tv.at(-1)!.v).toBe(true);
    expect(read('TV socket', 'measure_power', 'lastHour').values.at(-1)!.v).toBe(87.5);
  });

  it('backfills nothing for generated devices: null before the hub started', () => {
    const { read, advance } = setup(40);
    advance(10 * 60_000);
    const values = read('Climate sensor 3', 'measure_temperature', 'lastHour').values;
    expect(values.slice(0, 49).every(({ v }) => v === null)).toBe(true);
    expect(values.slice(-10).every(({ v }) => typeof v === 'number')).toBe(true);
  });

  it('records live changes from then on, as they happen', () => {
    const { read, home, idOf, advance } = setup();
    advance(2 * 60_000);
    home.setCapability(idOf('Floor lamp'), 'onoff', true, 'test');
    advance(30_000);
    home.setCapability(idOf('Floor lamp'), 'onoff', false, null);
    advance(2 * 60_000);
    const onoff = read('Floor lamp', 'onoff', 'lastHour');
    // 12:36:56 on, 12:37:26 off: true in both minutes it touched.
    expect(onoff.values.slice(-5).map(({ v }) => v)).toEqual([false, true, true, false, false]);
    expect(onoff.lastValue).toBe(false);
    home.setCapability(idOf('Floor lamp'), 'dim', 0.9, 'test'); // at 12:39:26, from 0.5
    advance(20_000);
    const dim = read('Floor lamp', 'dim', 'lastHour');
    expect(dim.lastValue).toBe(0.9);
    expect(dim.values.at(-1)!.v).toBeCloseTo((0.5 * 26 + 0.9 * 20) / 46, 3); // the minute so far, time-weighted
  });

  it('adds the logs of an added device (history from then) and drops those of a removed one', () => {
    const { recorder, home, read } = setup();
    const added = home.addDevice({ key: 'new-plug', name: 'New plug', class: 'socket', zone: 'living', values: { onoff: true, measure_power: 12 } });
    expect(recorder.logs()[deviceLogId(added.id, 'measure_power')]?.lastValue).toBe(12);
    expect(read('New plug', 'measure_power', 'lastHour').values.filter(({ v }) => v !== null)).toHaveLength(1);
    home.removeDevice(added.id);
    expect(recorder.entries(deviceLogUri(added.id), 'measure_power', 'lastHour')).toBeUndefined();
    expect(recorder.logs()[deviceLogId(added.id, 'measure_power')]).toBeUndefined();
  });

  it('answers undefined for an unknown device, capability or a non-logged one', () => {
    const { recorder, idOf } = setup();
    const lamp = idOf('Floor lamp');
    expect(recorder.entries(deviceLogUri('nope'), 'onoff', 'lastHour')).toBeUndefined();
    expect(recorder.entries(deviceLogUri(lamp), 'volume_set', 'lastHour')).toBeUndefined();
    expect(recorder.entries(deviceLogUri(idOf('Living room thermostat')), 'thermostat_mode', 'lastHour')).toBeUndefined();
  });
});

describe('a day later', () => {
  it('keeps the history of a hub that has been running (not re-made)', () => {
    const { read, advance } = setup();
    const before = read('Office air quality', 'measure_co2', 'last7Days').values;
    advance(DAY);
    const after = read('Office air quality', 'measure_co2', 'last7Days').values;
    expect(after.slice(0, -288 - 1)).toEqual(before.slice(288, -1));
  });
});
