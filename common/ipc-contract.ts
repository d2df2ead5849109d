/**
 * The one IPC contract between main and the renderer, for both hosts (Electron IPC and the browser
 * host's loopback WebSocket). Every invoke channel is `namespace.verb` with a runtime schema for its
 * arguments and result; every event has a schema for its payload. Main validates all arguments with
 * these schemas; the renderer imports types only (plus `createBridge`, common/contract-bridge.ts, which is
 * transport-agnostic).
 */
import { z } from 'zod';
import { ERROR_CODES, type Envelope } from './app-error';
import { MessageFilterSchema } from './message-filter';
import { ForwardReportSchema, ForwardToSchema } from './forward-target';
import { RoutingDecisionSchema, TAP_CREDENTIAL_PATTERN, TapEventSchema } from './webhook-protocol';
import { CapabilityEventDataSchema, CapabilityValueSchema, FlowSchema, FlowTriggerResultSchema, TransactionIdSchema } from './hub-control';
import { DeviceSchema, HubPlatformSchema } from './wire';
import { INSIGHTS_RESOLUTION_NAMES, type InsightsResolution, MAX_INSIGHTS_ENTRIES } from './insights';

// ---- Views: what the renderer is allowed to know. No token, secret or session ever appears here.

export const UserViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
});
export type UserView = z.infer<typeof UserViewSchema>;

export const AuthViewSchema = z.discriminatedUnion('status', [
  /** `reason` says why the user is signed out when it was not their own choice. */
  z.object({ status: z.literal('signed-out'), reason: z.string().optional() }),
  /** Tokens were found at start-up and are being checked with the cloud. */
  z.object({ status: z.literal('restoring') }),
  /**
   * Waiting for the browser. `authorizationUrl` is the page to sign in on (PKCE challenge and state, no
   * secret: RFC 8252 lets the user open it), shown with Copy and Open again; `browserOpened` is false
   * when Hubdesk could not open the browser itself.
   */
  z.object({
    status: z.literal('signing-in'),
    authorizationOrigin: z.string(),
    authorizationUrl: z.string().max(8192).optional(),
    browserOpened: z.boolean().optional(),
  }),
  z.object({ status: z.literal('signed-in'), user: UserViewSchema }),
]);
export type AuthView = z.infer<typeof AuthViewSchema>;

export const NoticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  /** An action the user can take from the notice, e.g. opting in to weaker token storage. */
  action: z.enum(['allow-plaintext-storage']).optional(),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const SessionViewSchema = z.object({
  auth: AuthViewSchema,
  notices: z.array(NoticeSchema),
  /** `portalUrl`: the developer portal where webhooks are created, or null when none is known. */
  backend: z.object({
    authUrl: z.string(),
    embedded: z.boolean(),
    portalUrl: z.string().nullable(),
    /** The embedded demo's forwarder has a ready webhook (`webhooks.useDemo`); never its secrets. */
    demoWebhook: z.boolean().optional(),
  }),
  /** How tokens are kept: encrypted on disk, or only in memory until the app quits. */
  tokenStorage: z.enum(['encrypted', 'memory-only', 'plaintext-opt-in']),
  /** The user's choice: may a hub be reached over its unencrypted LAN route once the secure one failed? */
  allowUnencryptedRoutes: z.boolean(),
});
export type SessionView = z.infer<typeof SessionViewSchema>;

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

const deviceId = z.string().min(1).max(200);

export const SetCapabilityRequestSchema = z.object({
  deviceId,
  capabilityId: z.string().min(1).max(200),
  value: CapabilityValueSchema,
  /** Made by the renderer before it shows the change, so the change's echo over realtime is recognised. */
  transactionId: TransactionIdSchema,
});
export type SetCapabilityRequest = z.infer<typeof SetCapabilityRequestSchema>;
export { type CapabilityEventData, type CapabilityValue, type Flow, type FlowTriggerResult } from './hub-control';

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

// ---- Webhooks: registrations (never with their secret), connection status, inspector entries.

/** Webhook ids are what the forwarder issues; kept to URL-safe characters so they are safe anywhere. */
export const WebhookIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'a webhook id is 1–200 letters, digits, "-" or "_"');
export const WEBHOOK_MAX_KEY_VALUES = 100;
/** A `$key` value: a string, or a finite number (kept as a number: the forwarder compares 5 and "5" alike). */
export const WebhookKeyValueSchema = z.union([z.string().min(1).max(1024), z.number().finite()]);

