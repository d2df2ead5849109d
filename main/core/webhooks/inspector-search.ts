/**
 * The inspector's search (webhook-inspector.ts; docs/webhooks-app.md, "Finding messages"): a page of summaries, newest
 * first, of the entries a filter keeps, and what the filters read of each entry.
 */
import {
  INSPECTOR_PAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_ENTRIES,
  type InspectorPage,
  type InspectorPageRequest,
  type WebhookEntry,
} from '../../../common/ipc-contract';
import { AppError } from '../../../common/app-error';
import type { KeyPath } from '../../../common/key-path';
import { compileFilter, type FilterableContent, hasUnplainNumber } from '../../../common/message-filter';
import { decodeBody, type KeptBody, lenientUtf8 } from './inspector-body';
import { type Stored, summaryOf, textOfPairs } from './inspector-entry';

/** Values at a key path (by its text), per kept body. */
type RememberedValues = Map<string, WeakMap<KeptBody, unknown>>;
/** Key paths whose values are kept between searches, and the longest string value kept. */
const REMEMBERED_PATHS = 2;
const REMEMBERED_STRING_CHARS = 256;

/** Key paths' values remembered between searches (the last REMEMBERED_PATHS), for `searchPage`. */
export const rememberedValues = (): RememberedValues => new Map();

/**
 * One page of `entries` (oldest first, as kept), newest first: those `request.filter` keeps, before
 * `request.before` (an entry's `seq`), within the page's bounds of entries and characters.
 */
export function searchPage(entries: Iterable<Stored>, { before, limit, filter }: InspectorPageRequest, remembered: RememberedValues): InspectorPage {
  const compiled = filter === undefined ? undefined : compileFilter(filter);
  if (compiled && !compiled.ok) throw new AppError('invalid-argument', `The key-path filter does not parse at ${compiled.position + 1}: ${compiled.message}.`);
  const page: WebhookEntry[] = [];
  let chars = 0;
  let last: Stored | undefined;
  const newestFirst = [...entries].reverse();
  const content = new StoredContent(remembered);
  let more = false;
  for (const stored of newestFirst) {
    if (before !== undefined && stored.seq >= before) continue;
    content.stored = stored;
    if (compiled && !compiled.test(stored.meta, content)) continue;
    if (page.length >= Math.min(limit, INSPECTOR_PAGE_MAX_ENTRIES)) {
      more = true;
      break;
    }
    const summary = summaryOf(stored);
    const size = JSON.stringify(summary).length + 1;
    if (page.length > 0 && chars + size > INSPECTOR_PAGE_MAX_CHARS) {
      more = true;
      break;
    }
    page.push(summary);
    chars += size;
    last = stored;
  }
  return { entries: page, nextCursor: more && last ? last.seq : null };
}

/**
 * What the filters read of an entry: the whole headers and query, and the body as text or decoded, each
 * only when asked. One reader is pointed at each entry in turn: nothing is made per entry.
 */
class StoredContent implements FilterableContent {
  stored!: Stored;
  constructor(private readonly remembered: RememberedValues) {}
  get headers() {
    return this.stored.pairs.headers;
  }
  get query() {
    return this.stored.pairs.query;
  }
  pairsText(): string {
    return textOfPairs(this.stored);
  }
  bodyEscaped(): boolean {
    const { body } = this.stored;
    return !body || !('text' in body) || body.escaped;
  }
  bodyHasUnplainNumber(): boolean {
    const { body } = this.stored;
    if (!body || !('text' in body)) return true;
    body.unplainNumber ??= hasUnplainNumber(body.text);
    return body.unplainNumber;
  }
  body(): unknown {
    const { body, pairs } = this.stored;
    return body ? decodeBody(body, pairs.headers['content-type']) : undefined;
  }
  /**
   * Kept per path (the last REMEMBERED_PATHS paths) and body: a new or dropped body is a new key, so a
   * value is never older than its body. Only numbers, booleans, null, nothing, and strings of at most
   * REMEMBERED_STRING_CHARS are kept, so the cache costs a few dozen bytes an entry and a path (a few
   * hundred at most), and goes with the body.
   */
  recall(path: KeyPath): { value: unknown } | undefined {
    const { body } = this.stored;
    if (!body) return undefined;
    const values = this.valuesOf(path.source);
    return values.has(body) ? { value: values.get(body) } : undefined;
  }
  keep(path: KeyPath, value: unknown): void {
    const { body } = this.stored;
    if (body && (typeof value === 'string' ? value.length <= REMEMBERED_STRING_CHARS : value === null || typeof value !== 'object'))
      this.valuesOf(path.source).set(body, value);
  }
  private path: { source: string; values: WeakMap<KeptBody, unknown> } | null = null;
  /** The values of a path: looked up once per search, and made the most recent path. */
  private valuesOf(source: string): WeakMap<KeptBody, unknown> {
    if (this.path?.source === source) return this.path.values;
    const values = this.remembered.get(source) ?? new WeakMap<KeptBody, unknown>();
    this.remembered.delete(source);
    this.remembered.set(source, values);
    if (this.remembered.size > REMEMBERED_PATHS) this.remembered.delete(this.remembered.keys().next().value!);
    this.path = { source, values };
    return values;
  }
  bodyText(): string {
    const { body, fixed } = this.stored;
    if (!body) return fixed?.preview ?? '';
    return 'text' in body ? body.text : lenientUtf8.decode(body.raw);
  }
}
