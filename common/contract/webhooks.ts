/**
 * The IPC contract of the webhook registrations: routing, connection status, making a first webhook. Assembled with the
 * other domains into the one contract by common/ipc-contract.ts.
 */
import { z } from 'zod';
import { ForwardReportSchema, ForwardToSchema } from '../forward-target';
import { TAP_CREDENTIAL_PATTERN } from '../webhook-protocol';
import { ANYONE, noArgs, SIGNED_IN } from './shared';

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

export const webhooksInvokes = {
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
} as const;

export const webhooksEvents = {
  'webhooks.status': WebhookStatusSchema,
  /** A registration's view changed other than its connection (the forwarder named the webhook). */
  'webhooks.view': WebhookViewSchema,
  /** One message's forwarding to the registration's Forward-to URL changed (not kept across restarts). */
  'webhooks.forward': ForwardReportSchema,
} as const;