export const WebhookRoutingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hub'), hubId: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('keys'), values: z.array(WebhookKeyValueSchema).min(1).max(WEBHOOK_MAX_KEY_VALUES) }),
]);
export type WebhookRouting = z.infer<typeof WebhookRoutingSchema>;

/** `tc_<id>.<secret>` as the developer portal shows it: 21 to 324 URL-safe characters (TAP_CREDENTIAL_PATTERN). */
export const TAP_CREDENTIAL_MAX_LENGTH = 324;
export const TapCredentialSchema = z
  .string()
  .max(TAP_CREDENTIAL_MAX_LENGTH, `a tap credential has at most ${TAP_CREDENTIAL_MAX_LENGTH} characters`)
  .regex(TAP_CREDENTIAL_PATTERN, 'a tap credential is "tc_…", a dot and its secret, as the developer portal shows it');

export const WebhookRegistrationInputSchema = z.object({
  id: WebhookIdSchema,
  secret: z.string().min(8).max(512),
  routing: WebhookRoutingSchema,
  label: z.string().max(100).optional(),
  /**
   * The webhook owner's tap credential (optional): with it the app also opens the tap and shows every
   * intake with its routing decision; without it, only the messages delivered to this app.
   */
  tapCredential: TapCredentialSchema.optional(),
  /**
   * The secret the third-party service signs its webhooks with (optional): with it the inspector
   * verifies each message's signature (SignatureVerdict). Kept encrypted like the other secrets.
   */
  signingSecret: z.string().min(1).max(512).optional(),
  /** Forward to (optional): every delivered message is also sent to this local server (common/forward-target.ts). */
  forwardTo: ForwardToSchema.optional(),
});
export type WebhookRegistrationInput = z.infer<typeof WebhookRegistrationInputSchema>;

/**
 * An edit of a registration, kept where it is (same listener ids, same messages): each field absent is
 * left as it is; `signingSecret` and `forwardTo` null clear it. The webhook secret and the tap
 * credential are not edited: a wrong one is a new registration (add it again).
 */
export const WebhookEditSchema = z
  .object({
    id: WebhookIdSchema,
    routing: WebhookRoutingSchema.optional(),
    signingSecret: z.string().min(1).max(512).nullable().optional(),
    forwardTo: ForwardToSchema.nullable().optional(),
  })
  .strict();
export type WebhookEdit = z.infer<typeof WebhookEditSchema>;
/** How long a removed registration can be brought back (`webhooks.undoRemove`). */
export const WEBHOOK_UNDO_MS = 10_000;

/**
 * One registration's connection, as the worse of its listener and (with a tap credential) tap sockets.
 * `refused`: the forwarder does not know the webhook, or refused the secret or the tap credential (the
 * reason says which; no retries until it is added again);
 * `not-responding`: the socket is open but nothing came from the forwarder for a few seconds (`since`:
 * when it was last heard, ms since the epoch); it is kept, and is `connected` again at the next answer;
 * `unavailable`: nothing to connect to (no forwarder configured, or no secret to prove), or a registration
 * naming a hub waits for a sign-in that can prove it acts for that hub.
 */
export const WebhookConnectionSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('connecting') }),
  z.object({ state: z.literal('connected') }),
  z.object({ state: z.literal('not-responding'), since: z.number() }),
  /** `reason`: why the last try failed, when it is more than a dropped connection (the cloud unreachable, the forwarder unable to check the hub). */
  z.object({ state: z.literal('reconnecting'), attempt: z.number().int().positive(), nextRetryAt: z.number(), reason: z.string().optional() }),
  /** `gone`: the forwarder does not know the webhook (any more): it can be created again, or removed. */
  z.object({ state: z.literal('refused'), reason: z.string(), gone: z.boolean().optional() }),
  z.object({ state: z.literal('unavailable'), reason: z.string() }),
]);
export type WebhookConnection = z.infer<typeof WebhookConnectionSchema>;

export const WebhookStatusSchema = z.object({ webhookId: z.string(), connection: WebhookConnectionSchema });
export type WebhookStatus = z.infer<typeof WebhookStatusSchema>;

