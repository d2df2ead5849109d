/**
 * The inspector's memory in main: the most recent entries, so a renderer that reloads is not empty.
 * An entry starts from whichever arrives first, the tap's event (routing, method, size) or this app's
 * own delivery of the same message, and the other is merged in.
 *
 * Two bounds (docs/security.md, "The app's webhook inspector"):
 * - at most MAIN_INSPECTOR_CAPACITY (1,000) entries; the oldest is dropped first;
 * - at most MAIN_INSPECTOR_BUDGET_BYTES (64 MiB) accounted for all entries together. An entry is
 *   accounted its summary (bounded: preview, cut headers and query) plus, while its body is kept, the
 *   body: the raw base64 string and the parsed body, estimated at the body's byte length. Over the
 *   budget the oldest bodies are dropped first (the entry stays listed; `message()` then answers
 *   `gone`), then the oldest entries. A body larger than the whole budget is never kept.
 * Entries leave main only as summaries (`summarise`); the full message is read with `message()`.
 */
import {
  INSPECTOR_MESSAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_ENTRIES,
  INSPECTOR_PREVIEW_BYTES,
  INSPECTOR_SUMMARY_MAX_PAIRS,
  INSPECTOR_SUMMARY_VALUE_CHARS,
  type InspectorPage,
  type InspectorPageRequest,
  type WebhookEntry,
  type WebhookFullMessage,
  type WebhookMessageResult,
} from '../../common/ipc-contract';
import type { RoutingDecision, TapEvent, WebhookMessage } from '../../common/webhook-protocol';

export const MAIN_INSPECTOR_CAPACITY = 1000;
export const MAIN_INSPECTOR_BUDGET_BYTES = 64 * 1024 * 1024;
/** Accounted per entry besides its strings: the objects and the map slots. */
const ENTRY_OVERHEAD_BYTES = 256;
/** A routing value or reason longer than this (as JSON) is cut in a summary. */
const ROUTING_TEXT_CHARS = 1024;

export const GONE_EVICTED = 'Hubdesk no longer keeps this message’s body: newer messages took its place (main keeps at most 64 MiB of them). The preview is all that is left.';
export const GONE_UNKNOWN = 'Hubdesk no longer keeps this message (it was cleared, or newer messages took its place).';

export interface WebhookInspector {
  /** Returns the entry's summary as it now stands. */
  tapped(webhookId: string, event: TapEvent): WebhookEntry;
  delivered(webhookId: string, message: WebhookMessage): WebhookEntry;
  /** One page of summaries, newest first. */
  snapshot(request: InspectorPageRequest): InspectorPage;
  /** The full message while its body is kept. */
  message(webhookId: string, id: string): WebhookMessageResult;
  clear(): void;
  /** Forgets the entries of a removed registration. */
  forget(webhookId: string): void;
  /** What is accounted now: entries, bodies kept and bytes (always within the budget). */
  usage(): { entries: number; bodies: number; bytes: number };
}

interface Stored {
  seq: number;
  summary: WebhookEntry;
  summaryBytes: number;
  /** The body and raw body, while kept. */
  body: { body: unknown; rawBody: string; bytes: number } | null;
  /**
   * The budget dropped its body. It is not taken back from a late tap or a re-delivery: the entry
   * keeps its place among the oldest, and taking the body back would only evict a newer one.
   */
  evicted: boolean;
  /** The whole headers, query and routing when the summary had to cut them. */
  full: { headers: Record<string, string>; query: Record<string, string>; routing: RoutingDecision | null } | null;
}

