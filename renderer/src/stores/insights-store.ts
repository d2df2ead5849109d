/**
 * The open hub's history (docs/insights-app.md): which capabilities it keeps a history of (read once per opened
 * hub), and the series the charts show, one per device, capability and range, each read once and
 * again when older than SERIES_FRESH_MS. A shown series grows with the live values the open-hub store
 * receives (appendLive), so a chart, its figures and its CSV always show the same points. At most
 * MAX_SERIES series are kept (the oldest read goes first); answers for a hub no longer open are dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, InsightsLogView, InsightsResolution } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import { appendLive, shownFrom, type ShownSeries } from '../format/insights-series';
import type { OpenHubStore } from './open-hub-store';
import { settle, type UiError } from './settle';

export type LogsState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'available'; byDevice: Readonly<Record<string, readonly InsightsLogView[]>> }
  | { status: 'unavailable'; reason: string }
  | { status: 'error'; error: UiError };

export type SeriesState = { status: 'loading' } | { status: 'loaded'; series: ShownSeries; readAt: number } | { status: 'error'; error: UiError };

export interface InsightsState {
  hubId: string | null;
  logs: LogsState;
  /** By seriesKey(device, capability, range). */
  series: Readonly<Record<string, SeriesState>>;
  /** Reads a series unless it is being read or was read less than SERIES_FRESH_MS ago. */
  load(deviceId: string, capabilityId: string, resolution: InsightsResolution): void;
  /** Reads the open hub's logs again (after an error). */
  retryLogs(): void;
  /**
   * After the link to the core was down: the logs again unless they were read, and every kept series
   * again (live values may have been missed meanwhile), each still shown until its new answer arrives.
   */
  reload(): void;
}

export type InsightsStore = StoreApi<InsightsState> & { dispose(): void };

export const MAX_SERIES = 64;
export const SERIES_FRESH_MS = 60_000;

export const seriesKey = (deviceId: string, capabilityId: string, resolution: InsightsResolution): string =>
  `${deviceId}\u0000${capabilityId}\u0000${resolution}`;

const NO_LOGS: readonly InsightsLogView[] = [];
/** The logs of one device (the same array every time, so it can be a zustand selection). */
export const logsOf = (state: Pick<InsightsState, 'logs'>, deviceId: string): readonly InsightsLogView[] =>
  state.logs.status === 'available' ? (state.logs.byDevice[deviceId] ?? NO_LOGS) : NO_LOGS;

export function createInsightsStore(
  bridge: Pick<Bridge, 'insights'>,
  openHub: Pick<OpenHubStore, 'getState' | 'subscribe'>,
  now: () => number = Date.now,
): InsightsStore {
  let generation = 0;
  const store = createStore<InsightsState>()((set, get) => ({
    hubId: null,
    logs: { status: 'idle' },
    series: {},
    load(deviceId, capabilityId, resolution) {
      const hubId = get().hubId;
      if (hubId === null) return;
      const key = seriesKey(deviceId, capabilityId, resolution);
      const known = get().series[key];
      if (known?.status === 'loading' || (known?.status === 'loaded' && now() - known.readAt < SERIES_FRESH_MS)) return;
      readSeries(hubId, key, { deviceId, capabilityId, resolution });
    },
    reload() {
      const hubId = get().hubId;
      if (hubId === null) return;
      const { logs, series } = get();
      if (logs.status === 'error' || logs.status === 'unavailable') readLogs(hubId);
      for (const [key, state] of Object.entries(series)) {
        if (state.status === 'loading') continue;
        const [deviceId, capabilityId, resolution] = key.split('\u0000') as [string, string, InsightsResolution];
        readSeries(hubId, key, { deviceId, capabilityId, resolution });
      }
    },
    retryLogs() {
      const hubId = get().hubId;
      if (hubId !== null && get().logs.status === 'error') readLogs(hubId);
    },
  }));
  const { getState: get, setState: set } = store;

  /**
   * Reads a series; a loaded one stays shown until a new one replaces it, and stays too when the read
   * fails (the hub not answering: its last confirmed points, docs/hub-realtime.md "While the open hub
   * is not live"); it is read again when next asked for.
   */
  const readSeries = (hubId: string, key: string, request: { deviceId: string; capabilityId: string; resolution: InsightsResolution }) => {
    const startedIn = generation;
    if (get().series[key]?.status !== 'loaded') setSeries(key, { status: 'loading' });
    void settle(() => bridge.insights.series(hubId, request)).then((result) => {
      if (startedIn !== generation) return;
      if (result.ok) return setSeries(key, { status: 'loaded', series: shownFrom(result.value), readAt: now() });
      if (get().series[key]?.status !== 'loaded') setSeries(key, { status: 'error', error: result.error });
    });
  };

  /** Sets one series, dropping the oldest beyond MAX_SERIES (a key set again moves to the back). */
  const setSeries = (key: string, state: SeriesState) => {
    const { [key]: _old, ...others } = get().series;
    const keys = Object.keys(others);
    const kept = keys.length >= MAX_SERIES ? Object.fromEntries(keys.slice(keys.length - MAX_SERIES + 1).map((k) => [k, others[k]!])) : others;
    set({ series: { ...kept, [key]: state } });
  };

  const readLogs = (hubId: string) => {
    const startedIn = generation;
    set({ logs: { status: 'loading' } });
    void settle(() => bridge.insights.logs(hubId)).then((result) => {
      if (startedIn !== generation) return;
      if (!result.ok) return set({ logs: { status: 'error', error: result.error } });
      const view = result.value;
      if (view.status === 'unavailable') return set({ logs: { status: 'unavailable', reason: view.reason } });
      const byDevice: Record<string, InsightsLogView[]> = {};
      for (const log of view.logs) (byDevice[log.deviceId] ??= []).push(log);
      set({ logs: { status: 'available', byDevice } });
    });
  };

  const follow = (hubId: string | null) => {
    if (hubId === get().hubId) return;
    generation++;
    set({ hubId, logs: { status: 'idle' }, series: {} });
    if (hubId !== null) readLogs(hubId);
  };

  /** Appends the live values of the devices that changed to the series shown of them. */
  const appendChanges = (devices: Readonly<Record<string, Device>>, before: Readonly<Record<string, Device>>) => {
    let series: Record<string, SeriesState> | null = null;
    for (const [key, state] of Object.entries(get().series)) {
      if (state.status !== 'loaded') continue;
      const [deviceId, capabilityId] = key.split('\u0000') as [string, string];
      const device = devices[deviceId];
      if (!device || device === before[deviceId]) continue;
      const capability = device.capabilitiesObj?.[capabilityId];
      const value = capability?.value;
      if (!capability?.lastUpdated || (typeof value !== 'number' && typeof value !== 'boolean')) continue;
      const grown = appendLive(state.series, Date.parse(capability.lastUpdated), typeof value === 'boolean' ? Number(value) : value);
      if (grown !== state.series) (series ??= { ...get().series })[key] = { ...state, series: grown };
    }
    if (series) set({ series });
  };

  follow(openHub.getState().hubId);
  const stop = openHub.subscribe((state, previous) => {
    follow(state.hubId);
    if (state.devices !== previous.devices && state.hubId === previous.hubId) appendChanges(state.devices, previous.devices);
  });
  return { ...store, dispose: stop };
}