export const WebhookViewSchema = z.object({
  id: z.string(),
  routing: WebhookRoutingSchema,
  label: z.string().optional(),
  /** The webhook's name as the forwarder gave it when it last registered us (absent until then). */
  webhookName: z.string().optional(),
  /** Whether a tap credential is set; the credential itself never reaches the renderer. */
  hasTapCredential: z.boolean(),
  /** Whether a signing secret is set (never the secret itself). */
  hasSigningSecret: z.boolean(),
  /** Where each delivered message is forwarded (absent: nowhere). */
  forwardTo: z.string().optional(),
  /** Where third parties POST this webhook (the forwarder's intake), or null when no forwarder is configured. */
  intakeUrl: z.string().nullable(),
  connection: WebhookConnectionSchema,
});
export type WebhookView = z.infer<typeof WebhookViewSchema>;

/**
 * Byte budgets of the webhook inspector (docs/security.md, "The app's webhook inspector"). Entries
 * that cross the contract (events, snapshot pages) are summaries: never a large body, only a preview
 * of at most INSPECTOR_PREVIEW_BYTES; the full message is fetched on demand (`inspector.message`).
 */
export const INSPECTOR_PREVIEW_BYTES = 1024;
/** Header and query values longer than this are cut in a summary (the full message has them whole). */
export const INSPECTOR_SUMMARY_VALUE_CHARS = 1024;
/** At most this many header and query pairs each in a summary. */
export const INSPECTOR_SUMMARY_MAX_PAIRS = 64;
/** Largest page of `inspector.snapshot`, in entries, and (as serialised JSON) in characters. */
export const INSPECTOR_PAGE_MAX_ENTRIES = 200;
export const INSPECTOR_PAGE_MAX_CHARS = 512 * 1024;
/** Largest answer of `inspector.message` (serialised JSON characters); parts that do not fit are left out, and say so. */
export const INSPECTOR_MESSAGE_MAX_CHARS = 900 * 1024;

/** Signature schemes the inspector verifies (docs/webhooks-app.md, "Signatures"; main/core/webhook-signatures.ts). */
export const SignatureSchemeSchema = z.enum(['standard-webhooks', 'github', 'stripe', 'slack']);
export type SignatureScheme = z.infer<typeof SignatureSchemeSchema>;

/** A message's signature against its raw bytes: unsigned, signed but no secret set to check it, valid, or invalid and why. */
export const SignatureVerdictSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('unsigned') }),
  z.object({ status: z.literal('no-secret'), scheme: SignatureSchemeSchema }),
  z.object({ status: z.literal('valid'), scheme: SignatureSchemeSchema }),
  z.object({
    status: z.literal('invalid'),
    scheme: SignatureSchemeSchema,
    reason: z.enum(['mismatch', 'timestamp-too-old', 'timestamp-in-future', 'malformed']),
    /** One sentence for the user. */
    detail: z.string(),
  }),
]);
export type SignatureVerdict = z.infer<typeof SignatureVerdictSchema>;

/** What the inspector knows of every intake, in a summary and in the full message alike. */
const WebhookIntakeSchema = z.object({
  webhookId: z.string(),
  id: z.string(),
  receivedAt: z.string(),
  /** Null when only the delivery was seen (the tap was not connected at the time). */
  method: z.string().nullable(),
  size: z.number(),
  headers: z.record(z.string(), z.string()),
  query: z.record(z.string(), z.string()),
  routing: RoutingDecisionSchema.nullable(),
  /** True once this app's listener received the message. */
  delivered: z.boolean(),
  /** The forwarder refused it (seen through the owner's tap): status, error code and reason. */
  rejected: TapEventSchema.shape.rejected,
});

/** What the inspector says of an entry marked `droppedByForwarder`. */
export const DROPPED_BY_FORWARDER =
  'Dropped by the forwarder: its buffer for this app was full (the app was away, or not acknowledging, for longer than the buffer holds), so this message was never delivered.';

/**
 * One intake as the inspector lists it: the tap's event merged with this app's own delivery, as a
 * summary (a short preview of the body, never the body itself). Headers and query are cut to
 * INSPECTOR_SUMMARY_MAX_PAIRS pairs of at most INSPECTOR_SUMMARY_VALUE_CHARS each (`pairsCut` says so);
 * a very long extracted value or reason of the routing decision is cut (the full message has it whole).
 */
