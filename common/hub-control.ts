/**
 * Device control, flows and the realtime channel of a hub (docs/hub-realtime.md; docs/interface.md A.5 for control
 * and flows, §6.2 and A.3 for the realtime channel). Shared by the reference hub and
 * the app core, which parses everything a hub sends with these schemas.
 *
 * HTTP (all with `Authorization: Bearer <session token>`):
 * - `PUT /api/manager/devices/device/<id>/capability/<capabilityId>` body `SetCapabilityBody`, scope
 *   `devices` → 200 `CapabilityEventData` (the value as stored, the transaction id, the hub's time).
 *   400 `invalid_value` / `not_setable` (the description says why), 403 `insufficient_scope`, 404
 *   `unknown_device` / `unknown_capability`, 409 `device_unavailable` / `device_refused` (the device
 *   itself refused, e.g. a fault it reports; the description is its reason).
 * - `GET /api/manager/flow/flow`, scope `flow.readonly` or `flow.start` → `FlowMap`.
 * - `POST /api/manager/flow/flow/<id>/trigger`, scope `flow.start` → 200 `FlowTriggerResult`; 404
 *   unknown flow, 409 `flow_disabled`.
 * - `GET /api/manager/sessions/session/me` (any valid session) → `SessionInfo`.
 *
 * Realtime: a WebSocket at `REALTIME_PATH` on every base URL of the hub. The first client message is
 * `auth` with the session token (within `REALTIME_AUTH_TIMEOUT_MS`); the hub answers `ready`. Then the
 * client subscribes by URI and receives `event` messages. The hub closes the socket with a code below
 * when the session ends, the token is refused, the client breaks the protocol or reads too slowly.
 * Liveness (docs/hub-realtime.md, "Liveness"): a hub whose `ready` says `answersPing: true` answers
 * each REALTIME_PING with REALTIME_PONG; a client sends pings only to such a hub, since an older one
 * closes the socket on a message it does not know.
 */
import { z } from 'zod';
import { ShownNameSchema } from './one-line';
import { DeviceSchema } from './wire';

export const REALTIME_PATH = '/api/realtime';
export const REALTIME_AUTH_TIMEOUT_MS = 5_000;
/** Largest client message the hub accepts (a subscribe of every device of a large home fits). */
export const REALTIME_MAX_CLIENT_MESSAGE_BYTES = 256 * 1024;
export const REALTIME_MAX_URIS_PER_MESSAGE = 5_000;
/** The app's liveness ping and the hub's answer, exactly as sent (they are compared as text). */
export const REALTIME_PING = '{"type":"ping"}';
export const REALTIME_PONG = '{"type":"pong"}';

export const MANAGER_DEVICES_URI = 'hub:manager:devices';
export const DEVICE_URI_PREFIX = 'hub:device:';
export const deviceUri = (deviceId: string): string => `${DEVICE_URI_PREFIX}${deviceId}`;

/** Close codes (4000–4999 are application-defined, RFC 6455 §7.4.2); the reason is a sentence for people. */
export const CLOSE_SESSION_EXPIRED = 4001;
export const CLOSE_PROTOCOL_ERROR = 4400;
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_AUTH_TIMEOUT = 4408;
export const CLOSE_TOO_SLOW = 4429;

/** A client's own id for a change, echoed in the change's event so the client can recognise it. */
export const TransactionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a transaction id is 1–100 letters, digits, "-" or "_"');
export const CapabilityValueSchema = z.union([z.boolean(), z.number().finite(), z.string().max(1024)]);
export type CapabilityValue = z.infer<typeof CapabilityValueSchema>;

export const SetCapabilityBodySchema = z.object({ value: CapabilityValueSchema, transactionId: TransactionIdSchema.optional() });
export type SetCapabilityBody = z.infer<typeof SetCapabilityBodySchema>;

/** One capability change: the answer to a PUT and the data of a `capability` event. `transactionId` is null for changes the hub made itself. */
export const CapabilityEventDataSchema = z.object({
  capabilityId: z.string().min(1).max(200),
  value: z.union([CapabilityValueSchema, z.null()]),
  transactionId: TransactionIdSchema.nullable(),
  time: z.string(),
});
export type CapabilityEventData = z.infer<typeof CapabilityEventDataSchema>;

export const FlowSchema = z.looseObject({ id: z.string().min(1).max(200), name: z.string().max(500).pipe(ShownNameSchema), enabled: z.boolean() });
export type Flow = z.infer<typeof FlowSchema>;
/** Keyed by flow id; each value's `id` equals its key. */
export const FlowMapSchema = z
  .record(z.string(), FlowSchema)
  .refine((map) => Object.entries(map).every(([key, flow]) => flow.id === key), { message: 'flow id must equal its key' });
export type FlowMap = z.infer<typeof FlowMapSchema>;
export const FlowTriggerResultSchema = z.object({ id: z.string(), triggeredAt: z.string() });
export type FlowTriggerResult = z.infer<typeof FlowTriggerResultSchema>;

/** What a session may do. Unknown scopes (a newer hub) are kept as strings and ignored. */
export const SessionInfoSchema = z.object({ scopes: z.array(z.string().max(100)).max(100), expiresAt: z.string() });
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

// ---- Realtime messages

export const RealtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(8192) }),
  z.object({ type: z.literal('subscribe'), uris: z.array(z.string().min(1).max(300)).min(1).max(REALTIME_MAX_URIS_PER_MESSAGE) }),
  z.object({ type: z.literal('unsubscribe'), uris: z.array(z.string().min(1).max(300)).min(1).max(REALTIME_MAX_URIS_PER_MESSAGE) }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessageSchema>;

export const RealtimeServerMessageSchema = z.union([
  /** `answersPing`: the hub answers `ping` with `pong` (absent: an older hub, which closes the socket on `ping`). */
  z.object({ type: z.literal('ready'), scopes: z.array(z.string()), expiresAt: z.string(), answersPing: z.boolean().optional() }),
  /** The URIs now subscribed; `unknown` lists URIs of devices the hub does not have (not subscribed). */
  z.object({ type: z.literal('subscribed'), uris: z.array(z.string()), unknown: z.array(z.string()) }),
  z.object({ type: z.literal('unsubscribed'), uris: z.array(z.string()) }),
  z.object({ type: z.literal('event'), uri: z.string(), event: z.literal('capability'), data: CapabilityEventDataSchema }),
  z.object({ type: z.literal('event'), uri: z.literal(MANAGER_DEVICES_URI), event: z.enum(['device.create', 'device.update']), data: DeviceSchema }),
  z.object({ type: z.literal('event'), uri: z.literal(MANAGER_DEVICES_URI), event: z.literal('device.delete'), data: z.object({ id: z.string() }) }),
  z.object({ type: z.literal('pong') }),
  /** A message the hub could not act on; the socket stays open (protocol errors close it instead). */
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type RealtimeServerMessage = z.infer<typeof RealtimeServerMessageSchema>;
