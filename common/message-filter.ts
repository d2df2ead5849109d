/**
 * Finding messages in the inspector (issue 14 §4): filters by outcome, webhook, method and time, a
 * full-text search over headers, query and body, and a key-path condition written with the
 * forwarder's own key-path parser and comparison:
 *
 *   body.device.id == "lamp-1"     (or == lamp-1: a bare word is a string; == 5 matches "5" too)
 *   headers['x-kind'] != test
 *   query.hub exists
 *
 * The value after `==`/`!=` is JSON, or a bare word; it is compared as the forwarder compares `$key`
 * values (`canonicalKeyValue`), and an object or array by its JSON. Errors carry their position.
 * Pure and shared: main runs the filters over what it keeps, the window checks what the user types.
 */
import { z } from 'zod';
import type { RoutingDecision } from './webhook-protocol';
import { canonicalKeyValue, evaluateKeyPath, type KeyPath, KeyPathError, type KeyPathInput, parseKeyPath } from './key-path';

export const OUTCOME_KINDS = ['rejected', 'this-app', 'on-its-way', 'other-hubs', 'no-match', 'not-seen'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** What became of an intake (the list's chip). */
export function outcomeKind(entry: { routing: RoutingDecision | null; delivered: boolean; awaitingDelivery: boolean; rejected?: unknown }): OutcomeKind {
  if (entry.rejected) return 'rejected';
  if (entry.delivered) return 'this-app';
  if (entry.awaitingDelivery) return 'on-its-way';
  if (!entry.routing) return 'not-seen';
  return entry.routing.matched.length > 0 ? 'other-hubs' : 'no-match';
}

export const MESSAGE_FILTER_TEXT_MAX = 512;

export const MessageFilterSchema = z
  .object({
    outcomes: z.array(z.enum(OUTCOME_KINDS)).max(OUTCOME_KINDS.length).optional(),
    webhookIds: z.array(z.string().max(200)).max(100).optional(),
    methods: z.array(z.string().regex(/^[A-Z]{1,16}$/)).max(16).optional(),
    /** ISO times, inclusive. */
    from: z.string().datetime().optional(),
    to: z.string().datetime().optional(),
    /** Case-insensitive, in header names and values, query names and values, and the body as text. */
    text: z.string().min(1).max(MESSAGE_FILTER_TEXT_MAX).optional(),
    /** A key-path condition (parseKeyPathCondition). */
    keyPath: z.string().min(1).max(MESSAGE_FILTER_TEXT_MAX).optional(),
  })
  .strict();
export type MessageFilter = z.infer<typeof MessageFilterSchema>;

export type KeyPathCondition = { path: KeyPath } & ({ op: 'exists' } | { op: '==' | '!='; value: unknown });

export type ConditionParse = { ok: true; condition: KeyPathCondition } | { ok: false; message: string; position: number };

/** `<key path> exists`, `<key path> == <value>` or `<key path> != <value>`. */
export function parseKeyPathCondition(text: string): ConditionParse {
  const end = keyPathEnd(text);
  let path: KeyPath;
  try {
    path = parseKeyPath(text.slice(0, end));
  } catch (error) {
    if (error instanceof KeyPathError) return { ok: false, message: error.message, position: error.position };
    throw error;
  }
  const rest = text.slice(end);
  const restStart = end + (rest.length - rest.trimStart().length);
  const operator = rest.trim();
  if (operator === '' || operator === 'exists') return { ok: true, condition: { path, op: 'exists' } };
  const op = operator.startsWith('==') ? '==' : operator.startsWith('!=') ? '!=' : undefined;
  if (op === undefined) return { ok: false, message: 'expected exists, == or != after the key path', position: restStart };
  const valueText = operator.slice(2).trim();
  const valueStart = restStart + 2 + (operator.slice(2).length - operator.slice(2).trimStart().length);
  if (valueText === '') return { ok: false, message: `expected a value after ${op}`, position: valueStart };
  const value = conditionValue(valueText);
  if (value === undefined) return { ok: false, message: 'expected a JSON value or a bare word', position: valueStart };
  return { ok: true, condition: { path, op, value: value.value } };
}

/** Whether a message's headers, query and body satisfy the condition. */
export function matchesCondition(condition: KeyPathCondition, input: KeyPathInput): boolean {
  const found = evaluateKeyPath(condition.path, input);
  if (condition.op === 'exists') return found !== undefined;
  const same = found !== undefined && sameValue(found, condition.value);
  return condition.op === '==' ? same : !same;
}

/** Where the key path ends: at the first space, `=` or `!` outside a quoted string. */
function keyPathEnd(text: string): number {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ' ' || c === '\t' || c === '=' || c === '!') return i;
  }
  return text.length;
}

