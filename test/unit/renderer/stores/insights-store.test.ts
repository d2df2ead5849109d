import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { InsightsLogView, InsightsSeries } from '../../../../common/ipc-contract';
import type { Device } from '../../../../common/wire';
import type { OpenHubState } from '../../../../renderer/src/stores/open-hub-store';
import { createInsightsStore, logsOf, MAX_SERIES, SERIES_FRESH_MS, seriesKey } from '../../../../renderer/src/stores/insights-store';
import { fakeBridge, flush, ok } from '../fake-bridge';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MIN = 60_000;
const TEMPERATURE: InsightsLogView = {
  deviceId: 'thermo',
  capabilityId: 'measure_temperature',
  title: 'Temperature',
  type: 'number',
  units: '°C',
  decimals: 1,
  aggregation: 'mean',
};

const series = (deviceId = 'thermo', resolution: InsightsSeries['resolution'] = 'lastHour'): InsightsSeries => ({
  hubId: 'h1',
  deviceId,
  capabilityId: 'measure_temperature',
  resolution,
  start: T0 - 60 * MIN,
  end: T0,
  step: MIN,
  times: [T0 - 2 * MIN, T0 - MIN],
  values: [20, 21],
});

const thermostat = (value: number, lastUpdated: string): Device => ({
  id: 'thermo',
  name: 'Thermostat',
  class: 'sensor',
  capabilities: ['measure_temperature'],
  capabilitiesObj: {
    measure_temperature: { id: 'measure_temperature', type: 'number', title: 'Temperature', value, getable: true, setable: false, lastUpdated },
  },
});

function setup() {
  const fake = fakeBridge();
  const openHub = createStore<Pick<OpenHubState, 'hubId' | 'devices'>>()(() => ({ hubId: null, devices: {} }));
  let clock = T0;
  const insights = createInsightsStore(fake.bridge, openHub as never, () => clock);
  return { fake, openHub, insights, advance: (ms: number) => (clock += ms) };
}

