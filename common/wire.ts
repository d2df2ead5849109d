/**
 * Wire types of the cloud and hub interface (docs/interface.md §2), with runtime schemas.
 * Everything that arrives from a cloud or a hub is parsed with these before it is used:
 * the app talks to any implementation of that interface, not only to our reference services.
 * Records are "loose": the interface allows further fields, so unknown fields are kept.
 */
import { z } from 'zod';
import { ShownNameSchema } from './one-line';

/** §2.1 Token object. `expires_in` is a decimal string of seconds. */
export const TokenObjectSchema = z.object({
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'token_type must be bearer'),
  grant_type: z.string().optional(),
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.string().regex(/^\d{1,10}$/, 'expires_in must be a decimal string'),
});
export type TokenObject = z.infer<typeof TokenObjectSchema>;

export const HubPlatformSchema = z.enum(['local', 'cloud']);
export type HubPlatform = z.infer<typeof HubPlatformSchema>;

const nullableUrl = z.string().url().nullable();

/**
 * The public half of a hub's identity key (an Ed25519 JWK), a field the reference cloud adds to the
 * hub record: the hub signs the app's ping nonce with it (common/hub-identity.ts). Our addition to the
 * interface (docs/interface.md §2.2), so optional; a malformed one is read as absent (the hub then
 * cannot prove who it is).
 */
export const HubIdentityKeySchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'x must be a 32-byte base64url value'),
});
export type HubIdentityKey = z.infer<typeof HubIdentityKeySchema>;

/** §2.2 Hub record (element of the user's `hubs`). */
export const HubRecordSchema = z.looseObject({
  _id: z.string().min(1),
  name: ShownNameSchema,
  platform: HubPlatformSchema,
  localUrl: nullableUrl,
  localUrlSecure: nullableUrl,
  remoteUrl: nullableUrl,
  identityKey: HubIdentityKeySchema.nullish().catch(null),
});
export type HubRecord = z.infer<typeof HubRecordSchema>;

/** §2.2 User record (GET /user/me). */
export const UserRecordSchema = z.looseObject({
  _id: z.string().min(1),
  email: ShownNameSchema,
  firstname: ShownNameSchema,
  lastname: ShownNameSchema,
  hubs: z.array(HubRecordSchema),
});
export type UserRecord = z.infer<typeof UserRecordSchema>;

/** §2.3 / §2.4: both are JSON strings on the wire. */
export const JsonStringTokenSchema = z.string().min(1).max(8192);

/** One capability's current state, as the reference hub (and real hubs) report it. */
export const CapabilityStateSchema = z.looseObject({
  id: z.string(),
  type: z.enum(['boolean', 'number', 'enum', 'string']),
  title: ShownNameSchema,
  value: z.union([z.boolean(), z.number(), z.string(), z.null()]),
  units: ShownNameSchema.optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  step: z.number().optional(),
  decimals: z.number().optional(),
  values: z.array(z.object({ id: z.string(), title: ShownNameSchema })).optional(),
  getable: z.boolean(),
  setable: z.boolean(),
  lastUpdated: z.string().nullable(),
});
export type CapabilityState = z.infer<typeof CapabilityStateSchema>;

/** §2.5 Device. `id`, `name`, `class` and `capabilities` are the interface's; the rest is what a hub reports. */
export const DeviceSchema = z.looseObject({
  id: z.string().min(1),
  name: ShownNameSchema,
  class: z.string(),
  capabilities: z.array(z.string()),
  zone: z.string().optional(),
  zoneName: ShownNameSchema.optional(),
  available: z.boolean().optional(),
  capabilitiesObj: z.record(z.string(), CapabilityStateSchema).optional(),
});
export type Device = z.infer<typeof DeviceSchema>;

/** §2.5 Device map: keyed by device id; each value's `id` equals its key. */
export const DeviceMapSchema = z.record(z.string(), DeviceSchema).refine((map) => Object.entries(map).every(([key, device]) => device.id === key), {
  message: 'device id must equal its key',
});
export type DeviceMap = z.infer<typeof DeviceMapSchema>;

/** Error body of the reference services (RFC 6749 §5.2 shape, used for every JSON error). */
export const ErrorBodySchema = z.object({ error: z.string(), error_description: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Claims of the delegation token (§2.3) issued by the reference cloud. */
export interface DelegationClaims {
  iss: string;
  aud: 'hub';
  sub: string; // user id
  exp: number;
  iat: number;
  jti: string; // single use: a hub refuses a replayed jti
  scope: string; // space-separated scopes granted to the client
  hubs: string[]; // hub ids this token may open a session on
  client_id: string;
}

/** Scopes the reference services know. `devices` implies `devices.readonly`. `insights.readonly`: the history of devices' values (docs/insights-app.md). */
export const SCOPES = ['devices.readonly', 'devices', 'flow.readonly', 'flow.start', 'insights.readonly'] as const;
export type Scope = (typeof SCOPES)[number];