export const WebhookEntrySchema = WebhookIntakeSchema.extend({
  pairsCut: z.boolean(),
  /** The body's length in bytes, as received. */
  bodyBytes: z.number().int().nonnegative(),
  /** The first INSPECTOR_PREVIEW_BYTES of the body: as text when it is UTF-8, else as base64. */
  preview: z.string(),
  previewKind: z.enum(['text', 'base64']),
  /** True when the preview is not the whole body. */
  truncated: z.boolean(),
  /**
   * The tap routed it to this app, and the delivery, which brings its headers, query and body, has not
   * arrived yet (headers and query are empty and the preview too until a patch brings them).
   */
  awaitingDelivery: z.boolean(),
  /**
   * The forwarder dropped it from its buffer for this app (the buffer was full: this app was away or did
   * not acknowledge) before delivering it (docs/webhooks-app.md, "Dropped by the forwarder").
   */
  droppedByForwarder: z.literal(true).optional(),
  /** Read from a file (`inspector.import`), not received: its routing and delivery are what the file says. */
  imported: z.boolean().optional(),
});
export type WebhookEntry = z.infer<typeof WebhookEntrySchema>;

/**
 * A later change of an entry already sent (`webhooks.entry`), by its webhookId and id: the fields that
 * changed only, e.g. `delivered` when this app's delivery follows the tap, or `method` and `routing` when
 * the tap's event follows the delivery. Entries the renderer does not hold are not patched.
 */
export const WebhookEntryPatchSchema = WebhookEntrySchema.pick({
  method: true,
  routing: true,
  delivered: true,
  awaitingDelivery: true,
  droppedByForwarder: true,
  headers: true,
  query: true,
  pairsCut: true,
  bodyBytes: true,
  preview: true,
  previewKind: true,
  truncated: true,
})
  .partial()
  .extend({ webhookId: z.string(), id: z.string() });
export type WebhookEntryPatch = z.infer<typeof WebhookEntryPatchSchema>;

/** One message in full, as `inspector.message` answers it. */
export const WebhookFullMessageSchema = WebhookIntakeSchema.extend({
  /** The parsed body; absent (with `bodyOmitted`) when it would not fit in INSPECTOR_MESSAGE_MAX_CHARS. */
  body: z.unknown(),
  bodyOmitted: z.boolean(),
  /** The raw body, base64; cut (with `rawTruncated`) when even it would not fit. */
  rawBody: z.string(),
  rawTruncated: z.boolean(),
  /** Imported: the signature check its file says the exporting app made (ArchivedMessage `signature`). */
  archivedSignature: SignatureVerdictSchema.optional(),
});
export type WebhookFullMessage = z.infer<typeof WebhookFullMessageSchema>;

/** A full message, or why it is no longer kept (its body was evicted by the byte budget, or it was cleared). */
export const WebhookMessageResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('kept'), message: WebhookFullMessageSchema, signature: SignatureVerdictSchema }),
  z.object({ status: z.literal('gone'), reason: z.string() }),
]);
export type WebhookMessageResult = z.infer<typeof WebhookMessageResultSchema>;

/** Replay (docs/webhooks-app.md, "Replay"): a kept message sent again, to the forwarder's intake or to a URL the user gives, optionally edited. */
export const REPLAY_RESPONSE_MAX_BYTES = 256 * 1024;
/** How long main waits for the target's answer. */
export const REPLAY_TIMEOUT_MS = 10_000;
/** The largest body the inspector takes from the window (an edited replay, an imported message): the forwarder's own intake limit. */
export const INSPECTOR_BODY_MAX_BYTES = 256 * 1024;
/** Base64 of at most INSPECTOR_BODY_MAX_BYTES. */
export const InspectorBodySchema = z
  .string()
  .max(Math.ceil(INSPECTOR_BODY_MAX_BYTES / 3) * 4, `a body is at most ${INSPECTOR_BODY_MAX_BYTES / 1024} KiB`)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'the body is base64');
export const ReplayRequestSchema = z
  .object({
    webhookId: WebhookIdSchema,
    id: z.string().min(1).max(200),
    /** `intake`: the webhook's own intake URL (the message's query kept); else an http(s) URL, e.g. a local development server. */
    target: z.union([
      z.literal('intake'),
      z
        .string()
        .url()
        .max(2048)
        .regex(/^https?:\/\//i, 'a replay goes to an http:// or https:// URL'),
    ]),
    /** Replaces the message's headers (hop-by-hop ones are still left out). */
    headers: z
      .array(
        z.tuple([
          z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, 'a header name is an HTTP token'),
          z
            .string()
            .max(8192)
            .regex(/^[^\r\n\0]*$/, 'a header value has no line breaks'),
        ]),
      )
      .max(200)
      .optional(),
    /** Replaces the body: base64 of the bytes to send. */
    body: InspectorBodySchema.optional(),
  })
  .strict();
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;

