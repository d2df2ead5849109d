/**
 * The inspector's memory in main: the most recent entries, so a renderer that reloads is not empty.
 * An entry starts from whichever arrives first, the tap's event (routing, method, size) or this app's
 * own delivery of the same message, and the other is merged in, here and only here: the first makes
 * the entry (`webhooks.entry`), the second a patch of what it changed (`webhooks.entryPatch`), and a
 * copy that changes nothing (a re-delivery after a resume) makes no event at all.
 *
 * The body comes once, as the raw bytes (base64): the listener registers `rawBodyOnly`, and the tap
 * leaves out the request of an intake routed to this app (its delivery brings it), so an entry made
 * from such a tap event waits for the delivery (`awaitingDelivery`). The parsed body is decoded from
 * the raw bytes, as the forwarder decodes it, only when the full message is asked for (`message()`).
 *
 * Two bounds (docs/security.md, "The app's webhook inspector"):
 * - at most MAIN_INSPECTOR_CAPACITY (1,000) entries; the oldest is dropped first;
 * - at most MAIN_INSPECTOR_BUDGET_BYTES (64 MiB) accounted for all entries together. An entry is
 *   accounted its summary (bounded: preview, cut headers and query) plus, while its body is kept, the
 *   raw base64 string. Over the budget the oldest bodies are dropped first (the entry stays listed;
 *   `message()` then answers `gone`), then the oldest entries. A body larger than the whole budget is
 *   never kept.
 * Entries leave main only as summaries (`contentOf` makes their bounded part) and patches; the full
 * message is read with `message()`.
 */
import {
  INSPECTOR_MESSAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_ENTRIES,
  INSPECTOR_PREVIEW_BYTES,
  INSPECTOR_SUMMARY_MAX_PAIRS,
  INSPECTOR_SUMMARY_VALUE_CHARS,
  type ArchivedMessage,
  type InspectorPage,
  type InspectorPageRequest,
  type WebhookEntry,
  type WebhookEntryPatch,
  type WebhookFullMessage,
  type WebhookMessageResult,
} from '../../common/ipc-contract';
import { AppError } from '../../common/app-error';
import { base64ByteLength } from '../../common/base64';
import { compileFilter, type FilterableMessage } from '../../common/message-filter';
import { bodyEncoding, firstValues, type RawWebhookMessage, type RoutingDecision, type TapEvent } from '../../common/webhook-protocol';

export const MAIN_INSPECTOR_CAPACITY = 1000;
export const MAIN_INSPECTOR_BUDGET_BYTES = 64 * 1024 * 1024;
/** Accounted per entry besides its strings: the objects and the map slots. */
const ENTRY_OVERHEAD_BYTES = 256;
/** A routing value or reason longer than this (as JSON) is cut in a summary. */
const ROUTING_TEXT_CHARS = 1024;

export const GONE_EVICTED = 'Hubdesk no longer keeps this message’s body: newer messages took its place (main keeps at most 64 MiB of them). The preview is all that is left.';
export const GONE_UNKNOWN = 'Hubdesk no longer keeps this message (it was cleared, or newer messages took its place).';
export const GONE_AWAITING = 'This message was routed to this app, and its delivery has not arrived yet: its headers and body come with it.';

/** What an intake's copy changed: a new entry, a patch of one already sent, or nothing. */
export type InspectorChange = { kind: 'entry'; entry: WebhookEntry } | { kind: 'patch'; patch: WebhookEntryPatch } | null;

export interface WebhookInspector {
  /** `at`: when it arrived here (ms; now by default), what `prune` goes by. */
  tapped(webhookId: string, event: TapEvent, at?: number): InspectorChange;
  delivered(webhookId: string, message: RawWebhookMessage, at?: number): InspectorChange;
  /** A message read from a file: a new entry, or null when one with its webhook id and id is already kept. */
  imported(message: ArchivedMessage, at?: number): InspectorChange;
  /** One page of summaries, newest first. */
  snapshot(request: InspectorPageRequest): InspectorPage;
  /** The full message while its body is kept (`signature` is the caller's: main checks it with the registration's secret). */
  message(webhookId: string, id: string): Exclude<WebhookMessageResult, { status: 'kept' }> | { status: 'kept'; message: WebhookFullMessage };
  /** The message as received, whole (the raw body never cut), while its body is kept: for replay and signature checks. */
  source(webhookId: string, id: string): ReceivedMessage | undefined;
  clear(): void;
  /** Forgets the entries of a removed registration. */
  forget(webhookId: string): void;
  /** Forgets the entries that arrived before `at` (ms). */
  prune(at: number): void;
  /** A new byte budget, enforced at once (oldest first). */
  setBudget(bytes: number): void;
  /** What is accounted now: entries, bodies kept and bytes (always within the budget). */
  usage(): { entries: number; bodies: number; bytes: number };
}

