import { describe, expect, it } from 'vitest';
import {
  appendLive,
  booleanBands,
  describePair,
  describeSeries,
  durationWords,
  firstPair,
  conditioningBands,
  conditioningOf,
  seriesCsv,
  seriesStats,
  type ShownSeries,
  sparklineLog,
} from '../../../../renderer/src/format/insights-series';

const MIN = 60_000;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;
const TEMPERATURE = { title: 'Temperature', type: 'number' as const, decimals: 1, units: '°C' };
const MOTION = { title: 'Motion', type: 'boolean' as const, decimals: null, units: null };

describe('min, max, average and last of a range', () => {
  it('leave gaps out of every figure', () => {
    expect(seriesStats([null, 18, 22, null, 20, null])).toEqual({ min: 18, max: 22, average: 20, last: 20, count: 3 });
  });

  it('are null when the range has no value at all', () => {
    expect(seriesStats([null, null])).toBeNull();
    expect(seriesStats([])).toBeNull();
  });
});

describe("a thermostat's heating, from its measured temperature and target", () => {
  const MEASURED = { ...TEMPERATURE, capabilityId: 'measure_temperature' };
  const TARGET = { ...TEMPERATURE, title: 'Target temperature', capabilityId: 'target_temperature' };

  it('is a band over each run of steps measured under the target, ending at the step after; a missing value ends it', () => {
    const times = [0, 1, 2, 3, 4, 5, 6].map(at);
    const measured = [20, 19, 19.5, 21, null, 18, 18];
    const target = [19, 20, 20, 21, 21, 21, 21];
    expect(conditioningBands(times, measured, target, at(8), 'heating')).toEqual([
      { from: at(1), to: at(3) },
      { from: at(5), to: at(8) },
    ]);
  });

  it('says how often and how long it heated, and each series last value', () => {
    const times = [0, 30, 60, 90].map(at);
    const data = [times, [19, 19.5, 21, 20.5], [21, 21, 21, 21]] as const;
    expect(describePair([MEASURED, TARGET], 'the last 24 hours', data)).toBe(
      'Temperature and Target temperature over the last 24 hours: Temperature last 20.5 °C; Target temperature last 21.0 °C. Heating 2 times, 1 h in all.',
    );
    expect(describePair([MEASURED, TARGET], 'the last hour', [times, [22, 22, 22, 22], [21, 21, 21, 21]])).toMatch(/ Not heating\.$/);
    // Any other pair: no heating words.
    expect(describePair([TARGET, MEASURED], 'the last hour', data)).not.toMatch(/heating/i);
  });

  it('a thermostat set to cool: a band over each run measured over the target, and cooling words', () => {
    const times = [0, 30, 60, 90].map(at);
    const measured = [23, 22.5, 21, 21.5];
    const target = [21, 21, 21, 21];
    expect(conditioningBands(times, measured, target, at(120), 'cooling')).toEqual([
      { from: at(0), to: at(60) },
      { from: at(90), to: at(120) },
    ]);
    expect(describePair([MEASURED, TARGET], 'the last 24 hours', [times, measured, target], 'cooling')).toMatch(/\. Cooling 2 times, 1 h in all\.$/);
    expect(describePair([MEASURED, TARGET], 'the last hour', [times, [20, 20, 20, 20], target], 'cooling')).toMatch(/ Not cooling\.$/);
    expect([conditioningOf('cool'), conditioningOf('heat'), conditioningOf('auto'), conditioningOf('off'), conditioningOf(undefined)]).toEqual([
      'cooling',
      'heating',
      'heating',
      'heating',
      'heating',
    ]);
  });

  it("opens on a thermostat's measured temperature and target, else on the first two logs", () => {
    const logs = ['thermostat_mode', 'target_temperature', 'measure_humidity', 'measure_temperature'].map((capabilityId) => ({ capabilityId }));
    expect(firstPair(logs)).toEqual([3, 1]);
    expect(firstPair(logs.slice(0, 3))).toEqual([0, 1]);
  });

  it('words a duration in hours and minutes', () => {
    expect([durationWords(20_000), durationWords(45 * MIN), durationWords(320 * MIN), durationWords(120 * MIN)]).toEqual([
      'under a minute',
      '45 min',
      '5 h 20 min',
      '2 h',
    ]);
  });
});

describe('a boolean log as on-bands', () => {
  it('makes one band per run of on, ending at the next point, and one still on at the end ends at `end`', () => {
    const times = [0, 1, 2, 3, 4, 5].map(at);
    expect(booleanBands(times, [0, 1, 1, 0, 1, 1], at(7))).toEqual([
      { from: at(1), to: at(3) },
      { from: at(4), to: at(7) },
    ]);
  });

  it('a gap ends a band; all off is no band', () => {
    expect(booleanBands([0, 1, 2].map(at), [1, null, 1], at(3))).toEqual([
      { from: at(0), to: at(1) },
      { from: at(2), to: at(3) },
    ]);
    expect(booleanBands([0, 1].map(at), [0, 0], at(2))).toEqual([]);
  });
});