export function createWebhookInspector(options: { capacity?: number; budgetBytes?: number } = {}): WebhookInspector {
  const capacity = options.capacity ?? MAIN_INSPECTOR_CAPACITY;
  const budget = options.budgetBytes ?? MAIN_INSPECTOR_BUDGET_BYTES;
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

  const store = (key: string, webhookId: string, message: WebhookMessage, fields: Pick<WebhookEntry, 'method' | 'size' | 'routing' | 'delivered'>) => {
    const known = entries.get(key);
    const { summary, full } = summarise(webhookId, message, fields);
    const summaryBytes = ENTRY_OVERHEAD_BYTES + JSON.stringify(summary).length;
    const stored: Stored = known ?? { seq: nextSeq++, summary, summaryBytes: 0, body: null, evicted: false, full };
    bytes += summaryBytes - stored.summaryBytes;
    stored.summary = summary;
    stored.summaryBytes = summaryBytes;
    stored.full = full;
    if (!stored.body && !stored.evicted) {
      // A message's body is kept once, from whichever of tap and delivery came first (they are the same bytes).
      const bodyBytes = message.rawBody.length + rawByteLength(message.rawBody);
      if (bodyBytes + summaryBytes <= budget) {
        stored.body = { body: message.body, rawBody: message.rawBody, bytes: bodyBytes };
        bytes += bodyBytes;
        bodies.add(key);
      }
    }
    if (!known) entries.set(key, stored);
    enforce();
    return entries.get(key)?.summary ?? summary;
  };

  return {
    tapped(webhookId, event) {
      const key = keyOf(webhookId, event.message.id);
      return store(key, webhookId, event.message, {
        method: event.method,
        size: event.size,
        routing: event.routing,
        delivered: entries.get(key)?.summary.delivered ?? false,
      });
    },
    delivered(webhookId, message) {
      const key = keyOf(webhookId, message.id);
      const known = entries.get(key);
      if (known) {
        known.summary = { ...known.summary, delivered: true };
        return known.summary;
      }
      return store(key, webhookId, message, { method: null, size: rawByteLength(message.rawBody), routing: null, delivered: true });
    },
    snapshot({ before, limit }) {
      const page: WebhookEntry[] = [];
      let chars = 0;
      let last: Stored | undefined;
      const newestFirst = [...entries.values()].reverse();
      let more = false;
      for (const stored of newestFirst) {
        if (before !== undefined && stored.seq >= before) continue;
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
      if (!stored.body) return { status: 'gone', reason: GONE_EVICTED };
      return { status: 'kept', message: fullMessage(stored) };
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
    usage: () => ({ entries: entries.size, bodies: bodies.size, bytes }),
  };

  function fullMessage(stored: Stored): WebhookFullMessage {
    const { summary } = stored;
    const kept = stored.body!;
    const message: WebhookFullMessage = {
      webhookId: summary.webhookId,
      id: summary.id,
      receivedAt: summary.receivedAt,
      method: summary.method,
      size: summary.size,
      headers: stored.full?.headers ?? summary.headers,
      query: stored.full?.query ?? summary.query,
      body: kept.body,
      bodyOmitted: false,
      rawBody: kept.rawBody,
      rawTruncated: false,
      routing: stored.full?.routing ?? summary.routing,
      delivered: summary.delivered,
    };
    // Keep the answer within one frame: first leave out the parsed body, then cut the raw body.
    if (serialisedLength(message) <= INSPECTOR_MESSAGE_MAX_CHARS) return message;
    const withoutBody: WebhookFullMessage = { ...message, body: undefined, bodyOmitted: true };
    const rest = serialisedLength(withoutBody);
    if (rest <= INSPECTOR_MESSAGE_MAX_CHARS) return withoutBody;
    const room = Math.max(0, INSPECTOR_MESSAGE_MAX_CHARS - (rest - kept.rawBody.length));
    return { ...withoutBody, rawBody: kept.rawBody.slice(0, room - (room % 4)), rawTruncated: true };
  }
}

/** A length that never throws: an unserialisable (or absurdly large) value counts as too large. */
function serialisedLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function rawByteLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** The summary of a message: never its body, only a preview of at most INSPECTOR_PREVIEW_BYTES. */
export function summarise(
  webhookId: string,
  message: WebhookMessage,
  fields: Pick<WebhookEntry, 'method' | 'size' | 'routing' | 'delivered'>,
): { summary: WebhookEntry; full: Stored['full'] } {
  const headers = cutPairs(message.headers);
  const query = cutPairs(message.query);
  const routing = cutRouting(fields.routing);
  const bodyBytes = rawByteLength(message.rawBody);
  const summary: WebhookEntry = {
    webhookId,
    id: message.id,
    receivedAt: message.receivedAt.slice(0, 64),
    method: fields.method,
    size: fields.size,
    headers: headers.pairs,
    query: query.pairs,
    pairsCut: headers.cut || query.cut,
    bodyBytes,
    ...preview(message.rawBody),
    truncated: bodyBytes > INSPECTOR_PREVIEW_BYTES,
    routing: routing.routing,
    delivered: fields.delivered,
  };
  const cut = headers.cut || query.cut || routing.cut;
  return { summary, full: cut ? { headers: message.headers, query: message.query, routing: fields.routing } : null };
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
  const whole = rawByteLength(rawBody) <= INSPECTOR_PREVIEW_BYTES;
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
