/**
 * The energy view's readings (docs/insights-app.md, "Energy"): for every hub of the user, which of its
 * devices keep a meter's history (`meter_power`), and those meters' series over the resolution that
 * covers the chosen period and the one before it (format/energy-periods.ts). Each hub is read on its
 * own, so one hub that keeps no history, may not be read or does not answer costs the others nothing;
 * a hub's readings stay shown while they are read again. Answers of an earlier `load` are dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, InsightsResolution } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';

export const METER_CAPABILITY = 'meter_power';

export interface MeterSeries {
  deviceId: string;
  /** The device's name as the hub's log names it (null when it does not). */
  deviceName: string | null;
  units: string;
  times: readonly number[];
  values: readonly (number | null)[];
}

export type HubEnergyState =
  | { status: 'loading' }
  | { status: 'loaded'; resolution: InsightsResolution; meters: readonly MeterSeries[] }
  | { status: 'unavailable'; reason: string }
  | { status: 'error'; error: UiError };

export interface EnergyState {
  /** By hub id, for the hubs last asked for. */
  hubs: Readonly<Record<string, HubEnergyState>>;
  /** Reads every hub's meters over `resolution`; hubs not in `hubIds` are forgotten. */
  load(hubIds: readonly string[], resolution: InsightsResolution): void;
}

export type EnergyStore = StoreApi<EnergyState>;

export function createEnergyStore(bridge: Pick<Bridge, 'insights'>): EnergyStore {
  let generation = 0;
  const store = createStore<EnergyState>()((set, get) => ({
    hubs: {},
    load(hubIds, resolution) {
      const started = ++generation;
      const hubs: Record<string, HubEnergyState> = {};
      for (const hubId of hubIds) {
        const known = get().hubs[hubId];
        // Shown while the same resolution is read again; another resolution's readings summarised as this
        // period's would show wrong totals (a week's figure from three days of readings) until the answer.
        hubs[hubId] = known?.status === 'loaded' && known.resolution === resolution ? known : { status: 'loading' };
      }
      set({ hubs });
      const settleHub = (hubId: string, state: HubEnergyState) => {
        if (started !== generation) return;
        set({ hubs: { ...get().hubs, [hubId]: state } });
      };
      for (const hubId of hubIds) void readHub(hubId, resolution).then((state) => settleHub(hubId, state));
    },
  }));

  const readHub = async (hubId: string, resolution: InsightsResolution): Promise<HubEnergyState> => {
    const logs = await settle(() => bridge.insights.logs(hubId));
    if (!logs.ok) return { status: 'error', error: logs.error };
    if (logs.value.status === 'unavailable') return { status: 'unavailable', reason: logs.value.reason };
    const meterLogs = logs.value.logs.filter((log) => log.capabilityId === METER_CAPABILITY);
    const answers = await Promise.all(
      meterLogs.map((log) => settle(() => bridge.insights.series(hubId, { deviceId: log.deviceId, capabilityId: METER_CAPABILITY, resolution }))),
    );
    const failed = answers.find((answer) => !answer.ok);
    if (failed && !failed.ok) return { status: 'error', error: failed.error };
    const meters = meterLogs.map((log, i): MeterSeries => {
      const answer = answers[i]!;
      const series = answer.ok ? answer.value : { times: [], values: [] };
      return { deviceId: log.deviceId, deviceName: log.deviceName ?? null, units: log.units ?? 'kWh', times: series.times, values: series.values };
    });
    return { status: 'loaded', resolution, meters };
  };

  return store;
}
