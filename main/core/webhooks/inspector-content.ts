/**
 * What the inspector (webhook-inspector.ts) sends of an entry: its summary's content, bounded (headers and
 * query cut, a preview of the body, the routing decision cut), made from the kept body or fixed when none is.
 */
import { INSPECTOR_PREVIEW_BYTES, INSPECTOR_SUMMARY_MAX_PAIRS, INSPECTOR_SUMMARY_VALUE_CHARS, type WebhookEntry } from '../../../common/ipc-contract';
import type { RoutingDecision } from '../../../common/webhook-protocol';
import { type KeptBody, preview } from './inspector-body';

/** A routing value or reason longer than this (as JSON) is cut in a summary. */
const ROUTING_TEXT_CHARS = 1024;

/** What a request (headers, query, raw body) gives a summary. */
export type Content = Pick<WebhookEntry, 'headers' | 'query' | 'pairsCut' | 'bodyBytes' | 'preview' | 'previewKind' | 'truncated'>;
/** An entry's summary without its content: what patches change and filters read. */
export type Meta = Omit<WebhookEntry, keyof Content>;
export type Pairs = { headers: Record<string, string>; query: Record<string, string> };

/** A length that never throws: an unserialisable (or absurdly large) value counts as too large. */
export function serialisedLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** What a kept body and the whole pairs give an entry's summary: never the body, only a preview of at most INSPECTOR_PREVIEW_BYTES. */
export function keptContent(pairs: Pairs, body: KeptBody): Content {
  const headers = cutPairs(pairs.headers);
  const query = cutPairs(pairs.query);
  return {
    headers: headers.pairs,
    query: query.pairs,
    pairsCut: headers.cut || query.cut,
    bodyBytes: body.bytes,
    ...preview(body),
    truncated: body.bytes > INSPECTOR_PREVIEW_BYTES,
  };
}

/** An entry made from a tap event without the request: nothing of it is known but its size, until the delivery. */
export function awaitedContent(size: number): Content {
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

export function cutRouting(routing: RoutingDecision | null): { routing: RoutingDecision | null; cut: boolean } {
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
