/**
 * Finding messages in the inspector (docs/webhooks-app.md, "Finding messages"): filters by outcome, webhook, method and time, a
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
import { bodyEncoding, type RoutingDecision } from './webhook-protocol';
import { canonicalKeyValue, evaluateKeyPath, type KeyPath, KeyPathError, type KeyPathInput, parseKeyPath } from './key-path';

export const OUTCOME_KINDS = ['rejected', 'this-app', 'on-its-way', 'dropped', 'other-hubs', 'no-match', 'not-seen'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** What became of an intake (the list's chip). */
export function outcomeKind(entry: Pick<FilterableMessage, 'routing' | 'delivered' | 'awaitingDelivery' | 'droppedByForwarder' | 'rejected'>): OutcomeKind {
  if (entry.rejected) return 'rejected';
  if (entry.delivered) return 'this-app';
  if (entry.droppedByForwarder) return 'dropped';
  if (entry.awaitingDelivery) return 'on-its-way';
  if (!entry.routing) return 'not-seen';
  return entry.routing.matched.length > 0 ? 'other-hubs' : 'no-match';
}

export const MESSAGE_FILTER_TEXT_MAX = 512;

export const MessageFilterSchema = z
  .object({
    outcomes: z.array(z.enum(OUTCOME_KINDS)).max(OUTCOME_KINDS.length).optional(),
    webhookIds: z.array(z.string().max(200)).max(100).optional(),
    methods: z
      .array(z.string().regex(/^[A-Z]{1,16}$/))
      .max(16)
      .optional(),
    /** ISO times, inclusive. */
    from: z.string().datetime().optional(),
    to: z.string().datetime().optional(),
    /** Case-insensitive (Unicode case folding), in header names and values, query names and values, and the body as text. */
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
  return matchesFound(condition, evaluateKeyPath(condition.path, input));
}

/** Whether what the condition's key path found (undefined: nothing) satisfies it. */
function matchesFound(condition: KeyPathCondition, found: unknown): boolean {
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

/** A time as `Date.prototype.toISOString` writes it (years 0–9999): such times compare as text. */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** What a message offers the filters: its summary fields. */
export interface FilterableMessage {
  webhookId: string;
  receivedAt: string;
  method: string | null;
  routing: RoutingDecision | null;
  delivered: boolean;
  awaitingDelivery: boolean;
  droppedByForwarder?: boolean;
  rejected?: unknown;
}

/**
 * A message's content, for text and key paths: the whole headers and query, and the body as text and
 * decoded, each only when asked (a text found in a header never reads the body; a key path whose value
 * cannot be in the body's text never decodes it).
 */
export interface FilterableContent {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Header and query names and values, one a line: what a text search reads besides the body. */
  pairsText(): string;
  body(): unknown;
  bodyText(): string;
  /** The body's text has a backslash: an escape may hide a name or a value from a plain search. */
  bodyEscaped(): boolean;
  /** Whether the body's text has a number that may not hold the shortest form of its value (`hasUnplainNumber`); a content may remember it. */
  bodyHasUnplainNumber(): boolean;
  /**
   * The value found at a key path of the body by an earlier search, when the content kept it (a
   * filtered list is searched again as messages arrive); `keep` offers it one found now.
   */
  recall?(path: KeyPath): { value: unknown } | undefined;
  keep?(path: KeyPath, value: unknown): void;
}

/** `content` is read only when the filter has text or a key path (getters and methods: nothing is made per message). */
export type CompiledFilter =
  { ok: true; test: (message: FilterableMessage, content: FilterableContent) => boolean } | { ok: false; message: string; position: number };

/** A filter ready to run many times: its key-path condition parsed and its text lower-cased once. */
export function compileFilter(filter: MessageFilter): CompiledFilter {
  const parsed = filter.keyPath === undefined ? undefined : parseKeyPathCondition(filter.keyPath);
  if (parsed && !parsed.ok) return parsed;
  const condition = parsed?.condition;
  const needle = condition && bodyNeedle(condition);
  // Case-insensitive without lower-casing each message (no copy of every body per search).
  const text = filter.text === undefined ? undefined : new RegExp(filter.text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'iu');
  const outcomes = filter.outcomes && new Set(filter.outcomes);
  const webhookIds = filter.webhookIds && new Set(filter.webhookIds);
  const methods = filter.methods && new Set(filter.methods);
  const from = filter.from === undefined ? undefined : Date.parse(filter.from);
  const to = filter.to === undefined ? undefined : Date.parse(filter.to);
  // Times as toISOString writes them (the forwarder's) compare as text: no parse per message.
  const fromIso = from === undefined ? undefined : new Date(from).toISOString();
  const toIso = to === undefined ? undefined : new Date(to).toISOString();
  return {
    ok: true,
    test(message, content) {
      if (webhookIds && !webhookIds.has(message.webhookId)) return false;
      if (methods && !methods.has(message.method ?? '')) return false;
      if (outcomes && !outcomes.has(outcomeKind(message))) return false;
      if (from !== undefined || to !== undefined) {
        const at = message.receivedAt;
        if (ISO_UTC.test(at)) {
          if ((fromIso !== undefined && at < fromIso) || (toIso !== undefined && at > toIso)) return false;
        } else {
          const ms = Date.parse(at);
          if (Number.isNaN(ms) || (from !== undefined && ms < from) || (to !== undefined && ms > to)) return false;
        }
      }
      if (text === undefined && !condition) return true;
      if (condition && !satisfies(condition, needle, content)) return false;
      return text === undefined || containsText(content, text);
    },
  };
}

function satisfies(condition: KeyPathCondition, needle: BodyNeedle | undefined, content: FilterableContent): boolean {
  const { path } = condition;
  if (path.root !== 'body') return matchesCondition(condition, { headers: content.headers, query: content.query, body: undefined });
  const recalled = content.recall?.(path);
  if (recalled) return matchesFound(condition, recalled.value);
  // A JSON body that cannot hold the value (or the key) the condition looks for is not decoded: the
  // path then finds nothing, which `!=` matches and `==` and `exists` do not.
  if (needle !== undefined && isJson(content.headers['content-type']) && !content.bodyEscaped()) {
    const text = content.bodyText();
    if (!text.includes(needle.text) && !(needle.numeric && content.bodyHasUnplainNumber())) return condition.op === '!=';
  }
  const found = evaluateKeyPath(path, { headers: content.headers, query: content.query, body: content.body() });
  content.keep?.(path, found);
  return matchesFound(condition, found);
}

/**
 * Text that a JSON body must contain for the condition to find something, when there is one: the last
 * property name of the path with its closing quote, for `exists`; for `==`/`!=`, the value with its
 * closing quote (a string), as it is for true and false (the literal or the string matches them), or
 * for a number its shortest form, which any other form contains unless it has an exponent or more than
 * 15 digits (1e2 is 100: a body with such a number is decoded). Without escapes (a body with a backslash is always
 * decoded), a JSON string holds its characters as they are. The opening quote is left out: a search
 * that starts with `"`, JSON's most common character, is many times slower.
 */
export function bodyNeedle(condition: KeyPathCondition): BodyNeedle | undefined {
  if (condition.op === 'exists') {
    const name = condition.path.segments.findLast((segment): segment is string => typeof segment === 'string');
    return name === undefined ? undefined : { text: JSON.stringify(name).slice(1), numeric: false };
  }
  const canonical = canonicalKeyValue(condition.value);
  if (canonical === undefined || canonical.trim() === '') return undefined;
  const number = Number(canonical);
  if (!Number.isNaN(number)) return String(number) === canonical && !/[eE]/.test(canonical) ? { text: canonical, numeric: true } : undefined;
  return { text: canonical === 'true' || canonical === 'false' ? canonical : JSON.stringify(canonical).slice(1), numeric: false };
}

type BodyNeedle = { text: string; numeric: boolean };
/**
 * A JSON number that may not hold the shortest form of its value: in exponent form, or with 16 or more
 * digits (up to 15 significant digits a decimal is what it reads; beyond, 9007199254740993 is read as
 * …992 and 0.09999999999999999999 as 0.1).
 */
const EXPONENT_OR_LONG = /\d[eE]|\d[\d.]{15}/;

/** Whether a JSON text has a number in exponent form or with more than 15 digits (a scan of the whole text: worth remembering). */
export function hasUnplainNumber(text: string): boolean {
  return EXPONENT_OR_LONG.test(text);
}

function containsText(content: FilterableContent, text: RegExp): boolean {
  return text.test(content.pairsText()) || text.test(content.bodyText());
}

/** Names and values, one a line (`name: value`), as `pairsText` gives them. */
export function pairsText(headers: Record<string, string>, query: Record<string, string>): string {
  const lines: string[] = [];
  for (const pairs of [headers, query]) for (const name in pairs) lines.push(`${name}: ${pairs[name]}`);
  return lines.join('\n');
}

/** Whether a content type is JSON's (bodyEncoding remembers it per content type). */
function isJson(contentType: string | undefined): boolean {
  return bodyEncoding(contentType) === 'json';
}
