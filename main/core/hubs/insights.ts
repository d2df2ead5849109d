/**
 * A hub's history (docs/insights-app.md) as the window gets it: the logs by device and capability, and one
 * log's entries as two arrays of numbers (epoch ms, value) instead of ISO strings and `{t, v}` objects,
 * which keeps a year of hourly steps small on the link and ready for the chart. What the hub sent was
 * checked against common/insights.ts on arrival (hub-client.ts); the calls go through the hub session
 * (hub-sessions.ts: same route, retry and re-login as every other hub call). A hub without history
 * (404) or a sign-in that may not read it (403) is an answer the window shows, not a failure.
 */
import { AppError } from '../../../common/app-error';
import { aggregationOf, deviceLogOf, type InsightsEntries, type InsightsLogMap } from '../../../common/insights';
import type { InsightsLogsView, InsightsLogView, InsightsSeries, InsightsSeriesRequest } from '../../../common/ipc-contract';
import type { HubSessions } from './hub-sessions';

export interface Insights {
  logs(hubId: string): Promise<InsightsLogsView>;
  series(hubId: string, request: InsightsSeriesRequest): Promise<InsightsSeries>;
}

export function createInsights(sessions: Pick<HubSessions, 'insightsLogs' | 'insightsEntries'>, hubName: (hubId: string) => string | undefined): Insights {
  const nameOf = (hubId: string) => hubName(hubId) ?? 'This hub';
  return {
    async logs(hubId) {
      let map: InsightsLogMap | null;
      try {
        map = await sessions.insightsLogs(hubId);
      } catch (error) {
        if (error instanceof AppError && error.code === 'forbidden') return { status: 'unavailable', hubId, reason: error.message };
        throw error;
      }
      if (map === null) return { status: 'unavailable', hubId, reason: `${nameOf(hubId)} keeps no history of its devices.` };
      return { status: 'available', hubId, logs: deviceLogs(map) };
    },
    async series(hubId, request) {
      const entries = await sessions.insightsEntries(hubId, request.deviceId, request.capabilityId, request.resolution);
      if (entries === null) throw new AppError('invalid-argument', `${nameOf(hubId)} keeps no history of this.`);
      return { hubId, ...request, ...toSeries(entries) };
    },
  };
}

/**
 * The logs of devices, by device and capability, sorted (a log of anything else, e.g. an app's, is not a
 * device's chart and is left out). A log's id is its full id (`<uri>:<capability>`) or the capability alone.
 */
export function deviceLogs(map: InsightsLogMap): InsightsLogView[] {
  const views: InsightsLogView[] = [];
  for (const log of Object.values(map)) {
    const target = deviceLogOf(log.ownerUri, log.id);
    if (!target) continue;
    const { deviceId, capabilityId } = target;
    views.push({
      deviceId,
      capabilityId,
      ...(log.ownerName !== undefined && { deviceName: log.ownerName }),
      title: log.title,
      type: log.type,
      units: log.units,
      decimals: log.decimals,
      aggregation: aggregationOf(capabilityId, log.type),
    });
  }
  return views.sort((a, b) => a.deviceId.localeCompare(b.deviceId) || a.capabilityId.localeCompare(b.capabilityId));
}

/** Entries as numbers: times in epoch ms, booleans as 1 or 0; entries out of order are dropped (the chart needs rising times). */
export function toSeries(entries: InsightsEntries): Pick<InsightsSeries, 'start' | 'end' | 'step' | 'times' | 'values'> {
  const times: number[] = [];
  const values: (number | null)[] = [];
  for (const { t, v } of entries.values) {
    const time = Date.parse(t);
    if (times.length > 0 && time <= times[times.length - 1]!) continue;
    times.push(time);
    values.push(typeof v === 'boolean' ? Number(v) : v);
  }
  return { start: Date.parse(entries.start), end: Date.parse(entries.end), step: entries.step, times, values };
}
