/**
 * The IPC contract of the webhook inspector: entries, signatures, replay, archives, history, pages. Assembled with the
 * other domains into the one contract by common/ipc-contract.ts.
 */
import { z } from 'zod';
import { MessageFilterSchema } from '../message-filter';
import { RoutingDecisionSchema, TapEventSchema } from '../webhook-protocol';
import { ANYONE, noArgs } from './shared';
import { WebhookIdSchema } from './webhooks';

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

/** Signature schemes the inspector verifies (docs/webhooks-app.md, "Signatures"; main/core/webhooks/webhook-signatures.ts). */
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

export const inspectorInvokes = {
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
} as const;

export const inspectorEvents = {
  /** A new inspector entry: sent once per intake; later changes come as `webhooks.entryPatch`. */
  'webhooks.entry': WebhookEntrySchema,
  'webhooks.entryPatch': WebhookEntryPatchSchema,
} as const;
