/**
 * Export and import of inspector messages (docs/webhooks-app.md, "Export and import"): HAR 1.2 (what browsers' and proxies' tools
 * read) and NDJSON (one message a line, what scripts read). Pure, no Node API: the window builds the
 * file and reads one back.
 *
 * HAR: each message is an entry whose `request` is the intake as received — method, URL (the
 * webhook's intake URL with the query), headers, `queryString`, and `postData` with the body: as
 * `text` when it is UTF-8, else base64 in `text` with `"_encoding": "base64"` (HAR 1.2 has `encoding`
 * on response content only; custom fields start with `_`). `bodySize` is the whole body's size (-1 when
 * a refused body was cut and its size is not known). `response` is the forwarder's answer as it wrote
 * it: 202 `{"id"}` for an accepted intake, or the refusal's status with its `{error,
 * error_description}` body. What only Hubdesk knows (webhook id, message id, routing decision,
 * delivered, the refusal, the whole size of a cut body, the signature check) is in `_hubdesk`, so an export imports back
 * equal and exports again byte for byte: every message is written in the schema's key order. A HAR
 * from elsewhere (a browser's) imports too: the webhook id comes from a `/webhook/<id>` path, else
 * "imported"; a header named more than once keeps every value, joined with ", " in order (as the
 * forwarder joins them).
 *
 * NDJSON: each line is one ArchivedMessage as JSON.
 *
 * Import checks everything (it is a file from anywhere): each entry against the schema, a body at most
 * INSPECTOR_BODY_MAX_BYTES; what is wrong is a reason, never thrown. The file's bounds (size, depth,
 * count) are common/archive-reader.ts's.
 */
import { z } from 'zod';
import { base64ByteLength, base64Bytes, bytesBase64, strictUtf8 } from './base64';
import { type ArchivedMessage, ArchivedMessageSchema, INSPECTOR_BODY_MAX_BYTES } from './ipc-contract';

export type { ArchivedMessage };

const IMPORTED_WEBHOOK_ID = 'imported';

// ---- HAR 1.2

const HarPairSchema = z.object({ name: z.string(), value: z.string() });
const HarEntrySchema = z.object({
  startedDateTime: z.string(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.array(HarPairSchema),
    queryString: z.array(HarPairSchema).optional(),
    postData: z
      .object({ mimeType: z.string().optional(), text: z.string().optional(), _encoding: z.string().optional(), encoding: z.string().optional() })
      .optional(),
  }),
  _hubdesk: z
    .object({
      webhookId: z.string(),
      id: z.string(),
      routing: z.unknown(),
      delivered: z.boolean(),
      rejected: z.unknown(),
      size: z.unknown(),
      signature: z.unknown(),
    })
    .partial()
    .optional(),
});