function conditionValue(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return /^[\p{L}\p{N}_.:@/+-]+$/u.test(text) ? { value: text } : undefined;
  }
}

function sameValue(found: unknown, wanted: unknown): boolean {
  const a = canonicalKeyValue(found);
  const b = canonicalKeyValue(wanted);
  if (a !== undefined && b !== undefined) return a === b;
  if (a !== undefined || b !== undefined) return false;
  try {
    return JSON.stringify(found) === JSON.stringify(wanted);
  } catch {
    return false;
  }
}

/** What a message offers the filters: its summary fields and, for text and key paths, its content. */
export interface FilterableMessage {
  webhookId: string;
  receivedAt: string;
  method: string | null;
  routing: RoutingDecision | null;
  delivered: boolean;
  awaitingDelivery: boolean;
  rejected?: unknown;
  /**
   * Called only when the filter needs it (text or key path): headers, query, and the body decoded or
   * as text, each decoded only when asked (a text search found in a header never decodes the body).
   */
  content(): { headers: Record<string, string>; query: Record<string, string>; body(): unknown; bodyText(): string } | undefined;
}

/** A filter ready to run many times: its key-path condition parsed and its text lower-cased once. */
export function compileFilter(filter: MessageFilter): { ok: true; test: (message: FilterableMessage) => boolean } | { ok: false; message: string; position: number } {
  const condition = filter.keyPath === undefined ? undefined : parseKeyPathCondition(filter.keyPath);
  if (condition && !condition.ok) return condition;
  const text = filter.text?.toLowerCase();
  const outcomes = filter.outcomes && new Set(filter.outcomes);
  const webhookIds = filter.webhookIds && new Set(filter.webhookIds);
  const methods = filter.methods && new Set(filter.methods);
  const from = filter.from === undefined ? undefined : Date.parse(filter.from);
  const to = filter.to === undefined ? undefined : Date.parse(filter.to);
  return {
    ok: true,
    test(message) {
      if (webhookIds && !webhookIds.has(message.webhookId)) return false;
      if (methods && !methods.has(message.method ?? '')) return false;
      if (outcomes && !outcomes.has(outcomeKind(message))) return false;
      if (from !== undefined || to !== undefined) {
        const at = Date.parse(message.receivedAt);
        if (Number.isNaN(at) || (from !== undefined && at < from) || (to !== undefined && at > to)) return false;
      }
      if (text === undefined && !condition) return true;
      const content = message.content();
      if (!content) return false;
      if (condition) {
        const { path } = condition.condition;
        const input = { headers: content.headers, query: content.query, body: path.root === 'body' ? content.body() : undefined };
        if (!matchesCondition(condition.condition, input)) return false;
      }
      return text === undefined || containsText(content, text);
    },
  };
}

function containsText(content: NonNullable<ReturnType<FilterableMessage['content']>>, lowerText: string): boolean {
  const has = (value: string) => value.toLowerCase().includes(lowerText);
  for (const pairs of [content.headers, content.query]) {
    for (const [name, value] of Object.entries(pairs)) if (has(name) || has(value)) return true;
  }
  return has(content.bodyText());
}