/** Export and import (docs/webhooks-app.md, "Replay"; common/webhook-archive.ts): one message as a file holds it. */
const ArchivePairsSchema = z.record(z.string().max(1024), z.string().max(16 * 1024));
export const ArchivedMessageSchema = z.object({
  webhookId: WebhookIdSchema,
  id: z.string().min(1).max(200),
  receivedAt: z.string().min(1).max(64),
  method: z.string().regex(/^[A-Z]{1,16}$/, 'a method is an upper-case word'),
  headers: ArchivePairsSchema,
  query: ArchivePairsSchema,
  /** Base64 of the body's bytes. */
  rawBody: InspectorBodySchema,
  routing: RoutingDecisionSchema.nullable(),
  delivered: z.boolean(),
  /** The forwarder refused it (its answer's status, error code and reason; where its JSON stopped). */
  rejected: TapEventSchema.shape.rejected,
  /** The whole body's size when `rawBody` is not all of it (a refused intake's first bytes). */
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * The signature check as the exporting app made it (with its registration's signing secret then). A
   * file's claim: an imported message is checked again with this app's secret, and the claim is shown
   * beside that check, never instead of it.
   */
  signature: SignatureVerdictSchema.optional(),
});
export type ArchivedMessage = z.infer<typeof ArchivedMessageSchema>;
/** Messages per `inspector.import` call: the window sends a file's messages in batches that fit a frame. */
export const IMPORT_BATCH_MAX_MESSAGES = 200;
/** UTF-8 bytes of one `inspector.import` call's messages as JSON: well under the bridge's 1 MiB frame (BRIDGE_MAX_MESSAGE_BYTES); one message larger than this is not imported. */
export const IMPORT_BATCH_MAX_BYTES = 768 * 1024;

export const ReplayResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('answered'),
    url: z.string(),
    statusCode: z.number().int(),
    headers: z.array(z.tuple([z.string(), z.string()])),
    /** The answer's body: text when UTF-8, else base64; at most REPLAY_RESPONSE_MAX_BYTES (`truncated` says when cut). */
    body: z.string(),
    bodyKind: z.enum(['text', 'base64']),
    truncated: z.boolean(),
    durationMs: z.number().nonnegative(),
  }),
  /** No answer (refused, timed out) or nothing to send (the message is gone); `reason` is a sentence. */
  z.object({ status: z.literal('failed'), url: z.string().nullable(), reason: z.string() }),
]);
export type ReplayResult = z.infer<typeof ReplayResultSchema>;

const MiB = 1024 * 1024;
/** The choices of the webhook history's byte bound (files and memory alike) and of its age, in days. */
export const HISTORY_BOUNDS = [32 * MiB, 128 * MiB, 512 * MiB, 1024 * MiB] as const;
export const HISTORY_AGES = [1, 7, 30, 90] as const;
const oneOf = <T extends number>(choices: readonly T[]) =>
  z.number().refine((value): value is T => (choices as readonly number[]).includes(value), `one of ${choices.join(', ')}`);
export const HistorySettingsSchema = z.object({ boundBytes: oneOf(HISTORY_BOUNDS), maxAgeDays: oneOf(HISTORY_AGES) }).strict();
export type HistorySettings = z.infer<typeof HistorySettingsSchema>;
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { boundBytes: 128 * MiB, maxAgeDays: 30 };
/**
 * The webhook history: its settings, how it is kept (`encrypted` like the tokens; `obfuscated` where
 * the user allowed the tokens' weaker storage; `memory-only`: until Hubdesk quits), what it holds now,
 * and why it could not be saved or read (a sentence), if so.
 */