/** `creator` names the exporting app; `urlOf` gives a webhook's intake URL (without query). */
export function toHar(messages: readonly ArchivedMessage[], creator: { name: string; version: string }, urlOf: (webhookId: string) => string): string {
  const entries = messages.map(canonical).map((message) => {
    const text = utf8Text(message.rawBody);
    const query = Object.entries(message.query);
    const search = new URLSearchParams(query).toString();
    return {
      startedDateTime: message.receivedAt,
      time: 0,
      request: {
        method: message.method,
        url: `${urlOf(message.webhookId)}${search ? `?${search}` : ''}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: Object.entries(message.headers).map(([name, value]) => ({ name, value })),
        queryString: query.map(([name, value]) => ({ name, value })),
        postData: {
          mimeType: message.headers['content-type'] ?? '',
          text: text ?? message.rawBody,
          ...(text === undefined && { _encoding: 'base64' }),
        },
        headersSize: -1,
        bodySize: message.size ?? (message.rejected?.bodyTruncated ? -1 : base64ByteLength(message.rawBody)),
      },
      response: forwarderAnswer(message),
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      _hubdesk: {
        webhookId: message.webhookId,
        id: message.id,
        routing: message.routing,
        delivered: message.delivered,
        ...(message.rejected && { rejected: message.rejected }),
        ...(message.size !== undefined && { size: message.size }),
        ...(message.signature && { signature: message.signature }),
      },
    };
  });
  return JSON.stringify({ log: { version: '1.2', creator, entries } }, null, 2);
}

/** What the forwarder answered the intake (docs/interface.md §4.7): 202 `{"id"}`, or the refusal's error body. */
function forwarderAnswer(message: ArchivedMessage) {
  const { rejected } = message;
  const text = JSON.stringify(rejected ? { error: rejected.error, error_description: rejected.reason } : { id: message.id });
  const size = new TextEncoder().encode(text).length;
  return {
    status: rejected?.status ?? 202,
    statusText: rejected ? rejected.error : 'Accepted',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [{ name: 'content-type', value: 'application/json' }],
    content: { size, mimeType: 'application/json', text },
    redirectURL: '',
    headersSize: -1,
    bodySize: size,
  };
}

// ---- NDJSON

export function toNdjson(messages: readonly ArchivedMessage[]): string {
  return messages.map((message) => `${JSON.stringify(canonical(message))}\n`).join('');
}

/**
 * The message as the schema gives it back: its keys (and its routing's) in the schema's order, unknown
 * ones dropped. A message read from a file comes out of the same schema, so exporting it again writes
 * the same bytes. Throws for a message the schema refuses (the exporter checks them first: `isArchivable`).
 */
function canonical(message: ArchivedMessage): ArchivedMessage {
  return ArchivedMessageSchema.parse(message);
}

/** Whether a message can be written to a file (and read back): within the schema's bounds. */
export function isArchivable(message: ArchivedMessage): boolean {
  return ArchivedMessageSchema.safeParse(message).success;
}

// ---- Reading one entry (common/archive-reader.ts finds them in the file)

export type EntryRead = { ok: true; message: ArchivedMessage } | { ok: false; reason: string };

/** The message in one entry's text: a HAR entry (the `number`-th) or an NDJSON line. */
export function entryMessage(format: 'har' | 'ndjson', text: string, number: number): EntryRead {
  const json = parseJsonSafely(text);
  if (!json.ok) return { ok: false, reason: 'not JSON' };
  return format === 'har' ? fromHarEntry(json.value, number) : checked(json.value);
}

function fromHarEntry(value: unknown, number: number): EntryRead {
  const parsed = HarEntrySchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: `not a HAR entry (${firstIssue(parsed.error)})` };
  const { request, startedDateTime, _hubdesk: ours } = parsed.data;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { ok: false, reason: 'its URL does not parse' };
  }
  const postData = request.postData;
  const base64 =
    postData?.text === undefined
      ? ''
      : postData._encoding === 'base64' || postData.encoding === 'base64'
        ? postData.text
        : bytesBase64(new TextEncoder().encode(postData.text));
  if (base64ByteLength(base64) > INSPECTOR_BODY_MAX_BYTES) return { ok: false, reason: `its body is larger than ${INSPECTOR_BODY_MAX_BYTES / 1024} KiB` };
  // Hubdesk's own fields are checked as strictly as the rest: a routing that does not parse is a reason, not a null.
  return checked(
    {
      webhookId: ours?.webhookId ?? /\/webhook\/([A-Za-z0-9_-]{1,200})$/.exec(url.pathname)?.[1] ?? IMPORTED_WEBHOOK_ID,
      id: ours?.id ?? `imported-${number}-${startedDateTime}`.slice(0, 200),
      receivedAt: startedDateTime,
      method: request.method.toUpperCase(),
      headers: joinedValues(request.headers),
      query: firstValues(request.queryString ?? [...url.searchParams].map(([name, value]) => ({ name, value }))),
      rawBody: base64,
      routing: ours?.routing ?? null,
      delivered: ours?.delivered ?? false,
      ...(ours?.rejected !== undefined && { rejected: ours.rejected }),
      ...(ours?.size !== undefined && { size: ours.size }),
      ...(ours?.signature !== undefined && { signature: ours.signature }),
    },
    '_hubdesk.',
  );
}

/** `hubdeskPrefix`: how a HAR names the fields it keeps under `_hubdesk` (routing, delivered, rejected, size, signature), in a reason. */
function checked(value: unknown, hubdeskPrefix = ''): EntryRead {
  const parsed = ArchivedMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, reason: firstIssue(parsed.error, hubdeskPrefix) };
}

const HUBDESK_FIELDS = new Set(['routing', 'delivered', 'rejected', 'size', 'signature']);

function firstIssue(error: z.ZodError, hubdeskPrefix = ''): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.join('.') || 'value';
  return `${HUBDESK_FIELDS.has(String(issue.path[0])) ? hubdeskPrefix : ''}${path}: ${issue.message}`;
}

/** The first value of each query name (as the forwarder keeps them). */
function firstValues(pairs: readonly { name: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of pairs) if (!Object.hasOwn(out, name)) defineValue(out, name, value);
  return out;
}

/** Headers by lower-case name, a name given more than once with every value joined by ", " in order (as the forwarder joins them). */
function joinedValues(pairs: readonly { name: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of pairs) {
    const key = name.toLowerCase();
    defineValue(out, key, Object.hasOwn(out, key) ? `${out[key]}, ${value}` : value);
  }
  return out;
}

/** Defined, not assigned: a `__proto__` name stays plain data. */
function defineValue(out: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseJsonSafely(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function utf8Text(base64: string): string | undefined {
  return strictUtf8(base64Bytes(base64));
}
