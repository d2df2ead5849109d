/**
 * The forwarder's listener channel (docs/interface.md A.4): one WebSocket at
 * `{webhook_url}/listen`, shared by the reference forwarder and the app's listener.
 *
 * 1. The server sends `challenge` with a random nonce.
 * 2. The client answers `register` with `proof = hex(HMAC-SHA256(key = secret, nonce))` (webhook-proof.ts):
 *    it proves it knows a secret without sending it. A wrong proof is answered by closing with
 *    CLOSE_BAD_SECRET. Which secret depends on the role:
 *    - `role: 'listener'` proves the webhook secret (every hub running the app holds it) and registers a
 *      hub (by `hubId`, by `data` with `$key`/`$keys`, or free `data` for a legacy function);
 *    - `role: 'tap'` is the webhook owner's view of every intake with its routing decision (other hubs'
 *      traffic and `Authorization` headers included), so it proves an owner's tap credential instead,
 *      made in the developer portal: `credentialId` names it, the proof uses its secret. The webhook
 *      secret never opens a tap and a tap credential never opens a listener (CLOSE_CREDENTIAL_KIND); a
 *      credential revoked in the portal closes its taps at once (CLOSE_CREDENTIAL_REVOKED).
 *    A listener that names a `hubId` also proves it acts for that hub: `delegationToken` is a fresh delegation
 *    token of the cloud (docs/interface.md §4.4, audience `hub`) whose `hubs` holds that id, each token good for
 *    one registration. A forwarder that knows the cloud refuses a hub id without one (CLOSE_HUB_NOT_PROVEN),
 *    and says "try again" while it cannot check one (CLOSE_HUB_CHECK_UNAVAILABLE); a registration without
 *    `hubId` needs the secret only and is never a `?hub=` target (docs/security.md, "A listener's hub id is proven").
 *    `listenerId` is chosen by the client and stays the same across reconnects; `resumeAfter` is the id of
 *    the last message it acknowledged, and the server re-sends what followed from a bounded buffer.
 * 3. The server answers `registered` (with the webhook's name as its owner gave it in the developer portal),
 *    then sends `message` (listener) or `tap` (tap) frames.
 * 4. A listener acknowledges each message with `ack`; acknowledged messages leave the resume buffer.
 * Bodies: a listener receives the §2.7 message (parsed `body`) plus `rawBody`, or, when it registered
 * `rawBodyOnly`, `rawBody` alone (the body once; it decodes the body itself with `bodyEncoding`). A tap
 * event never has a parsed body, and carries the request (headers, query, `rawBody`) only for intakes
 * not routed to one of the tap's `ownListenerIds`: those reach the same client as a delivery, so their
 * tap event is the routing decision and the intake's id, time, method and size alone.
 * Heartbeats are WebSocket pings from the server; a peer that misses them is dropped.
 */
import { z } from 'zod';

export const LISTEN_PATH = '/listen';
/** Where third parties POST a webhook: `<forwarder>/webhook/<id>` (docs/interface.md §4.7). */
export const INTAKE_PATH = '/webhook/';
export const intakeUrl = (forwarderUrl: string, webhookId: string) => `${forwarderUrl.replace(/\/+$/, '')}${INTAKE_PATH}${encodeURIComponent(webhookId)}`;
export const CLOSE_BAD_SECRET = 4401;
export const CLOSE_UNKNOWN_WEBHOOK = 4404;
export const CLOSE_PROTOCOL_ERROR = 4400;
/** The wrong kind of credential for the role: a tap without a tap credential, or a listener presenting one. */
export const CLOSE_CREDENTIAL_KIND = 4403;
/** The tap credential this tap was opened with has been revoked in the developer portal. */
export const CLOSE_CREDENTIAL_REVOKED = 4410;
/**
 * The forwarder is shutting down (it drains before a restart or a scale-down): the standard WebSocket
 * "going away". Reconnect (a load balancer sends the new connection to another instance) and resume after
 * the last acknowledged id, as after any drop.
 */
export const CLOSE_GOING_AWAY = 1001;
/** Another connection registered with the same listenerId: the newer one wins. */
export const CLOSE_REPLACED = 4409;
/** The webhook or its owner has as many listeners as the forwarder allows; the reason says which and the limit. */
export const CLOSE_TOO_MANY_LISTENERS = 4429;
/**
 * A listener named a hub it did not prove it acts for: no delegation token, or one that is not valid for
 * that hub (malformed, expired, not the cloud's, another audience or hub, used before), or a forwarder that
 * accepts no hub ids at all. The reason says which. The same token never passes later: a new registration
 * with a fresh token may.
 */
export const CLOSE_HUB_NOT_PROVEN = 4412;
/**
 * The forwarder cannot check a delegation token just now (the cloud's key set is unreachable, or where used
 * tokens are remembered is): reconnect later with a fresh token.
 */
