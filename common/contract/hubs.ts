/**
 * The IPC contract of the hubs: routes, devices, control, live updates and flows of the open hub. Assembled with the
 * other domains into the one contract by common/ipc-contract.ts.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../app-error';
import { CapabilityEventDataSchema, CapabilityValueSchema, FlowSchema, FlowTriggerResultSchema, TransactionIdSchema } from '../hub-control';
import { DeviceSchema, HubPlatformSchema } from '../wire';
import { ANYONE, deviceId, hubId, noArgs, SIGNED_IN } from './shared';

export const RouteKindSchema = z.enum(['local-secure', 'local', 'remote']);
export type RouteKind = z.infer<typeof RouteKindSchema>;

export const HubViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  platform: HubPlatformSchema,
  routes: z.object({ 'local-secure': z.boolean(), local: z.boolean(), remote: z.boolean() }),
  /** The route the user pinned (used alone), or null when the app chooses. */
  pinnedRoute: RouteKindSchema.nullable(),
});
export type HubView = z.infer<typeof HubViewSchema>;

/**
 * What one candidate route did when the route in use was chosen: `answered` (with its round trip),
 * `timed-out`, `refused` (with the reason, e.g. "untrusted certificate"), `wrong-hub` (another hub
 * answered there), `aborted` (not needed once a better route answered) or `pending` (still probing).
 */
export const RouteOutcomeSchema = z.object({
  kind: RouteKindSchema,
  outcome: z.enum(['answered', 'timed-out', 'refused', 'wrong-hub', 'aborted', 'pending']),
  rttMs: z.number().nonnegative().optional(),
  reason: z.string().optional(),
  /** Set for an address heard on the LAN (mDNS), not given by the account: its host and port, to tell several apart. */
  heardAt: z.string().max(300).optional(),
});
export type RouteOutcome = z.infer<typeof RouteOutcomeSchema>;

/**
 * What the session on a hub may do, from the scopes the hub reports for it. `reason` says, in a
 * sentence for the user, why control or flows are not possible (e.g. read-only access was granted).
 */
export const HubPermissionsSchema = z.object({
  control: z.boolean(),
  flows: z.enum(['none', 'read', 'start']),
  reason: z.string().optional(),
});
export type HubPermissions = z.infer<typeof HubPermissionsSchema>;

export const DeviceListSchema = z.object({
  hubId: z.string(),
  route: RouteKindSchema,
  /** Round trip of the route's ping when it was chosen. */
  rttMs: z.number().nonnegative(),
  /** Every candidate route, in order of preference, including the one in use. */
  routeOutcomes: z.array(RouteOutcomeSchema),
  fetchedAt: z.string(),
  devices: z.array(DeviceSchema),
  permissions: HubPermissionsSchema,
  /** Ids of the devices the user pinned at the top (persisted per hub). */
  favourites: z.array(z.string()),
});
export type DeviceList = z.infer<typeof DeviceListSchema>;

// ---- Control and live updates (docs/hub-realtime.md)

export const SetCapabilityRequestSchema = z.object({
  deviceId,
  capabilityId: z.string().min(1).max(200),
  value: CapabilityValueSchema,
  /** Made by the renderer before it shows the change, so the change's echo over realtime is recognised. */
  transactionId: TransactionIdSchema,
});
export type SetCapabilityRequest = z.infer<typeof SetCapabilityRequestSchema>;
export { type CapabilityEventData, type CapabilityValue, type Flow, type FlowTriggerResult } from '../hub-control';

export const FlowListSchema = z.object({
  hubId: z.string(),
  /** Sorted by name. */
  flows: z.array(FlowSchema),
  canStart: z.boolean(),
});
export type FlowList = z.infer<typeof FlowListSchema>;

/** One change on a hub, as the core passes it on from the realtime channel. */
export const DeviceEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('capability'), deviceId: z.string(), ...CapabilityEventDataSchema.shape }),
  /** A device was added or changed (name, zone, capabilities…): replace it whole. */
  z.object({ kind: z.literal('device'), device: DeviceSchema }),
  z.object({ kind: z.literal('removed'), deviceId: z.string() }),
]);
export type DeviceEvent = z.infer<typeof DeviceEventSchema>;

/** Changes of one hub, in the order the hub sent them, batched by the core (at most one batch per ~16 ms). */
export const DeviceEventBatchSchema = z.object({ hubId: z.string(), events: z.array(DeviceEventSchema) });
export type DeviceEventBatch = z.infer<typeof DeviceEventBatchSchema>;

/**
 * Why a retry of the live channel was needed, each from its own evidence (docs/hub-realtime.md, "The
 * open hub's model and live states"): `hub-not-answering` (the socket dropped, could not connect, or the hub
 * did not answer in time), `cloud-unreachable` (the cloud, or the relay a remote route goes through,
 * did not answer while the machine is online), `offline` (the operating system reports no network),
 * `refused` (the hub or a proxy answered with an HTTP error instead), `session-ended` (the hub closed
 * the socket for its session: a new one is opened).
 */
export const RECONNECT_CAUSES = ['hub-not-answering', 'cloud-unreachable', 'offline', 'refused', 'session-ended'] as const;
export type ReconnectCause = (typeof RECONNECT_CAUSES)[number];