export const HistoryViewSchema = HistorySettingsSchema.extend({
  storage: z.enum(['encrypted', 'obfuscated', 'memory-only']),
  messages: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type HistoryView = z.infer<typeof HistoryViewSchema>;

/** A page request of `inspector.snapshot`: entries older than `before` (a cursor from the previous page), newest first. */
export const InspectorPageRequestSchema = z
  .object({
    before: z.number().int().nonnegative().optional(),
    limit: z.number().int().min(1).max(INSPECTOR_PAGE_MAX_ENTRIES),
    /** Only the entries that match (docs/webhooks-app.md, "Finding messages"; common/message-filter.ts). */
    filter: MessageFilterSchema.optional(),
  })
  .strict();
export type InspectorPageRequest = z.infer<typeof InspectorPageRequestSchema>;

export const InspectorPageSchema = z.object({
  entries: z.array(WebhookEntrySchema),
  /** Pass as `before` for the next (older) page; null when this was the last one. */
  nextCursor: z.number().int().nonnegative().nullable(),
});
export type InspectorPage = z.infer<typeof InspectorPageSchema>;

// ---- The desktop (docs/architecture.md, "The desktop"): tray, start at login, notifications

/** Alarm capabilities a user may be told about, by kind (`alarm_smoke` → smoke; an unknown `alarm_*` → other). */
export const ALARM_KINDS = ['smoke', 'water', 'tamper', 'motion', 'contact', 'other'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** Which notifications the user wants: one switch per alarm kind, and one for a hub becoming unreachable or reachable again. */
export const NotificationSwitchesSchema = z.object({
  smoke: z.boolean(),
  water: z.boolean(),
  tamper: z.boolean(),
  motion: z.boolean(),
  contact: z.boolean(),
  other: z.boolean(),
  hubReachability: z.boolean(),
});
export type NotificationSwitches = z.infer<typeof NotificationSwitchesSchema>;

export const DesktopPreferencesSchema = z.object({
  /** Closing the window keeps Hubdesk running in the tray (hosts with a tray only). */
  closeToTray: z.boolean(),
  /** The system starts Hubdesk when the user logs in (hosts that can ask for it only). */
  launchAtLogin: z.boolean(),
  notify: NotificationSwitchesSchema,
});
export type DesktopPreferences = z.infer<typeof DesktopPreferencesSchema>;

/** A change of some desktop preferences; the others stay as they are. */
export const DesktopPreferencesPatchSchema = z
  .object({
    closeToTray: z.boolean().optional(),
    launchAtLogin: z.boolean().optional(),
    notify: NotificationSwitchesSchema.partial().strict().optional(),
  })
  .strict();
export type DesktopPreferencesPatch = z.infer<typeof DesktopPreferencesPatchSchema>;

/**
 * The desktop preferences and what this host can do with them: `tray` (Electron: a tray icon, so
 * close-to-tray makes sense), `launchAtLogin` (the host can register itself with the system), and who
 * shows notifications: `native` (the host, from main) or `browser` (the renderer, with the Web
 * Notifications API, from `desktop.notification` events).
 */
export const DesktopViewSchema = z.object({
  preferences: DesktopPreferencesSchema,
  host: z.object({ tray: z.boolean(), launchAtLogin: z.boolean(), notifications: z.enum(['native', 'browser']) }),
});
export type DesktopView = z.infer<typeof DesktopViewSchema>;

/** Something the user asked to be told about, worded for a notification. */
export const DesktopNotificationSchema = z.object({
  /** Stable per subject (the same alarm, the same hub), so a newer notification replaces an older one. */
  tag: z.string().max(300),
  kind: z.enum([...ALARM_KINDS, 'hub-unreachable', 'hub-reachable']),
  title: z.string().max(200),
  body: z.string().max(500),
  hubId: z.string(),
  deviceId: z.string().optional(),
});
export type DesktopNotification = z.infer<typeof DesktopNotificationSchema>;

// ---- Channels

/**
 * Who may call a verb: `signed-in` verbs are refused with `signed-out` by the dispatcher while nobody is
 * signed in (or a saved sign-in is being restored: then they wait for the cloud like any call);
 * `anyone` verbs work signed out too (sign-in itself, settings, webhooks, which the forwarder
 * authenticates by their own secrets). The dispatcher enforces it, so handlers do not repeat the check.
 */
export type Access = 'signed-in' | 'anyone';
const SIGNED_IN: Access = 'signed-in';
const ANYONE: Access = 'anyone';

/** "New webhook": made in the developer portal for the signed-in user (`webhooks.create`), then registered. */
export const NewWebhookInputSchema = z
  .object({
    name: z.string().trim().min(1, 'a webhook needs a name').max(100, 'a webhook name has at most 100 characters'),
    routing: WebhookRoutingSchema,
    /** Where the forwarder reads a key value (needed for `keys` routing); docs/key-paths.md. */
    keyPath: z.string().trim().min(1).max(512).optional(),
  })
  .strict();
export type NewWebhookInput = z.infer<typeof NewWebhookInputSchema>;

/** A webhook just made or taken (`webhooks.create`, `webhooks.useDemo`): its view and a first message to send it (common/first-message.ts). */
export const FirstWebhookSchema = z.object({
  view: WebhookViewSchema,
  example: z.object({ url: z.string(), headers: z.array(z.tuple([z.string(), z.string()])), body: z.string(), curl: z.string() }).nullable(),
});
export type FirstWebhook = z.infer<typeof FirstWebhookSchema>;

const hubId = z.string().min(1).max(200);
const noArgs = z.tuple([]);

export const invokeContract = {
  'session.get': { args: noArgs, result: SessionViewSchema, access: ANYONE },
  'auth.signIn': { args: noArgs, result: z.void(), access: ANYONE },
  'auth.cancel': { args: noArgs, result: z.void(), access: ANYONE },
  /** Opens the pending sign-in's page in the browser again (fails when no sign-in is waiting or the browser cannot be opened). */
  'auth.reopenBrowser': { args: noArgs, result: z.void(), access: ANYONE },
  'auth.signOut': { args: noArgs, result: z.void(), access: ANYONE },
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
  /** The hub's logs (which capabilities it keeps a history of), or why it shows none. */
  'insights.logs': { args: z.tuple([hubId]), result: InsightsLogsViewSchema, access: SIGNED_IN },
  /** One capability's entries over a resolution; rejects with the hub's reason (e.g. `forbidden`). */
  'insights.series': { args: z.tuple([hubId, InsightsSeriesRequestSchema]), result: InsightsSeriesSchema, access: SIGNED_IN },
  'vault.allowPlaintextStorage': { args: z.tuple([z.boolean()]), result: z.void(), access: ANYONE },
  'notices.dismiss': { args: z.tuple([z.string().min(1).max(100)]), result: z.void(), access: ANYONE },
  'webhooks.list': { args: noArgs, result: z.array(WebhookViewSchema), access: ANYONE },
  /** Adds a registration, or replaces the one with the same webhook id. */
  'webhooks.add': { args: z.tuple([WebhookRegistrationInputSchema]), result: WebhookViewSchema, access: ANYONE },
  /** Stops a registration at once; it is forgotten (with its secrets and inspector entries) WEBHOOK_UNDO_MS later unless undone. */
  'webhooks.remove': { args: z.tuple([WebhookIdSchema]), result: z.void(), access: ANYONE },
  /** Brings back a registration removed less than WEBHOOK_UNDO_MS ago, as it was. */
  'webhooks.undoRemove': { args: z.tuple([WebhookIdSchema]), result: WebhookViewSchema, access: ANYONE },
  /** Changes a registration's routing, signing secret or Forward to, keeping it (and its messages) as it is otherwise. */
  'webhooks.edit': { args: z.tuple([WebhookEditSchema]), result: WebhookViewSchema, access: ANYONE },
  /** Sends a kept message to the registration's Forward-to URL again (`webhooks.forward` events tell how it went). */
  'webhooks.forwardAgain': { args: z.tuple([WebhookIdSchema, z.string().min(1).max(200)]), result: z.void(), access: ANYONE },
  /** Creates a webhook in the developer portal for the signed-in user (its JSON API, with the user's access token), and registers it with its secrets. */
  'webhooks.create': { args: z.tuple([NewWebhookInputSchema]), result: FirstWebhookSchema, access: SIGNED_IN },
  /** Registers the embedded demo's ready webhook (with its tap credential), routed as given. */
  'webhooks.useDemo': { args: z.tuple([WebhookRoutingSchema]), result: FirstWebhookSchema, access: ANYONE },
  /**
   * A registration whose webhook the forwarder no longer knows (`gone`), made again as it was made (the demo
   * webhook, or a new one in the portal: a sign-in), the old one removed. The intake URL is new.
   */
  'webhooks.recreate': { args: z.tuple([WebhookIdSchema]), result: FirstWebhookSchema, access: ANYONE },
  /** Opens the developer portal (`backend.portalUrl`) in the system browser. */
  'webhooks.openPortal': { args: noArgs, result: z.void(), access: ANYONE },
  /** The recent entries kept in main, newest first, one page at a time, so a reloaded renderer is not empty. */
  'inspector.snapshot': { args: z.tuple([InspectorPageRequestSchema]), result: InspectorPageSchema, access: ANYONE },
  /** One message in full (body and raw body), or `gone` when main no longer keeps its body. */
  'inspector.message': { args: z.tuple([WebhookIdSchema, z.string().min(1).max(200)]), result: WebhookMessageResultSchema, access: ANYONE },
  /** Forgets every message, in memory and on disk. */
  'inspector.clear': { args: noArgs, result: z.void(), access: ANYONE },
  'inspector.history': { args: noArgs, result: HistoryViewSchema, access: ANYONE },
  /** Sets the history's bound and age (what no longer fits goes at once, oldest first); resolves with the view as it now is. */
  'inspector.setHistory': { args: z.tuple([HistorySettingsSchema]), result: HistoryViewSchema, access: ANYONE },
  /** Sends a kept message again (exact bytes, or edited), and answers with what the target answered. */
  'inspector.replay': { args: z.tuple([ReplayRequestSchema]), result: ReplayResultSchema, access: ANYONE },
  /** Adds messages read from a HAR or NDJSON file to the inspector (as `webhooks.entry` events); a message already there is skipped. */
  'inspector.import': {
    args: z.tuple([z.array(ArchivedMessageSchema).min(1).max(IMPORT_BATCH_MAX_MESSAGES)]),
    result: z.object({ added: z.number().int().nonnegative(), duplicates: z.number().int().nonnegative() }),
    access: ANYONE,
  },
  'desktop.get': { args: noArgs, result: DesktopViewSchema, access: ANYONE },
  /** Changes some desktop preferences (persisted); resolves with the whole view as it now is. */
  'desktop.set': { args: z.tuple([DesktopPreferencesPatchSchema]), result: DesktopViewSchema, access: ANYONE },
} as const;

export const eventContract = {
  'session.changed': SessionViewSchema,
  /** A new inspector entry: sent once per intake; later changes come as `webhooks.entryPatch`. */
  'webhooks.entry': WebhookEntrySchema,
  'webhooks.entryPatch': WebhookEntryPatchSchema,
  'webhooks.status': WebhookStatusSchema,
  /** A registration's view changed other than its connection (the forwarder named the webhook). */
  'webhooks.view': WebhookViewSchema,
  /** One message's forwarding to the registration's Forward-to URL changed (not kept across restarts). */
  'webhooks.forward': ForwardReportSchema,
  'hubs.live': LiveStatusSchema,
  /** The open hub as a whole: after `hubs.open`, and again after its live channel reconnected (changes may have been missed). */
  'hubs.snapshot': HubSnapshotSchema,
  /** Changes of the open hub since its snapshot. */
  'hubs.deviceEvents': DeviceEventBatchSchema,
  'desktop.changed': DesktopViewSchema,
  /** Sent only where the renderer shows notifications (`host.notifications` is `browser`). */
  'desktop.notification': DesktopNotificationSchema,
} as const;

export type InvokeContract = typeof invokeContract;
export type Channel = keyof InvokeContract;
export type EventName = keyof typeof eventContract;
export type ArgsOf<C extends Channel> = z.infer<InvokeContract[C]['args']>;
export type ResultOf<C extends Channel> = z.infer<InvokeContract[C]['result']>;
export type EventPayload<E extends EventName> = z.infer<(typeof eventContract)[E]>;

export const CHANNELS = Object.keys(invokeContract) as Channel[];
export const EVENT_NAMES = Object.keys(eventContract) as EventName[];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && Object.hasOwn(invokeContract, value);
}
export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(eventContract, value);
}

/** Main-side implementation of every channel. */
export type Handlers = { [C in Channel]: (...args: ArgsOf<C>) => Promise<ResultOf<C>> };

// ---- The bridge: verbs grouped by namespace (`bridge.auth.signIn()`), built from the contract.

type Namespace<C extends string> = C extends `${infer NS}.${string}` ? NS : never;
type VerbOf<C extends string, NS extends string> = C extends `${NS}.${infer V}` ? V : never;

type Verb<C extends Channel> = (...args: ArgsOf<C>) => Promise<Envelope<ResultOf<C>>>;

export type BridgeVerbs = {
  [NS in Namespace<Channel>]: { [C in Extract<Channel, `${NS}.${string}`> as VerbOf<C, NS>]: Verb<C> };
};

export interface Bridge extends BridgeVerbs {
  /** Subscribe to an event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