describe('live values appended to a shown range', () => {
  const hour: ShownSeries = { times: [0, 10, 20, 30].map(at), values: [20, 21, 22, 23], windowMs: 60 * MIN };

  it('appends a newer value and drops what left the window at the front', () => {
    const next = appendLive(hour, at(75), 24);
    expect(next.times).toEqual([20, 30, 75].map(at));
    expect(next.values).toEqual([22, 23, 24]);
  });

  it('ignores a value not newer than the last point (the entries hold it already)', () => {
    expect(appendLive(hour, at(30), 99)).toBe(hour);
    expect(appendLive(hour, at(5), 99)).toBe(hour);
  });

  it('never holds more than its bound', () => {
    let series: ShownSeries = { times: [], values: [], windowMs: 1e12 };
    for (let i = 0; i < 50; i++) series = appendLive(series, at(i), i, 10);
    expect(series.times).toHaveLength(10);
    expect(series.values[0]).toBe(40);
    expect(series.values.at(-1)).toBe(49);
  });
});

describe('the text alternative of a chart', () => {
  it('names the range and its minimum, maximum, average and last value with units', () => {
    const series: ShownSeries = { times: [0, 1, 2].map(at), values: [18.24, 22.5, 20], windowMs: 60 * MIN };
    expect(describeSeries(TEMPERATURE, 'the last hour', series)).toBe(
      'Temperature over the last hour: minimum 18.2 °C, maximum 22.5 °C, average 20.2 °C, last 20.0 °C.',
    );
  });

  it('says how often a boolean was on and its last state, or that nothing was recorded', () => {
    const series: ShownSeries = { times: [0, 1, 2, 3].map(at), values: [1, 0, 1, 0], windowMs: 60 * MIN };
    expect(describeSeries(MOTION, 'the last 24 hours', series)).toBe('Motion over the last 24 hours: on 2 times; last off.');
    expect(describeSeries(MOTION, 'the last hour', { ...series, values: [null, null, null, null] })).toBe('Motion over the last hour: no values recorded.');
  });
});

describe('CSV of the shown data', () => {
  it('has one row per shown point, in order, with ISO times and the exact values (gaps empty)', () => {
    const csv = seriesCsv(TEMPERATURE, { times: [0, 1, 2].map(at), values: [18.25, null, 0.1 + 0.2] });
    expect(csv).toBe(`time,Temperature (°C)\r\n2026-03-01T10:00:00.000Z,18.25\r\n2026-03-01T10:01:00.000Z,\r\n2026-03-01T10:02:00.000Z,${0.1 + 0.2}\r\n`);
  });

  it('writes booleans as true/false, quotes a header with commas or quotes, and defuses one a spreadsheet would run', () => {
    expect(
      seriesCsv(MOTION, { times: [at(0), at(1)], values: [1, 0] })
        .split('\r\n')
        .slice(1, 3),
    ).toEqual(['2026-03-01T10:00:00.000Z,true', '2026-03-01T10:01:00.000Z,false']);
    expect(seriesCsv({ ...MOTION, title: 'Door "front", left' }, { times: [], values: [] })).toBe('time,"Door ""front"", left"\r\n');
    expect(seriesCsv({ ...MOTION, title: '=HYPERLINK("x")' }, { times: [], values: [] })).toBe(`time,"'=HYPERLINK(""x"")"\r\n`);
  });
});

describe("a card's sparkline", () => {
  const log = (capabilityId: string, type: 'number' | 'boolean' = 'number', aggregation: 'mean' | 'last' | 'any' = 'mean') => ({
    deviceId: 'd',
    capabilityId,
    title: capabilityId,
    type,
    units: null,
    decimals: null,
    aggregation,
  });
  const state = (id: string, setable: boolean) => ({ id, type: 'number' as const, title: id, value: 1, getable: true, setable, lastUpdated: null });

  it("shows the device's first measured reading in the device's order: not a setting, a meter or a boolean", () => {
    const device = {
      capabilities: ['onoff', 'target_temperature', 'meter_power', 'measure_power', 'measure_temperature'],
      capabilitiesObj: {
        target_temperature: state('target_temperature', true),
        measure_power: state('measure_power', false),
        meter_power: state('meter_power', false),
      },
    };
    const logs = [
      log('measure_temperature'),
      log('onoff', 'boolean', 'any'),
      log('target_temperature'),
      log('meter_power', 'number', 'last'),
      log('measure_power'),
    ];
    expect(sparklineLog(logs, device)?.capabilityId).toBe('measure_power');
    expect(sparklineLog([log('onoff', 'boolean', 'any')], device)).toBeUndefined();
  });
});