/**
 * The live channel of the open hub, as data; the words are made from it in one place
 * (common/live-words.ts). `live`: subscribed, changes arrive as they happen (`since`, ISO time);
 * `not-responding`: the socket is open but the hub has been silent (`since`, epoch ms); `reconnecting`:
 * the next attempt is at `nextAttemptAt` (epoch ms, backoff with jitter), and `cause` says why. The
 * others are final until the hub is opened again: `closed` (the user left the hub), `signed-out`,
 * `hub-refused` (the hub or the cloud refused Hubdesk access to it, HTTP 403), `hub-gone` (no longer in
 * the account), `no-realtime` (the hub has no realtime channel, HTTP 404), `not-opened` (the app did
 * not take the request to open it: the renderer's own state, with the error's code).
 */
export const LiveStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('connecting') }),
  z.object({ kind: z.literal('live'), since: z.string() }),
  z.object({ kind: z.literal('not-responding'), since: z.number() }),
  z.object({ kind: z.literal('reconnecting'), attempt: z.number().int().positive(), nextAttemptAt: z.number(), cause: z.enum(RECONNECT_CAUSES) }),
  z.object({ kind: z.literal('closed') }),
  z.object({ kind: z.literal('signed-out') }),
  z.object({ kind: z.literal('hub-refused') }),
  z.object({ kind: z.literal('hub-gone') }),
  z.object({ kind: z.literal('no-realtime') }),
  z.object({ kind: z.literal('not-opened'), code: z.enum(ERROR_CODES) }),
]);
export type LiveState = z.infer<typeof LiveStateSchema>;

export const LiveStatusSchema = z.object({ hubId: z.string(), state: LiveStateSchema });
export type LiveStatus = z.infer<typeof LiveStatusSchema>;

/** A failure shown to the user: one of the app's error codes and a sentence that says what to do. */
export const UiErrorSchema = z.object({ code: z.enum(ERROR_CODES), message: z.string() });

/** The flows of the open hub: `none` when the session may not see flows. */
export const FlowsViewSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('none') }),
  z.object({ status: z.literal('loaded'), list: FlowListSchema }),
  z.object({ status: z.literal('error'), error: UiErrorSchema }),
]);
export type FlowsView = z.infer<typeof FlowsViewSchema>;

/**
 * The open hub as a whole (`hubs.open`): its devices (with permissions and favourites) and flows, read
 * once per opening and again after the live channel reconnected; `hubs.deviceEvents` patch it after.
 * `error`: the hub could not be read (the live channel keeps retrying where that may help).
 */
export const HubSnapshotSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('loaded'),
    hubId: z.string(),
    devices: DeviceListSchema,
    flows: FlowsViewSchema,
    /** On the link only: how many `hubs.snapshotPage` messages came first with the other devices (snapshot-pages.ts). */
    pagesBefore: z.number().int().nonnegative().optional(),
  }),
  z.object({ status: z.literal('error'), hubId: z.string(), error: UiErrorSchema }),
]);
export type HubSnapshot = z.infer<typeof HubSnapshotSchema>;

export const hubsInvokes = {
  'hubs.list': { args: noArgs, result: z.array(HubViewSchema), access: SIGNED_IN },
  /** Pins the route used for a hub (persisted; only that route is tried), or null for automatic choice. */
  'hubs.pinRoute': { args: z.tuple([hubId, RouteKindSchema.nullable()]), result: z.void(), access: SIGNED_IN },
  /** Allows or refuses unencrypted LAN routes for every hub (persisted); open sessions choose their route again. */
  'hubs.allowUnencryptedRoutes': { args: z.tuple([z.boolean()]), result: z.void(), access: ANYONE },
  /** Sets one capability; resolves with the value the hub stored, rejects with the hub's reason. */
  'hubs.setCapability': { args: z.tuple([hubId, SetCapabilityRequestSchema]), result: CapabilityEventDataSchema, access: SIGNED_IN },
  /**
   * Opens a hub for viewing (closing any other): a `hubs.snapshot` follows, then its live changes.
   * Opening the open hub again reads it afresh (a reload). Null closes it, which works signed out too.
   */
  'hubs.open': { args: z.tuple([hubId.nullable()]), result: z.void(), access: ANYONE },
  /**
   * The open hub's live channel, waiting for its next attempt after a failure, tries now (the user's
   * "Try now"); nothing when that hub is not open or its channel is not waiting.
   */
  'hubs.reconnect': { args: z.tuple([hubId]), result: z.void(), access: SIGNED_IN },
  'hubs.triggerFlow': { args: z.tuple([hubId, z.string().min(1).max(200)]), result: FlowTriggerResultSchema, access: SIGNED_IN },
  'hubs.setFavourite': { args: z.tuple([hubId, deviceId, z.boolean()]), result: z.void(), access: SIGNED_IN },
} as const;

export const hubsEvents = {
  'hubs.live': LiveStatusSchema,
  /** The open hub as a whole: after `hubs.open`, and again after its live channel reconnected (changes may have been missed). */
  'hubs.snapshot': HubSnapshotSchema,
  /** Changes of the open hub since its snapshot. */
  'hubs.deviceEvents': DeviceEventBatchSchema,
} as const;