describe('the insights store', () => {
  it("reads the open hub's logs by device, and shows why there are none when the hub refuses or keeps none", async () => {
    const { fake, openHub, insights } = setup();
    openHub.setState({ hubId: 'h1' });
    expect(insights.getState().logs.status).toBe('loading');
    fake.waiting('insights.logs')[0]!.resolve(ok({ status: 'available', hubId: 'h1', logs: [TEMPERATURE] }));
    await flush();
    expect(logsOf(insights.getState(), 'thermo')).toEqual([TEMPERATURE]);
    expect(logsOf(insights.getState(), 'other')).toBe(logsOf(insights.getState(), 'another')); // one empty array: a stable selection

    openHub.setState({ hubId: 'h2' });
    fake.waiting('insights.logs')[0]!.resolve(ok({ status: 'unavailable', hubId: 'h2', reason: 'Hubdesk was not granted access to the history of Home.' }));
    await flush();
    expect(insights.getState().logs).toEqual({ status: 'unavailable', reason: 'Hubdesk was not granted access to the history of Home.' });
  });

  it('reads a series once while fresh, again when stale, and each range on its own', async () => {
    const { fake, openHub, insights, advance } = setup();
    openHub.setState({ hubId: 'h1' });
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    insights.getState().load('thermo', 'measure_temperature', 'lastHour'); // in flight: not asked twice
    expect(fake.argsOf('insights.series')).toEqual([['h1', { deviceId: 'thermo', capabilityId: 'measure_temperature', resolution: 'lastHour' }]]);
    fake.waiting('insights.series')[0]!.resolve(ok(series()));
    await flush();
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    expect(fake.argsOf('insights.series')).toHaveLength(1);
    insights.getState().load('thermo', 'measure_temperature', 'last7Days');
    expect(fake.argsOf('insights.series').at(-1)).toEqual(['h1', { deviceId: 'thermo', capabilityId: 'measure_temperature', resolution: 'last7Days' }]);
    advance(SERIES_FRESH_MS);
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    expect(fake.argsOf('insights.series')).toHaveLength(3);
    expect(insights.getState().series[seriesKey('thermo', 'measure_temperature', 'lastHour')]?.status).toBe('loaded'); // still shown while read again
  });

  it("appends the open hub's live values to the shown series", async () => {
    const { fake, openHub, insights } = setup();
    openHub.setState({ hubId: 'h1', devices: { thermo: thermostat(21, new Date(T0 - MIN).toISOString()) } });
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    fake.waiting('insights.series')[0]!.resolve(ok(series()));
    await flush();
    openHub.setState({ devices: { thermo: thermostat(22.5, new Date(T0 + 30_000).toISOString()) } });
    const shown = insights.getState().series[seriesKey('thermo', 'measure_temperature', 'lastHour')];
    expect(shown?.status === 'loaded' && [shown.series.times, shown.series.values]).toEqual([
      [T0 - 2 * MIN, T0 - MIN, T0 + 30_000],
      [20, 21, 22.5],
    ]);
  });

  it('drops answers for a hub no longer open, and keeps at most MAX_SERIES series', async () => {
    const { fake, openHub, insights } = setup();
    openHub.setState({ hubId: 'h1' });
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    openHub.setState({ hubId: 'h2' });
    fake.waiting('insights.series')[0]!.resolve(ok(series()));
    await flush();
    expect(insights.getState().series).toEqual({});

    for (let i = 0; i < MAX_SERIES + 5; i++) insights.getState().load(`d${i}`, 'measure_temperature', 'lastHour');
    const keys = Object.keys(insights.getState().series);
    expect(keys).toHaveLength(MAX_SERIES);
    expect(keys.at(-1)).toBe(seriesKey(`d${MAX_SERIES + 4}`, 'measure_temperature', 'lastHour'));
  });

  it('reload (the link came back) reads every kept series again, still showing each, and logs that had failed', async () => {
    const { fake, openHub, insights } = setup();
    openHub.setState({ hubId: 'h1' });
    fake.waiting('insights.logs')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'Home did not answer.' } });
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    insights.getState().load('thermo', 'measure_temperature', 'last7Days');
    fake.waiting('insights.series')[0]!.resolve(ok(series()));
    fake.waiting('insights.series')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'Home did not answer.' } });
    await flush();
    const asked = fake.argsOf('insights.series').length;

    insights.getState().reload();
    expect(fake.argsOf('insights.logs')).toHaveLength(2);
    expect(fake.argsOf('insights.series').slice(asked)).toEqual([
      ['h1', { deviceId: 'thermo', capabilityId: 'measure_temperature', resolution: 'lastHour' }],
      ['h1', { deviceId: 'thermo', capabilityId: 'measure_temperature', resolution: 'last7Days' }],
    ]);
    // Fresh or not, each is read again; the one shown stays shown until its answer arrives.
    expect(insights.getState().series[seriesKey('thermo', 'measure_temperature', 'lastHour')]?.status).toBe('loaded');
    expect(insights.getState().series[seriesKey('thermo', 'measure_temperature', 'last7Days')]?.status).toBe('loading');
    fake.waiting('insights.series')[0]!.resolve(ok({ ...series(), values: [30, 31] }));
    await flush();
    const shown = insights.getState().series[seriesKey('thermo', 'measure_temperature', 'lastHour')];
    expect(shown?.status === 'loaded' && shown.series.values).toEqual([30, 31]);
  });

  it('a failed read is shown as its error', async () => {
    const { fake, openHub, insights } = setup();
    openHub.setState({ hubId: 'h1' });
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    fake.waiting('insights.series')[0]!.resolve({ ok: false, error: { code: 'forbidden', message: 'Not granted.' } });
    await flush();
    expect(insights.getState().series[seriesKey('thermo', 'measure_temperature', 'lastHour')]).toEqual({
      status: 'error',
      error: { code: 'forbidden', message: 'Not granted.' },
    });
  });

  it('a shown series stays, points and all, while a re-read fails, and is read again when next asked for', async () => {
    const { fake, openHub, insights, advance } = setup();
    const key = seriesKey('thermo', 'measure_temperature', 'lastHour');
    openHub.setState({ hubId: 'h1' });
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    fake.waiting('insights.series')[0]!.resolve(ok(series()));
    await flush();
    const shown = insights.getState().series[key];
    expect(shown).toMatchObject({ status: 'loaded' });

    advance(SERIES_FRESH_MS);
    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    expect(insights.getState().series[key]).toBe(shown); // shown while read again
    fake.waiting('insights.series')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'Home did not answer.' } });
    await flush();
    expect(insights.getState().series[key]).toBe(shown);

    insights.getState().load('thermo', 'measure_temperature', 'lastHour');
    expect(fake.waiting('insights.series')).toHaveLength(1);
  });
});