export interface ReceivedMessage {
  method: string | null;
  receivedAt: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Base64. */
  rawBody: string;
}

/** What a request (headers, query, raw body) gives a summary. */
type Content = Pick<WebhookEntry, 'headers' | 'query' | 'pairsCut' | 'bodyBytes' | 'preview' | 'previewKind' | 'truncated'>;
type Pairs = { headers: Record<string, string>; query: Record<string, string> };

interface Stored {
  seq: number;
  /** When the entry was made here (ms). */
  arrivedAt: number;
  summary: WebhookEntry;
  summaryBytes: number;
  /** The raw body (base64), while kept. */
  body: { rawBody: string; bytes: number } | null;
  /**
   * The budget dropped its body. It is not taken back from a re-delivery: the entry keeps its place
   * among the oldest, and taking the body back would only evict a newer one.
   */
  evicted: boolean;
  /** The whole headers and query when the summary had to cut them. */
  fullPairs: Pairs | null;
  /** The whole routing decision when the summary had to cut it. */
  fullRouting: RoutingDecision | null;
}

export function createWebhookInspector(options: { capacity?: number; budgetBytes?: number } = {}): WebhookInspector {
  const capacity = options.capacity ?? MAIN_INSPECTOR_CAPACITY;
  let budget = options.budgetBytes ?? MAIN_INSPECTOR_BUDGET_BYTES;
  // Maps keep insertion order: the first key is the oldest. `entries` holds every entry; `bodies` the
  // keys of the entries whose body is kept, oldest first, so eviction is O(1) per body dropped.
  const entries = new Map<string, Stored>();
  const bodies = new Set<string>();
  let bytes = 0;
  let nextSeq = 1;
  const keyOf = (webhookId: string, id: string) => `${webhookId}\n${id}`;

  const dropBody = (key: string) => {
    const stored = entries.get(key);
    bodies.delete(key);
    if (!stored?.body) return;
    bytes -= stored.body.bytes;
    stored.body = null;
    stored.evicted = true;
  };
  const dropEntry = (key: string) => {
    dropBody(key);
    const stored = entries.get(key);
    if (!stored) return;
    bytes -= stored.summaryBytes;
    entries.delete(key);
  };
  const enforce = () => {
    while (entries.size > capacity) dropEntry(entries.keys().next().value as string);
    while (bytes > budget && bodies.size > 0) dropBody(bodies.values().next().value as string);
    while (bytes > budget && entries.size > 0) dropEntry(entries.keys().next().value as string);
  };

  /** Re-accounts the summary; keeps the body unless it was evicted before or cannot fit at all. */
  const account = (key: string, stored: Stored, rawBody: string | undefined) => {
    const summaryBytes = ENTRY_OVERHEAD_BYTES + JSON.stringify(stored.summary).length;
    bytes += summaryBytes - stored.summaryBytes;
    stored.summaryBytes = summaryBytes;
    // A base64 string is one byte per character in V8 (Latin-1).
    if (rawBody !== undefined && !stored.body && !stored.evicted && rawBody.length + summaryBytes <= budget) {
      stored.body = { rawBody, bytes: rawBody.length };
      bytes += rawBody.length;
      bodies.add(key);
    }
    enforce();
  };

  const create = (key: string, summary: WebhookEntry, extra: Pick<Stored, 'fullPairs' | 'fullRouting' | 'arrivedAt'>, rawBody: string | undefined): InspectorChange => {
    const stored: Stored = { seq: nextSeq++, summary, summaryBytes: 0, body: null, evicted: false, ...extra };
    entries.set(key, stored);
    account(key, stored, rawBody);
    return { kind: 'entry', entry: summary };
  };

  const patch = (key: string, stored: Stored, changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'>, rawBody?: string): InspectorChange => {
    if (Object.keys(changes).length === 0) return null;
    stored.summary = { ...stored.summary, ...changes };
    account(key, stored, rawBody);
    return { kind: 'patch', patch: { webhookId: stored.summary.webhookId, id: stored.summary.id, ...changes } };
  };

  return {
    tapped(webhookId, event, arrivedAt = Date.now()) {
      const key = keyOf(webhookId, event.id);
      const routing = cutRouting(event.routing);
      const fullRouting = routing.cut ? event.routing : null;
      const known = entries.get(key);
      if (!known) {
        const content = event.request ? contentOf(event.request) : { fields: awaitedContent(event.size), fullPairs: null };
        const summary: WebhookEntry = {
          webhookId,
          id: event.id,
          receivedAt: event.receivedAt.slice(0, 64),
          method: event.method,
          size: event.size,
          ...content.fields,
          routing: routing.routing,
          delivered: false,
          awaitingDelivery: !event.request && !event.rejected,
          ...(event.rejected && { rejected: event.rejected }),
        };
        return create(key, summary, { fullPairs: content.fullPairs, fullRouting, arrivedAt }, event.request?.rawBody);
      }
      // The delivery came first: the tap adds what only it knows. A tap event is never sent twice.
      const changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'> = {};
      if (known.summary.method === null) changes.method = event.method;
      if (known.summary.routing === null) {
        changes.routing = routing.routing;
        known.fullRouting = fullRouting;
      }
      return patch(key, known, changes);
    },
    delivered(webhookId, message, arrivedAt = Date.now()) {
      const key = keyOf(webhookId, message.id);
      const known = entries.get(key);
      const content = contentOf(message);
      if (!known) {
        const summary: WebhookEntry = {
          webhookId,
          id: message.id,
          receivedAt: message.receivedAt.slice(0, 64),
          method: null,
          size: content.fields.bodyBytes,
          ...content.fields,
          routing: null,
          delivered: true,
          awaitingDelivery: false,
        };
        return create(key, summary, { fullPairs: content.fullPairs, fullRouting: null, arrivedAt }, message.rawBody);
      }
      const changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'> = {};
      if (!known.summary.delivered) changes.delivered = true;
      if (!known.summary.awaitingDelivery) return patch(key, known, changes);
      // The tap's event came first without the request: the delivery brings it.
      known.fullPairs = content.fullPairs;
      return patch(key, known, { ...changes, ...content.fields, awaitingDelivery: false }, message.rawBody);
    },
    imported(message, arrivedAt = Date.now()) {
      const key = keyOf(message.webhookId, message.id);
      if (entries.has(key)) return null;
      const routing = cutRouting(message.routing);
      const content = contentOf(message);
      const summary: WebhookEntry = {
        webhookId: message.webhookId,
        id: message.id,
        receivedAt: message.receivedAt,
        method: message.method,
        size: content.fields.bodyBytes,
        ...content.fields,
        routing: routing.routing,
        delivered: message.delivered,
        awaitingDelivery: false,
        imported: true,
      };
      return create(key, summary, { fullPairs: content.fullPairs, fullRouting: routing.cut ? message.routing : null, arrivedAt }, message.rawBody);
    },
    snapshot({ before, limit, filter }) {
      const compiled = filter === undefined ? undefined : compileFilter(filter);
      if (compiled && !compiled.ok) throw new AppError('invalid-argument', `The key-path filter does not parse at ${compiled.position + 1}: ${compiled.message}.`);
      const page: WebhookEntry[] = [];
      let chars = 0;
      let last: Stored | undefined;
      const newestFirst = [...entries.values()].reverse();
      let more = false;
      for (const stored of newestFirst) {
        if (before !== undefined && stored.seq >= before) continue;
        if (compiled && !compiled.test(filterable(stored))) continue;
        const size = stored.summaryBytes - ENTRY_OVERHEAD_BYTES + 1;
        if (page.length >= Math.min(limit, INSPECTOR_PAGE_MAX_ENTRIES) || (page.length > 0 && chars + size > INSPECTOR_PAGE_MAX_CHARS)) {
          more = true;
          break;
        }
        page.push(stored.summary);
        chars += size;
        last = stored;
      }
      return { entries: page, nextCursor: more && last ? last.seq : null };
    },
    message(webhookId, id) {
      const stored = entries.get(keyOf(webhookId, id));
      if (!stored) return { status: 'gone', reason: GONE_UNKNOWN };
      if (!stored.body) return { status: 'gone', reason: stored.summary.awaitingDelivery ? GONE_AWAITING : GONE_EVICTED };
      return { status: 'kept', message: fullMessage(stored) };
    },
    source(webhookId, id) {
      const stored = entries.get(keyOf(webhookId, id));
      if (!stored?.body) return undefined;
      const { summary } = stored;
      return {
        method: summary.method,
        receivedAt: summary.receivedAt,
        headers: stored.fullPairs?.headers ?? summary.headers,
        query: stored.fullPairs?.query ?? summary.query,
        rawBody: stored.body.rawBody,
      };
    },
    clear() {
      entries.clear();
      bodies.clear();
      bytes = 0;
    },
    forget(webhookId) {
      for (const [key, stored] of [...entries]) {
        if (stored.summary.webhookId !== webhookId) continue;
        dropEntry(key);
      }
    },
    prune(at) {
      // Oldest first: insertion order is arrival order (a history read back keeps it).
      for (const [key, stored] of entries) {
        if (stored.arrivedAt >= at) break;
        dropEntry(key);
      }
    },
    setBudget(next) {
      budget = next;
      enforce();
    },
    usage: () => ({ entries: entries.size, bodies: bodies.size, bytes }),
  };

  /** An entry as the filters see it; its content (each part decoded only when a filter asks for it) from the kept body, else from the summary. */
  function filterable(stored: Stored): FilterableMessage {
    const { summary } = stored;
    return {
      ...summary,
      content: () => {
        const headers = stored.fullPairs?.headers ?? summary.headers;
        const query = stored.fullPairs?.query ?? summary.query;
        const kept = stored.body;
        if (!kept) return { headers, query, body: () => undefined, bodyText: () => summary.preview };
        return { headers, query, body: () => decodeRawBody(kept.rawBody, headers['content-type']), bodyText: () => lenientUtf8.decode(Buffer.from(kept.rawBody, 'base64')) };
      },
    };
  }

  function fullMessage(stored: Stored): WebhookFullMessage {
    const { summary } = stored;
    const { rawBody } = stored.body!;
    const headers = stored.fullPairs?.headers ?? summary.headers;
    const message: WebhookFullMessage = {
      webhookId: summary.webhookId,
      id: summary.id,
      receivedAt: summary.receivedAt,
      method: summary.method,
      size: summary.size,
      headers,
      query: stored.fullPairs?.query ?? summary.query,
      body: decodeRawBody(rawBody, headers['content-type']),
      bodyOmitted: false,
      rawBody,
      rawTruncated: false,
      routing: stored.fullRouting ?? summary.routing,
      delivered: summary.delivered,
      ...(summary.rejected && { rejected: summary.rejected }),
    };
    // Keep the answer within one frame: first leave out the parsed body, then cut the raw body.
    if (serialisedLength(message) <= INSPECTOR_MESSAGE_MAX_CHARS) return message;
    const withoutBody: WebhookFullMessage = { ...message, body: undefined, bodyOmitted: true };
    const rest = serialisedLength(withoutBody);
    if (rest <= INSPECTOR_MESSAGE_MAX_CHARS) return withoutBody;
    const room = Math.max(0, INSPECTOR_MESSAGE_MAX_CHARS - (rest - rawBody.length));
    return { ...withoutBody, rawBody: rawBody.slice(0, room - (room % 4)), rawTruncated: true };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * The parsed body (docs/interface.md §2.7 `body`) of a raw body, decoded as the forwarder decodes it (bodyEncoding):
 * JSON, form fields (name → first value) or text; `null` when empty. JSON that does not parse (never
 * from the reference forwarder, which refuses it with 400) is shown as text.
 */
export function decodeRawBody(rawBody: string, contentType: string | undefined): unknown {
  const raw = Buffer.from(rawBody, 'base64');
  if (raw.length === 0) return null;
  const encoding = bodyEncoding(contentType);
  if (encoding === 'json') {
    try {
      return JSON.parse(strictUtf8.decode(raw)) as unknown;
    } catch {
      // not JSON after all: the text below
    }
  }
  const text = lenientUtf8.decode(raw);
  return encoding === 'form' ? firstValues(new URLSearchParams(text)) : text;
}

/** A length that never throws: an unserialisable (or absurdly large) value counts as too large. */
function serialisedLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** What a request gives an entry's summary: never its body, only a preview of at most INSPECTOR_PREVIEW_BYTES. */
export function contentOf(request: Pick<RawWebhookMessage, 'headers' | 'query' | 'rawBody'>): { fields: Content; fullPairs: Pairs | null } {
  const headers = cutPairs(request.headers);
  const query = cutPairs(request.query);
  const bodyBytes = base64ByteLength(request.rawBody);
  const fields: Content = {
    headers: headers.pairs,
    query: query.pairs,
    pairsCut: headers.cut || query.cut,
    bodyBytes,
    ...preview(request.rawBody),
    truncated: bodyBytes > INSPECTOR_PREVIEW_BYTES,
  };
  return { fields, fullPairs: headers.cut || query.cut ? { headers: request.headers, query: request.query } : null };
}

/** An entry made from a tap event without the request: nothing of it is known but its size, until the delivery. */
function awaitedContent(size: number): Content {
  return { headers: {}, query: {}, pairsCut: false, bodyBytes: size, preview: '', previewKind: 'text', truncated: size > 0 };
}

function cutPairs(pairs: Record<string, string>): { pairs: Record<string, string>; cut: boolean } {
  const out: Record<string, string> = {};
  let cut = false;
  let count = 0;
  for (const [name, value] of Object.entries(pairs)) {
    if (count++ >= INSPECTOR_SUMMARY_MAX_PAIRS) {
      cut = true;
      break;
    }
    const shortName = name.slice(0, INSPECTOR_SUMMARY_VALUE_CHARS);
    const shortValue = value.length > INSPECTOR_SUMMARY_VALUE_CHARS ? `${value.slice(0, INSPECTOR_SUMMARY_VALUE_CHARS)}…` : value;
    cut ||= shortName !== name || shortValue !== value;
    Object.defineProperty(out, shortName, { value: shortValue, enumerable: true, writable: true, configurable: true });
  }
  return { pairs: out, cut };
}

function cutRouting(routing: RoutingDecision | null): { routing: RoutingDecision | null; cut: boolean } {
  if (!routing) return { routing, cut: false };
  let cut = false;
  const out: RoutingDecision = { ...routing, matched: routing.matched.slice(0, INSPECTOR_SUMMARY_MAX_PAIRS) };
  if (out.matched.length < routing.matched.length) cut = true;
  if (routing.value !== undefined) {
    const json = serialisedLength(routing.value) <= ROUTING_TEXT_CHARS ? null : safeJson(routing.value);
    if (json !== null) {
      out.value = `${json.slice(0, ROUTING_TEXT_CHARS)}…`;
      cut = true;
    }
  }
  if (routing.reason !== undefined && routing.reason.length > ROUTING_TEXT_CHARS) {
    out.reason = `${routing.reason.slice(0, ROUTING_TEXT_CHARS)}…`;
    cut = true;
  }
  if (routing.keyPath !== undefined && routing.keyPath.length > ROUTING_TEXT_CHARS) {
    out.keyPath = `${routing.keyPath.slice(0, ROUTING_TEXT_CHARS)}…`;
    cut = true;
  }
  return { routing: out, cut };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(not shown: too large)';
  }
}

/**
 * The first INSPECTOR_PREVIEW_BYTES of the raw body: UTF-8 text when those bytes decode (a character
 * cut at the end is dropped), else base64 of the first bytes (at most INSPECTOR_PREVIEW_BYTES characters).
 */
function preview(rawBody: string): Pick<WebhookEntry, 'preview' | 'previewKind'> {
  // Decode only a prefix of the base64 (a multiple of 4 characters): the whole body is never copied.
  const head = Buffer.from(rawBody.slice(0, Math.ceil(INSPECTOR_PREVIEW_BYTES / 3) * 4 + 4), 'base64').subarray(0, INSPECTOR_PREVIEW_BYTES);
  const whole = base64ByteLength(rawBody) <= INSPECTOR_PREVIEW_BYTES;
  for (let drop = 0; drop <= (whole ? 0 : 3) && drop < head.length + 1; drop++) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - drop));
      return { preview: text, previewKind: 'text' };
    } catch {
      // a character cut at the end: try one byte shorter
    }
  }
  const bytes = head.subarray(0, Math.floor((INSPECTOR_PREVIEW_BYTES * 3) / 4));
  return { preview: bytes.toString('base64'), previewKind: 'base64' };
}
