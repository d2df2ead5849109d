/**
 * Export and import of inspector messages (issue 14 §3): HAR 1.2 (what browsers' and proxies' tools
 * read) and NDJSON (one message a line, what scripts read). Pure, no Node API: the window builds the
 * file and reads one back.
 *
 * HAR: each message is an entry whose `request` is the intake as received — method, URL (the
 * webhook's intake URL with the query), headers, `queryString`, and `postData` with the body: as
 * `text` when it is UTF-8, else base64 in `text` with `"_encoding": "base64"` (HAR 1.2 has `encoding`
 * on response content only; custom fields start with `_`). The forwarder's answer is not known to the
 * app: `response.status` is 202 (every message the inspector shows was accepted). What only Hubdesk
 * knows (webhook id, message id, routing decision, delivered) is in `_hubdesk`, so an export imports
 * back equal. A HAR from elsewhere (a browser's) imports too: the webhook id comes from a
 * `/webhook/<id>` path, else "imported".
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
import { RoutingDecisionSchema } from './webhook-protocol';

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
    postData: z.object({ mimeType: z.string().optional(), text: z.string().optional(), _encoding: z.string().optional(), encoding: z.string().optional() }).optional(),
  }),
  _hubdesk: z.object({ webhookId: z.string(), id: z.string(), routing: z.unknown(), delivered: z.boolean() }).partial().optional(),
});

/** `creator` names the exporting app; `urlOf` gives a webhook's intake URL (without query). */
export function toHar(messages: readonly ArchivedMessage[], creator: { name: string; version: string }, urlOf: (webhookId: string) => string): string {
  const entries = messages.map((message) => {
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
        bodySize: base64ByteLength(message.rawBody),
      },
      response: { status: 202, statusText: 'Accepted', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      _hubdesk: { webhookId: message.webhookId, id: message.id, routing: message.routing, delivered: message.delivered },
    };
  });
  return JSON.stringify({ log: { version: '1.2', creator, entries } }, null, 2);
}

// ---- NDJSON

export function toNdjson(messages: readonly ArchivedMessage[]): string {
  return messages.map((message) => `${JSON.stringify(message)}\n`).join('');
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
  const base64 = postData?.text === undefined ? '' : postData._encoding === 'base64' || postData.encoding === 'base64' ? postData.text : bytesBase64(new TextEncoder().encode(postData.text));
  if (base64ByteLength(base64) > INSPECTOR_BODY_MAX_BYTES) return { ok: false, reason: `its body is larger than ${INSPECTOR_BODY_MAX_BYTES / 1024} KiB` };
  const routing = ours?.routing === undefined ? null : RoutingDecisionSchema.nullable().safeParse(ours.routing);
  return checked({
    webhookId: ours?.webhookId ?? /\/webhook\/([A-Za-z0-9_-]{1,200})$/.exec(url.pathname)?.[1] ?? IMPORTED_WEBHOOK_ID,
    id: ours?.id ?? `imported-${number}-${startedDateTime}`.slice(0, 200),
    receivedAt: startedDateTime,
    method: request.method.toUpperCase(),
    headers: firstValues(request.headers, (name) => name.toLowerCase()),
    query: firstValues(request.queryString ?? [...url.searchParams].map(([name, value]) => ({ name, value })), (name) => name),
    rawBody: base64,
    routing: routing === null ? null : routing.success ? routing.data : null,
    delivered: ours?.delivered ?? false,
  });
}

function checked(value: unknown): EntryRead {
  const parsed = ArchivedMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, reason: firstIssue(parsed.error) };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'invalid';
}

/** The first value of each name (as the inspector keeps them), names as `keyOf` gives them (headers in lower case). */
function firstValues(pairs: readonly { name: string; value: string }[], keyOf: (name: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of pairs) {
    const key = keyOf(name);
    if (!Object.hasOwn(out, key)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
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
