import { describe, expect, it } from 'vitest';
import type { InsightsLogView, InsightsSeries } from '../../../../common/ipc-contract';
import { createEnergyStore } from '../../../../renderer/src/stores/energy-store';
import { fakeBridge, flush, ok } from '../fake-bridge';

const meterLog = (deviceId: string, deviceName?: string): InsightsLogView => ({
  deviceId,
  ...(deviceName && { deviceName }),
  capabilityId: 'meter_power',
  title: 'Energy',
  type: 'number',
  units: 'kWh',
  decimals: 2,
  aggregation: 'last',
});
const TEMPERATURE: InsightsLogView = {
  deviceId: 't',
  capabilityId: 'measure_temperature',
  title: 'Temperature',
  type: 'number',
  units: '°C',
  decimals: 1,
  aggregation: 'mean',
};
const series = (hubId: string, deviceId: string, values: number[]): InsightsSeries => ({
  hubId,
  deviceId,
  capabilityId: 'meter_power',
  resolution: 'last14Days',
  start: 0,
  end: 0,
  step: 3_600_000,
  times: values.map((_, i) => i * 3_600_000),
  values,
});

describe('the energy store', () => {
  it("reads each hub's meters (and nothing else) over the period's resolution", async () => {
    const fake = fakeBridge();
    const energy = createEnergyStore(fake.bridge);
    energy.getState().load(['h1', 'h2'], 'last14Days');
    expect(energy.getState().hubs).toEqual({ h1: { status: 'loading' }, h2: { status: 'loading' } });
    fake.waiting('insights.logs')[0]!.resolve(ok({ status: 'available', hubId: 'h1', logs: [meterLog('fridge', 'Fridge'), TEMPERATURE] }));
    fake.waiting('insights.logs')[0]!.resolve(ok({ status: 'unavailable', hubId: 'h2', reason: 'Cabin keeps no history of its devices.' }));
    await flush();
    expect(fake.argsOf('insights.series')).toEqual([['h1', { deviceId: 'fridge', capabilityId: 'meter_power', resolution: 'last14Days' }]]);
    fake.waiting('insights.series')[0]!.resolve(ok(series('h1', 'fridge', [1, 2])));
    await flush();
    expect(energy.getState().hubs).toEqual({
      h1: {
        status: 'loaded',
        resolution: 'last14Days',
        meters: [{ deviceId: 'fridge', deviceName: 'Fridge', units: 'kWh', times: [0, 3_600_000], values: [1, 2] }],
      },
      h2: { status: 'unavailable', reason: 'Cabin keeps no history of its devices.' },
    });
  });

  it("keeps a hub's readings shown while the same period is read again, never another period's, and drops answers of an older load", async () => {
    const fake = fakeBridge();
    const energy = createEnergyStore(fake.bridge);
    energy.getState().load(['h1'], 'last3Days');
    fake.waiting('insights.logs')[0]!.resolve(ok({ status: 'available', hubId: 'h1', logs: [meterLog('fridge')] }));
    await flush();
    fake.waiting('insights.series')[0]!.resolve(ok(series('h1', 'fridge', [5])));
    await flush();
    const first = energy.getState().hubs.h1;
    expect(first?.status).toBe('loaded');

    energy.getState().load(['h1'], 'last3Days'); // read again (the view refreshes)
    expect(energy.getState().hubs.h1).toBe(first);
    energy.getState().load(['h1'], 'last14Days'); // another period: three days of readings are not its figures
    expect(energy.getState().hubs.h1).toEqual({ status: 'loading' });
    energy.getState().load(['h1'], 'last3Months'); // the period changed again before the first answer
    for (const call of fake.waiting('insights.logs')) call.resolve(ok({ status: 'available', hubId: 'h1', logs: [meterLog('fridge')] }));
    await flush();
    const answers = fake.waiting('insights.series');
    answers.at(-1)!.resolve(ok(series('h1', 'fridge', [7])));
    await flush();
    for (const stale of answers.slice(0, -1)) stale.resolve(ok(series('h1', 'fridge', [6])));
    await flush();
    expect(energy.getState().hubs.h1).toMatchObject({ status: 'loaded', resolution: 'last3Months', meters: [{ values: [7] }] });
  });

  it('says a failed read as an error of that hub alone', async () => {
    const fake = fakeBridge();
    const energy = createEnergyStore(fake.bridge);
    energy.getState().load(['h1', 'h2'], 'last3Days');
    fake.waiting('insights.logs')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'Home is not answering.' } });
    fake.waiting('insights.logs')[0]!.resolve(ok({ status: 'available', hubId: 'h2', logs: [] }));
    await flush();
    expect(energy.getState().hubs).toEqual({
      h1: { status: 'error', error: { code: 'hub-unreachable', message: 'Home is not answering.' } },
      h2: { status: 'loaded', resolution: 'last3Days', meters: [] },
    });
  });
});
