/**
 * The IPC contract of a hub's history of its devices' values (docs/insights-app.md). Assembled with the
 * other domains into the one contract by common/ipc-contract.ts.
 */
import { z } from 'zod';
import { INSIGHTS_RESOLUTION_NAMES, type InsightsResolution, MAX_INSIGHTS_ENTRIES } from '../insights';
import { deviceId, hubId, SIGNED_IN } from './shared';

// ---- Insights (docs/insights-app.md): a hub's history of its devices' values, as the charts need it.

export const InsightsResolutionSchema = z.enum(INSIGHTS_RESOLUTION_NAMES as [InsightsResolution, ...InsightsResolution[]]);
export type { InsightsResolution };

/** One capability the hub keeps a history of (a log of common/insights.ts, named by device and capability). */
export const InsightsLogViewSchema = z.object({
  deviceId: z.string(),
  capabilityId: z.string(),
  /** The device's name as the hub's log gives it (its owner's name), for a hub that is not open. */
  deviceName: z.string().optional(),
  title: z.string(),
  type: z.enum(['number', 'boolean']),
  units: z.string().nullable(),
  decimals: z.number().int().nonnegative().nullable(),
  /** How a step's value was made (`last` for a meter: the difference of two steps is what was used between them). */
  aggregation: z.enum(['mean', 'last', 'any']),
});
export type InsightsLogView = z.infer<typeof InsightsLogViewSchema>;

/**
 * The open hub's logs, or why there are none to show: `unavailable` when the hub keeps no history (404)
 * or this sign-in may not read it (403); `reason` is a sentence for the user.
 */
export const InsightsLogsViewSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('available'), hubId: z.string(), logs: z.array(InsightsLogViewSchema) }),
  z.object({ status: z.literal('unavailable'), hubId: z.string(), reason: z.string() }),
]);
export type InsightsLogsView = z.infer<typeof InsightsLogsViewSchema>;

export const InsightsSeriesRequestSchema = z.object({ deviceId, capabilityId: z.string().min(1).max(200), resolution: InsightsResolutionSchema }).strict();
export type InsightsSeriesRequest = z.infer<typeof InsightsSeriesRequestSchema>;

/**
 * One log's entries over a resolution, compact for the window: epoch ms and values in two arrays of the
 * same length, oldest first (a boolean as 1 or 0; null where the hub had no value). `start` and `end`
 * bound the range (epoch ms), `step` is the entries' step in ms.
 */
export const InsightsSeriesSchema = InsightsSeriesRequestSchema.extend({
  hubId: z.string(),
  start: z.number(),
  end: z.number(),
  step: z.number().int().positive(),
  times: z.array(z.number()).max(MAX_INSIGHTS_ENTRIES),
  values: z.array(z.number().nullable()).max(MAX_INSIGHTS_ENTRIES),
});
export type InsightsSeries = z.infer<typeof InsightsSeriesSchema>;

export const insightsInvokes = {
  /** The hub's logs (which capabilities it keeps a history of), or why it shows none. */
  'insights.logs': { args: z.tuple([hubId]), result: InsightsLogsViewSchema, access: SIGNED_IN },
  /** One capability's entries over a resolution; rejects with the hub's reason (e.g. `forbidden`). */
  'insights.series': { args: z.tuple([hubId, InsightsSeriesRequestSchema]), result: InsightsSeriesSchema, access: SIGNED_IN },
} as const;
