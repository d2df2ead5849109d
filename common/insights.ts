/**
 * Insights (docs/insights-app.md): the history a hub keeps of its devices' numeric and boolean capability values,
 * in the shapes of the Homey Web API's insights manager (the official `homey-api` client reads them):
 *
 *   GET /api/manager/insights/log                        → InsightsLogMap (keyed by log id)
 *   GET /api/manager/insights/log/<uri>/<id>/entry?resolution=<InsightsResolution>
 *                                                        → InsightsEntries
 *
 * `<uri>` is the log's owner (`homey:device:<deviceId>`) and `<id>` the log's id in full (as homey-api
 * sends it) or its last part (the capability id); both URL-encoded. Shared by the reference hub, which
 * serves them, and the app, which validates what any hub answers with the schemas below.
 */
import { z } from 'zod';
import { ShownNameSchema } from './one-line';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Each resolution is a window ending now and the step of its entries. A step is the resolution of one
 * storage tier of the hub, so a query reads one tier: minutes (kept a day), five minutes (kept 31 days),
 * hours (kept a year). `lastYear` is the last 365 days, rolling like the others.
 */
export const INSIGHTS_RESOLUTIONS = {
  lastHour: { windowMs: HOUR, stepMs: MINUTE },
  last6Hours: { windowMs: 6 * HOUR, stepMs: MINUTE },
  last24Hours: { windowMs: DAY, stepMs: 5 * MINUTE },
  last3Days: { windowMs: 3 * DAY, stepMs: 5 * MINUTE },
  last7Days: { windowMs: 7 * DAY, stepMs: 5 * MINUTE },
  last14Days: { windowMs: 14 * DAY, stepMs: HOUR },
  last31Days: { windowMs: 31 * DAY, stepMs: HOUR },
  last3Months: { windowMs: 92 * DAY, stepMs: HOUR },
  last6Months: { windowMs: 183 * DAY, stepMs: HOUR },
  lastYear: { windowMs: 365 * DAY, stepMs: HOUR },
} as const satisfies Record<string, { windowMs: number; stepMs: number }>;

export type InsightsResolution = keyof typeof INSIGHTS_RESOLUTIONS;
export const INSIGHTS_RESOLUTION_NAMES = Object.keys(INSIGHTS_RESOLUTIONS) as InsightsResolution[];
/** What a query without `resolution` reads. */
export const DEFAULT_INSIGHTS_RESOLUTION: InsightsResolution = 'lastHour';

export function isInsightsResolution(name: string): name is InsightsResolution {
  return Object.hasOwn(INSIGHTS_RESOLUTIONS, name);
}

/** A log's owner URI and full id: `homey:device:<deviceId>` and `homey:device:<deviceId>:<capabilityId>`. */
export function deviceLogUri(deviceId: string): string {
  return `homey:device:${deviceId}`;
}
export function deviceLogId(deviceId: string, capabilityId: string): string {
  return `${deviceLogUri(deviceId)}:${capabilityId}`;
}

const DEVICE_LOG_OWNER = deviceLogUri('');

/**
 * The device and capability a log's owner URI and id name: the id in full (`homey:device:<d>:<c>`,
 * under that same owner) or its last part (`<c>`); undefined for anything else, an id under another
 * owner or a log that is not a device's included. The hub reads a request's path with it, the app a
 * hub's list of logs.
 */
export function deviceLogOf(ownerUri: string, id: string): { deviceId: string; capabilityId: string } | undefined {
  if (!ownerUri.startsWith(DEVICE_LOG_OWNER)) return undefined;
  const deviceId = ownerUri.slice(DEVICE_LOG_OWNER.length);
  if (deviceId === '' || deviceId.includes(':')) return undefined;
  const capabilityId = id.startsWith(`${ownerUri}:`) ? id.slice(ownerUri.length + 1) : id;
  return capabilityId === '' || capabilityId.includes(':') ? undefined : { deviceId, capabilityId };
}

/**
 * How a step's value is made from the values the capability had during it: `mean` (time-weighted) for a
 * measurement, `last` for a cumulative meter (`meter_*`, so the difference of two steps is what was used
 * between them), `any` for a boolean (true when it was true at any moment of the step: a door that
 * opened for ten seconds shows).
 */
export type InsightsAggregation = 'mean' | 'last' | 'any';
export function aggregationOf(capabilityId: string, type: 'number' | 'boolean'): InsightsAggregation {
  if (type === 'boolean') return 'any';
  return capabilityId.startsWith('meter_') ? 'last' : 'mean';
}

const LogValueSchema = z.union([z.number(), z.boolean(), z.null()]);

export const InsightsLogSchema = z.object({
  id: z.string().min(1).max(512),
  ownerUri: z.string().min(1).max(512),
  ownerId: z.string().min(1).max(256),
  ownerName: z.string().max(512).pipe(ShownNameSchema).optional(),
  title: z.string().max(512).pipe(ShownNameSchema),
  type: z.enum(['number', 'boolean']),
  units: z.string().max(64).pipe(ShownNameSchema).nullable(),
  decimals: z.number().int().min(0).max(20).nullable(),
  titleTrue: z.string().max(512).nullable().optional(),
  titleFalse: z.string().max(512).nullable().optional(),
  lastValue: LogValueSchema,
});
export type InsightsLog = z.infer<typeof InsightsLogSchema>;

export const InsightsLogMapSchema = z.record(z.string(), InsightsLogSchema);
export type InsightsLogMap = z.infer<typeof InsightsLogMapSchema>;

/** The most entries one answer may carry (a year of hours is 8,760). */
export const MAX_INSIGHTS_ENTRIES = 20_000;

export const InsightsEntrySchema = z.object({
  /** The step's start, ISO 8601 UTC. */
  t: z.iso.datetime(),
  /** Null where the log has no value (before its first, or while the hub was not recording). */
  v: LogValueSchema,
});

/**
 * One entry per step whose start lies in (now − window, now], oldest first, the last one the current
 * (partial) step. `start` is the first step's start, `end` the time of the answer, `step` in ms.
 */
export const InsightsEntriesSchema = z.object({
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  step: z.number().int().positive(),
  values: z.array(InsightsEntrySchema).max(MAX_INSIGHTS_ENTRIES),
  lastValue: LogValueSchema.optional(),
});
export type InsightsEntries = z.infer<typeof InsightsEntriesSchema>;
