/**
 * The hub's insights: one log per numeric or boolean capability of every device, recorded as it
 * changes. Every change goes through DemoHome.setCapability (clients, flows, the simulation, `report`),
 * so listening to DemoHome.onChange sees them all. A log's buffers are made on its first change or
 * first read, not at start: a hub that nobody asks for history costs nothing, and the backfill of a
 * demo device (demo-history) is generated then, up to the moment recording began. Enum and string
 * capabilities are not logged.
 */
import {
  deviceLogId,
  deviceLogOf,
  deviceLogUri,
  aggregationOf,
  INSIGHTS_RESOLUTIONS,
  type InsightsLogMap,
  type InsightsResolution,
} from '../../../common/insights';
import type { Device } from '../../../common/wire';
import type { DemoHome } from '../demo-home';
import type { LogEntries } from './entries-json';
import { backfillStart, demoHistory, type History } from './demo-history';
import { stepStartIsos } from './step-times';
import { TieredLog } from './tiered-log';

export interface InsightsRecorderOptions {
  now: () => number;
}

export interface InsightsStats {
  /** Logs known (numeric and boolean capabilities of every device). */
  logs: number;
  /** Logs whose buffers exist (changed or read since start). */
  materialised: number;
  /** Bytes of all their buffers. */
  bytes: number;
}

export interface InsightsRecorder {
  /** Every log, keyed by id, with its current value. */
  logs(): InsightsLogMap;
  /** The entries of a log at a resolution, as of now, made a slice at a time; undefined when there is no such log. */
  entries(uri: string, id: string, resolution: InsightsResolution): LogEntries | undefined;
  /** Makes every log's buffers (and backfill) now, as reading each once would. */
  materialiseAll(): void;
  stats(): InsightsStats;
  /** Stops listening to the home. */
  stop(): void;
}

interface LogState {
  type: 'number' | 'boolean';
  decimals: number | undefined;
  /** When recording of it began, and its value then. */
  start: number;
  startValue: number;
  /** Its backfill, until made. */
  history: History | undefined;
  log: TieredLog | undefined;
  readonly aggregation: ReturnType<typeof aggregationOf>;
}

export function createInsightsRecorder(home: DemoHome, { now }: InsightsRecorderOptions): InsightsRecorder {
  /** deviceId → capabilityId → its log. */
  const states = new Map<string, Map<string, LogState>>();

  const track = (device: Device, start: number, backfill: boolean) => {
    const logs = new Map<string, LogState>();
    for (const [capabilityId, capability] of Object.entries(device.capabilitiesObj ?? {})) {
      if (capability.type !== 'number' && capability.type !== 'boolean') continue;
      const value = stored(capability.value);
      if (value === undefined) continue;
      logs.set(capabilityId, {
        type: capability.type,
        decimals: capability.decimals,
        start,
        startValue: value,
        history: backfill ? demoHistory(device, capabilityId, start) : undefined,
        log: undefined,
        aggregation: aggregationOf(capabilityId, capability.type),
      });
    }
    states.set(device.id, logs);
  };

  const materialised = (state: LogState): TieredLog => {
    if (state.log) return state.log;
    const log = new TieredLog(state.aggregation, state.history ? backfillStart(state.start) : state.start, state.start);
    state.history?.((time, value) => log.set(time, stored(value)!));
    state.history = undefined;
    log.set(state.start, state.startValue);
    state.log = log;
    return log;
  };

  const started = now();
  for (const device of Object.values(home.devices())) track(device, started, true);

  const unsubscribe = home.onChange((change) => {
    if (change.type === 'capability') {
      const state = states.get(change.deviceId)?.get(change.data.capabilityId);
      const value = stored(change.data.value);
      if (state && value !== undefined) materialised(state).set(now(), value);
    } else if (change.type === 'device.create') track(change.device, now(), false);
    else if (change.type === 'device.delete') states.delete(change.deviceId);
  });

  return {
    logs() {
      const map: InsightsLogMap = {};
      for (const device of Object.values(home.devices())) {
        for (const capabilityId of states.get(device.id)?.keys() ?? []) {
          const capability = device.capabilitiesObj?.[capabilityId];
          if (!capability || (capability.type !== 'number' && capability.type !== 'boolean')) continue;
          const id = deviceLogId(device.id, capabilityId);
          map[id] = {
            id,
            ownerUri: deviceLogUri(device.id),
            ownerId: device.id,
            ownerName: device.name,
            title: capability.title,
            type: capability.type,
            units: capability.units ?? null,
            decimals: capability.decimals ?? null,
            titleTrue: null,
            titleFalse: null,
            lastValue: logValue(capability.value),
          };
        }
      }
      return map;
    },

    entries(uri, id, resolution) {
      const found = deviceLogOf(uri, id);
      const state = found && states.get(found.deviceId)?.get(found.capabilityId);
      if (!found || !state) return undefined;
      const { windowMs, stepMs } = INSIGHTS_RESOLUTIONS[resolution];
      const time = now();
      const count = windowMs / stepMs;
      const firstStep = Math.floor(time / stepMs) - count + 1;
      const factor = 10 ** ((state.decimals ?? 2) + 1);
      // Read at once (a tight loop over the tier), so every chunk of the answer shows the same moment.
      const values = materialised(state).read(stepMs, firstStep, count, time);
      const current = home.device(found.deviceId)?.capabilitiesObj?.[found.capabilityId]?.value;
      return {
        head: { start: new Date(firstStep * stepMs).toISOString(), end: new Date(time).toISOString(), step: stepMs, lastValue: logValue(current) },
        count,
        slice(from, to) {
          const times = stepStartIsos(firstStep + from, to - from, stepMs);
          return times.map((t, i) => {
            const value = values[from + i]!;
            return { t, v: value === null ? null : state.type === 'boolean' ? value > 0 : Math.round(value * factor) / factor };
          });
        },
      };
    },

    materialiseAll() {
      for (const logs of states.values()) for (const state of logs.values()) materialised(state);
    },

    stats() {
      let logs = 0;
      let made = 0;
      let bytes = 0;
      for (const device of states.values()) {
        for (const state of device.values()) {
          logs++;
          if (state.log) {
            made++;
            bytes += state.log.bytes;
          }
        }
      }
      return { logs, materialised: made, bytes };
    },

    stop: unsubscribe,
  };
}

function stored(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function logValue(value: unknown): number | boolean | null {
  return typeof value === 'number' || typeof value === 'boolean' ? value : null;
}