export const CLOSE_HUB_CHECK_UNAVAILABLE = 4503;
/** A delegation token as the cloud issues it (an ES256 JWT is some 600 characters); the bound keeps a frame small. */
export const MAX_DELEGATION_TOKEN_LENGTH = 4096;
/** What the tap is shown of a refused intake's body: its first 64 KiB (docs/services.md, "Refused intakes keep their first bytes"). */
export const REFUSED_BODY_KEPT_BYTES = 64 * 1024;

/** Registration data (docs/interface.md §2.6): `$key`, `$keys`, or free properties for a legacy function. */
export const KeyValueSchema = z.union([z.string().max(1024), z.number(), z.boolean()]);
export type KeyValue = z.infer<typeof KeyValueSchema>;
export const RegistrationDataSchema = z.record(z.string().max(200), z.unknown());
export type RegistrationData = z.infer<typeof RegistrationDataSchema>;
/**
 * The most a registration's `data` may take as JSON (UTF-8 bytes). Under the channel's 64 KiB frame, so
 * it is what bounds a registration the forwarder keeps (with Redis, a slot record: docs/services.md,
 * "What Redis holds"); a listener over it is closed with CLOSE_PROTOCOL_ERROR and a reason naming it.
 */
export const MAX_REGISTRATION_DATA_BYTES = 60 * 1024;

const id = z.string().min(1).max(200);
/** A webhook's name, as its owner gives it in the developer portal. */
export const MAX_WEBHOOK_NAME_LENGTH = 100;
/** A client holds one listener per registration; the forwarder allows 100 per webhook. */
export const MAX_OWN_LISTENER_IDS = 100;

/**
 * A tap credential as the developer portal shows it and the app keeps it: `<credential id>.<secret>`,
 * one string to copy. The id (`tc_` and 16 base64url characters as the forwarder issues them) is sent
 * in the registration; the secret only ever keys the proof.
 */
export const TAP_CREDENTIAL_PATTERN = /^(tc_[A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16,256})$/;

export interface TapCredentialParts {
  id: string;
  secret: string;
}

export const formatTapCredential = ({ id, secret }: TapCredentialParts): string => `${id}.${secret}`;

export function parseTapCredential(text: string): TapCredentialParts | undefined {
  const match = TAP_CREDENTIAL_PATTERN.exec(text);
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

export const ListenerClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('register'),
    webhookId: id,
    proof: z.string().regex(/^[0-9a-f]{64}$/),
    role: z.enum(['listener', 'tap']),
    listenerId: id,
    /** Tap only: the tap credential whose secret keys the proof. */
    credentialId: id.optional(),
    hubId: id.optional(),
    /** Listener with `hubId` only: a fresh delegation token for that hub, used once (see CLOSE_HUB_NOT_PROVEN). */
    delegationToken: z.string().min(1).max(MAX_DELEGATION_TOKEN_LENGTH).optional(),
    data: RegistrationDataSchema.optional(),
    resumeAfter: id.optional(),
    /** Listener only: send messages without the parsed `body` (RawWebhookMessage); the client decodes `rawBody`. */
    rawBodyOnly: z.boolean().optional(),
    /** Listener only: send `dropped` notices (docs/webhooks-app.md, "Dropped by the forwarder"); forwarders that predate them ignore it. */
    dropNotices: z.literal(true).optional(),
    /**
     * Tap only: the listenerIds of the same client. An intake routed to any of them is tapped without its
     * request (headers, query, raw body), which that listener's delivery carries.
     */
    ownListenerIds: z.array(id).max(MAX_OWN_LISTENER_IDS).optional(),
  }),
  z.object({ type: z.literal('ack'), id }),
]);
export type ListenerClientMessage = z.infer<typeof ListenerClientMessageSchema>;

const pairs = z.record(z.string(), z.string());

/** What every delivery carries: an id to acknowledge, the time, headers, query and the raw body (for signatures). */
export const RawWebhookMessageSchema = z.object({
  id,
  receivedAt: z.string(),
  headers: pairs,
  query: pairs,
  /** The request body exactly as received, base64. */
  rawBody: z.string(),
});
export type RawWebhookMessage = z.infer<typeof RawWebhookMessageSchema>;

/** docs/interface.md §2.7 (`headers`, `query`, `body`) plus the above: what a listener receives unless it registered `rawBodyOnly`. */
export const WebhookMessageSchema = RawWebhookMessageSchema.extend({ body: z.unknown() });
export type WebhookMessage = z.infer<typeof WebhookMessageSchema>;

/** A `message` frame's message: with `body`, or without it for a `rawBodyOnly` listener. */
export const DeliveredMessageSchema = RawWebhookMessageSchema.extend({ body: z.unknown().optional() });
export type DeliveredMessage = z.infer<typeof DeliveredMessageSchema>;

/**
 * How an intake body is decoded into `body` (docs/interface.md §2.7), by the media type of its
 * Content-Type: `application/json` and `*+json` as JSON (UTF-8), `application/x-www-form-urlencoded` as
 * name → first value (firstValues), anything else as UTF-8 text; an empty body is `null`. The forwarder
 * decodes with it, and so does a `rawBodyOnly` listener.
 */
export function bodyEncoding(contentType: string | undefined): BodyEncoding {
  let encoding = encodings.get(contentType);
  if (encoding === undefined) {
    // Remembered per Content-Type as sent (a sender uses one or two): looked up once per message.
    if (encodings.size >= 64) encodings.clear();
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    encoding = mediaType === 'application/json' || mediaType.endsWith('+json') ? 'json' : mediaType === 'application/x-www-form-urlencoded' ? 'form' : 'text';
    encodings.set(contentType, encoding);
  }
  return encoding;
}
type BodyEncoding = 'json' | 'form' | 'text';
const encodings = new Map<string | undefined, BodyEncoding>();

/** Name → first value. Object.fromEntries defines own properties, so a `__proto__` name stays plain data. */
export function firstValues(params: URLSearchParams): Record<string, string> {
  const seen = new Map<string, string>();
  for (const [name, value] of params) if (!seen.has(name)) seen.set(name, value);
  return Object.fromEntries(seen);
}

/** How the forwarder routed one intake: what the tap shows the owner. */
export const RoutingDecisionSchema = z.object({
  option: z.enum(['query', 'key-path', 'legacy', 'none']),
  /** The configured key path (key-path option). */
  keyPath: z.string().optional(),
  /** The value the key path extracted; absent when it resolved to nothing. */
  value: z.unknown().optional(),
  /** listenerIds (and their hub ids) that received the message. */
  matched: z.array(z.object({ listenerId: z.string(), hubId: z.string().optional() })),
  /** Why nothing (or not everything) matched, in words, e.g. "no registration has $key \"abc\"". */
  reason: z.string().optional(),
});
export type RoutingDecision = z.infer<typeof RoutingDecisionSchema>;

/** One intake as the owner's tap sees it: its routing decision, and the request unless this client receives it anyway. */
export const TapEventSchema = z.object({
  /** The message id, as a listener receives (and acknowledges) it. */
  id,
  receivedAt: z.string(),
  method: z.string(),
  /** Body size in bytes. */
  size: z.number(),
  routing: RoutingDecisionSchema,
  /**
   * The forwarder refused the intake (413, 400, 405, 429, 431…): its status, error code and reason. The
   * routing decision is then `none` with the same reason, the request carries headers, query and the
   * body's first REFUSED_BODY_KEPT_BYTES (`size` is its whole size as far as known), and no listener
   * received it.
   */
  rejected: z
    .object({
      status: z.number().int().min(400).max(599),
      error: z.string().max(100),
      reason: z.string().max(1024),
      /** `request.rawBody` holds fewer bytes than `size`: the body's first bytes only. */
      bodyTruncated: z.boolean().optional(),
      /** A JSON body that does not parse: where it stops (byte offset from 0, line and column from 1). */
      jsonError: z.object({ offset: z.number().int().nonnegative(), line: z.number().int().positive(), column: z.number().int().positive() }).optional(),
    })
    .optional(),
  /** Absent when `routing.matched` names one of the tap's `ownListenerIds`: that listener's delivery carries it. */
  request: RawWebhookMessageSchema.omit({ id: true, receivedAt: true }).optional(),
});
export type TapEvent = z.infer<typeof TapEventSchema>;

/**
 * To a listener that registered `dropNotices`: every message for it up to and including `through`
 * (forwarder order, common/intake-order.ts) that it has not received was dropped from its full resume
 * buffer; `count` is how many were dropped for it so far. One id: bounded by construction.
 */
export const DroppedNoticeSchema = z.object({ type: z.literal('dropped'), through: id, count: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export type DroppedNotice = z.infer<typeof DroppedNoticeSchema>;

export const ListenerServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('challenge'), nonce: z.string() }),
  z.object({
    type: z.literal('registered'),
    listenerId: id,
    resumed: z.number().int().nonnegative(),
    /** Absent from forwarders that predate it. */
    webhookName: z.string().min(1).max(MAX_WEBHOOK_NAME_LENGTH).optional(),
  }),
  z.object({ type: z.literal('message'), message: DeliveredMessageSchema }),
  z.object({ type: z.literal('tap'), event: TapEventSchema }),
  DroppedNoticeSchema,
]);
export type ListenerServerMessage = z.infer<typeof ListenerServerMessageSchema>;

/** The frame types ListenerServerMessageSchema knows: a frame of any other `type` is from a newer forwarder and ignored. */
export const LISTENER_SERVER_MESSAGE_TYPES: ReadonlySet<string> = new Set(ListenerServerMessageSchema.options.map((option) => option.shape.type.value));
