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
  DROPPED_BY_FORWARDER,
  type InspectorPage,
  type InspectorPageRequest,
  type SignatureVerdict,
  type WebhookEntry,
  type WebhookEntryPatch,
  type WebhookFullMessage,
  type WebhookMessageResult,
} from '../../../common/ipc-contract';
import { AppError } from '../../../common/app-error';
import { base64ByteLength } from '../../../common/base64';
import type { KeyPath } from '../../../common/key-path';
import { compileFilter, type FilterableContent, hasUnplainNumber, pairsText } from '../../../common/message-filter';
import { bodyEncoding, type DroppedNotice, firstValues, type RawWebhookMessage, type RoutingDecision, type TapEvent } from '../../../common/webhook-protocol';
import { forwarderSequence } from '../../../common/intake-order';

export const MAIN_INSPECTOR_CAPACITY = 1000;
export const MAIN_INSPECTOR_BUDGET_BYTES = 64 * 1024 * 1024;
/** Accounted per entry besides its strings: the objects and the map slots. */
const ENTRY_OVERHEAD_BYTES = 480;
/** A routing value or reason longer than this (as JSON) is cut in a summary. */
const ROUTING_TEXT_CHARS = 1024;

export const GONE_EVICTED =
  'Hubdesk no longer keeps this message’s body: newer messages took its place (main keeps at most 64 MiB of them). The preview is all that is left.';
export const GONE_UNKNOWN = 'Hubdesk no longer keeps this message (it was cleared, or newer messages took its place).';
export const GONE_DROPPED = DROPPED_BY_FORWARDER;
export const GONE_AWAITING = 'This message was routed to this app, and its delivery has not arrived yet: its headers and body come with it.';

/** What an intake's copy changed: a new entry, a patch of one already sent, or nothing. */
export type InspectorChange = { kind: 'entry'; entry: WebhookEntry } | { kind: 'patch'; patch: WebhookEntryPatch } | null;

/**
 * What the inspector learns of a body by reading all of it, once, when it keeps it: saved with the
 * message (webhook-history.ts) so a history read back at start need not read every body again.
 */
export interface BodyFacts {
  /** The body has a number in exponent form or with more than 15 digits (`hasUnplainNumber`). */
  unplainNumber: boolean;
}

export interface WebhookInspector {
  /** `at`: when it arrived here (ms; now by default), what `prune` goes by; `facts`: the body's, as `bodyFacts` gave them before. */
  tapped(webhookId: string, event: TapEvent, at?: number, facts?: BodyFacts): InspectorChange;
  delivered(webhookId: string, message: RawWebhookMessage, at?: number, facts?: BodyFacts): InspectorChange;
  /**
   * The forwarder dropped this app's undelivered messages of the webhook up to `notice.through` (forwarder
   * order, common/intake-order.ts): each entry still awaiting its delivery among them is marked
   * `droppedByForwarder`, and so is one a later tap event makes (its event may come after the notice).
   * A patch per entry marked.
   */
  dropped(webhookId: string, notice: DroppedNotice): WebhookEntryPatch[];
  /** A message read from a file: a new entry, or null when one with its webhook id and id is already kept. */
  imported(message: ArchivedMessage, at?: number, facts?: BodyFacts): InspectorChange;
  /** The facts of a message's kept body; undefined while no body is kept. */
  bodyFacts(webhookId: string, id: string): BodyFacts | undefined;
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
  /**
   * Everything kept, for a checkpoint (history-checkpoint.ts), as it is at the call: each entry's parts are
   * replaced, never changed in place, when it changes later, so the state may be written out meanwhile.
   */
  exportState(): InspectorState;
  /**
   * Keeps a checkpoint's state in place of what is kept (at start, before any message). Parts still in
   * their text are read with `decode` when first needed (null: they do not read; the entry is then shown
   * with its id and time only), or by `readRestored`.
   */
  restoreState(state: InspectorState, decode: (text: Buffer) => EntryParts | null): void;
  /** Reads the parts of up to `limit` restored entries still in their text; answers how many are left. */
  readRestored(limit: number): number;
}

/** What an entry keeps besides its body and figures. */
export interface EntryParts {
  meta: Meta;
  pairs: Pairs;
  fixed: Content | null;
  fullRouting: RoutingDecision | null;
  archivedSignature?: SignatureVerdict;
}

/** An entry as a checkpoint keeps it: what the inspector keeps of it, its body included. */
export interface SavedEntry {
  arrivedAt: number;
  webhookId: string;
  id: string;
  awaitingDelivery: boolean;
  evicted: boolean;
  entryBytes: number;
  bodyBytes: number;
  body: KeptBody | null;
  /** Its parts, or their text (UTF-8) as a checkpoint keeps it when it was restored and not read since. */
  parts: EntryParts | Buffer;
}

/** The inspector's whole state (a checkpoint's, docs/webhooks-app.md "History"): entries oldest first. */
export interface InspectorState {
  entries: SavedEntry[];
  /** Indices into `entries` of those whose body is kept, in the order the budget drops them. */
  bodyOrder: number[];
  /** Per webhook, the newest sequence the forwarder said it dropped for this app. */
  droppedThrough: Array<[webhookId: string, sequence: string]>;
}

export interface ReceivedMessage {
  method: string | null;
  receivedAt: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Base64. */
  rawBody: string;
  /** Read from a file: `receivedAt` is only what the file says. */
  imported?: boolean;
}

/** What a request (headers, query, raw body) gives a summary. */
export type Content = Pick<WebhookEntry, 'headers' | 'query' | 'pairsCut' | 'bodyBytes' | 'preview' | 'previewKind' | 'truncated'>;
/** An entry's summary without its content: what patches change and filters read. */
export type Meta = Omit<WebhookEntry, keyof Content>;
export type Pairs = { headers: Record<string, string>; query: Record<string, string> };
/**
 * A kept body: its text when its bytes are UTF-8 (searched as it is, and one byte a character in V8
 * when it is ASCII), else its bytes. Either gives back exactly the bytes received.
 */
export type KeptBody = { text: string; bytes: number; escaped: boolean; unplainNumber?: boolean } | { raw: Buffer; bytes: number };

interface Stored {
  seq: number;
  /** When the entry was made here (ms). */
  arrivedAt: number;
  meta: Meta;
  /** The whole headers and query as received (empty while awaiting the delivery). */
  pairs: Pairs;
  /** `pairs` as one text, for searches: made with them, or on the first search after a checkpoint was read (null until then). */
  pairsText: string | null;
  body: KeptBody | null;
  /** The summary's content while no body is kept (awaiting the delivery, or the body dropped): made once. */
  fixed: Content | null;
  /**
   * The budget dropped its body. It is not taken back from a re-delivery: the entry keeps its place
   * among the oldest, and taking the body back would only evict a newer one.
   */
  evicted: boolean;
  /** The whole routing decision when the summary had to cut it. */
  fullRouting: RoutingDecision | null;
  /** Imported: the signature check its file says was made. */
  archivedSignature?: SignatureVerdict;
  /** What the entry is accounted without its body, and with it. */
  entryBytes: number;
  bodyBytes: number;
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
  const remembered: RememberedValues = new Map();
  const keyOf = (webhookId: string, id: string) => `${webhookId}\n${id}`;
  /** Keys of the entries made awaiting their delivery (some since delivered, dropped or gone: checked when read). */
  const awaiting = new Set<string>();
  /** Per webhook, the sequence (forwarderSequence) of the newest message the forwarder said it dropped for this app. */
  const droppedThrough = new Map<string, string>();
  /** Not delivered, and taken at or before what the forwarder said it dropped. */
  const droppedBefore = (meta: Meta, through: string | undefined) => {
    const sequence = forwarderSequence(meta.id);
    return through !== undefined && sequence !== undefined && !meta.delivered && sequence <= through;
  };

  /** Re-accounts the entry without its body (its meta, pairs and fixed content changed). */
  const reaccount = (stored: Stored) => {
    const entryBytes =
      ENTRY_OVERHEAD_BYTES + JSON.stringify(stored.meta).length + 2 * textOfPairs(stored).length + (stored.fixed ? JSON.stringify(stored.fixed).length : 0);
    bytes += entryBytes - stored.entryBytes;
    stored.entryBytes = entryBytes;
  };
  const dropBody = (key: string) => {
    const stored = entries.get(key);
    bodies.delete(key);
    if (!stored?.body) return;
    stored.fixed = keptContent(stored.pairs, stored.body);
    bytes -= stored.bodyBytes;
    stored.body = null;
    stored.bodyBytes = 0;
    stored.evicted = true;
    reaccount(stored);
  };
  const dropEntry = (key: string) => {
    const stored = entries.get(key);
    if (!stored) return;
    bodies.delete(key);
    bytes -= stored.entryBytes + stored.bodyBytes;
    entries.delete(key);
  };
  const enforce = () => {
    while (entries.size > capacity) dropEntry(entries.keys().next().value as string);
    while (bytes > budget && bodies.size > 0) dropBody(bodies.values().next().value as string);
    while (bytes > budget && entries.size > 0) dropEntry(entries.keys().next().value as string);
  };

  /** Keeps the body unless one was evicted before or it cannot fit at all; then re-accounts and enforces the bounds. */
  const keep = (key: string, stored: Stored, rawBody: string | undefined, facts: BodyFacts | undefined) => {
    if (rawBody !== undefined && !stored.body && !stored.evicted) {
      const body = keptBody(rawBody);
      const cost = bodyCost(body);
      if (cost + stored.entryBytes <= budget) {
        // Read now, while the message arrives one at a time, rather than all at once on a first search.
        if ('text' in body) body.unplainNumber = facts?.unplainNumber ?? hasUnplainNumber(body.text);
        stored.body = body;
        stored.bodyBytes = cost;
        stored.fixed = null;
        bytes += cost;
        bodies.add(key);
      } else {
        stored.fixed = keptContent(stored.pairs, body);
      }
    }
    reaccount(stored);
    enforce();
  };

  const create = (
    key: string,
    meta: Meta,
    extra: Pick<Stored, 'pairs' | 'fixed' | 'fullRouting' | 'arrivedAt' | 'archivedSignature'>,
    rawBody: string | undefined,
    facts: BodyFacts | undefined,
  ): InspectorChange => {
    const stored: Stored = {
      seq: nextSeq++,
      meta,
      pairsText: pairsText(extra.pairs.headers, extra.pairs.query),
      body: null,
      evicted: false,
      entryBytes: 0,
      bodyBytes: 0,
      ...extra,
    };
    entries.set(key, stored);
    keep(key, stored, rawBody, facts);
    // The summary is made when it is read: a history read back at start never reads it.
    return {
      kind: 'entry',
      get entry() {
        return summaryOf(stored);
      },
    };
  };

  const patch = (key: string, stored: Stored, changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'>): InspectorChange => {
    if (Object.keys(changes).length === 0) return null;
    const { headers: _h, query: _q, pairsCut: _p, bodyBytes: _b, preview: _v, previewKind: _k, truncated: _t, ...metaChanges } = changes;
    stored.meta = { ...stored.meta, ...metaChanges };
    if (!stored.meta.awaitingDelivery) awaiting.delete(key);
    reaccount(stored);
    enforce();
    return { kind: 'patch', patch: { webhookId: stored.meta.webhookId, id: stored.meta.id, ...changes } };
  };

  /** The entries restored from a checkpoint, to read their parts in the background (`readRestored`), and how many are read. */
  let restored: RestoredEntry[] = [];
  let restoredRead = 0;
  const forgetEverything = () => {
    entries.clear();
    bodies.clear();
    awaiting.clear();
    droppedThrough.clear();
    bytes = 0;
  };

  return {
    tapped(webhookId, event, arrivedAt = Date.now(), facts) {
      const key = keyOf(webhookId, event.id);
      const routing = cutRouting(event.routing);
      const fullRouting = routing.cut ? event.routing : null;
      const known = entries.get(key);
      if (!known) {
        const meta: Meta = {
          webhookId,
          id: event.id,
          receivedAt: event.receivedAt.slice(0, 64),
          method: event.method,
          size: event.size,
          routing: routing.routing,
          delivered: false,
          awaitingDelivery: !event.request && !event.rejected,
          ...(event.rejected && { rejected: event.rejected }),
        };
        if (meta.awaitingDelivery && droppedBefore(meta, droppedThrough.get(webhookId))) {
          meta.awaitingDelivery = false;
          meta.droppedByForwarder = true;
        }
        if (meta.awaitingDelivery) awaiting.add(key);
        const pairs = event.request ? { headers: event.request.headers, query: event.request.query } : { headers: {}, query: {} };
        return create(key, meta, { pairs, fixed: event.request ? null : awaitedContent(event.size), fullRouting, arrivedAt }, event.request?.rawBody, facts);
      }
      // The delivery came first: the tap adds what only it knows. A tap event is never sent twice.
      const changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'> = {};
      if (known.meta.method === null) changes.method = event.method;
      if (known.meta.routing === null) {
        changes.routing = routing.routing;
        known.fullRouting = fullRouting;
      }
      return patch(key, known, changes);
    },
    delivered(webhookId, message, arrivedAt = Date.now(), facts) {
      const key = keyOf(webhookId, message.id);
      const known = entries.get(key);
      const pairs = { headers: message.headers, query: message.query };
      if (!known) {
        const meta: Meta = {
          webhookId,
          id: message.id,
          receivedAt: message.receivedAt.slice(0, 64),
          method: null,
          size: base64ByteLength(message.rawBody),
          routing: null,
          delivered: true,
          awaitingDelivery: false,
        };
        return create(key, meta, { pairs, fixed: null, fullRouting: null, arrivedAt }, message.rawBody, facts);
      }
      const changes: Omit<WebhookEntryPatch, 'webhookId' | 'id'> = {};
      if (!known.meta.delivered) changes.delivered = true;
      if (!known.meta.awaitingDelivery) return patch(key, known, changes);
      // The tap's event came first without the request: the delivery brings it.
      known.pairs = pairs;
      known.pairsText = pairsText(pairs.headers, pairs.query);
      known.fixed = null;
      keep(key, known, message.rawBody, facts);
      return patch(key, known, { ...changes, ...contentOf(known), awaitingDelivery: false });
    },
    dropped(webhookId, notice) {
      const through = forwarderSequence(notice.through);
      if (through === undefined) return [];
      if (through > (droppedThrough.get(webhookId) ?? '')) droppedThrough.set(webhookId, through);
      const patches: WebhookEntryPatch[] = [];
      for (const key of awaiting) {
        const stored = entries.get(key);
        if (!stored?.meta.awaitingDelivery) {
          awaiting.delete(key);
          continue;
        }
        if (stored.meta.webhookId !== webhookId || !droppedBefore(stored.meta, through)) continue;
        const change = patch(key, stored, { awaitingDelivery: false, droppedByForwarder: true });
        if (change?.kind === 'patch') patches.push(change.patch);
      }
      return patches;
    },
    imported(message, arrivedAt = Date.now(), facts) {
      const key = keyOf(message.webhookId, message.id);
      if (entries.has(key)) return null;
      const routing = cutRouting(message.routing);
      const meta: Meta = {
        webhookId: message.webhookId,
        id: message.id,
        receivedAt: message.receivedAt,
        method: message.method,
        size: message.size ?? base64ByteLength(message.rawBody),
        routing: routing.routing,
        delivered: message.delivered,
        awaitingDelivery: false,
        imported: true,
        ...(message.rejected && { rejected: message.rejected }),
      };
      const pairs = { headers: message.headers, query: message.query };
      const extra = { pairs, fixed: null, fullRouting: routing.cut ? message.routing : null, arrivedAt, archivedSignature: message.signature };
      return create(key, meta, extra, message.rawBody, facts);
    },
    snapshot({ before, limit, filter }) {
      const compiled = filter === undefined ? undefined : compileFilter(filter);
      if (compiled && !compiled.ok)
        throw new AppError('invalid-argument', `The key-path filter does not parse at ${compiled.position + 1}: ${compiled.message}.`);
      const page: WebhookEntry[] = [];
      let chars = 0;
      let last: Stored | undefined;
      const newestFirst = [...entries.values()].reverse();
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
    },
    message(webhookId, id) {
      const stored = entries.get(keyOf(webhookId, id));
      if (!stored) return { status: 'gone', reason: GONE_UNKNOWN };
      if (!stored.body)
        return { status: 'gone', reason: stored.meta.awaitingDelivery ? GONE_AWAITING : stored.meta.droppedByForwarder ? GONE_DROPPED : GONE_EVICTED };
      return { status: 'kept', message: fullMessage(stored, stored.body) };
    },
    bodyFacts(webhookId, id) {
      const body = entries.get(keyOf(webhookId, id))?.body;
      if (!body) return undefined;
      return { unplainNumber: 'text' in body ? (body.unplainNumber ??= hasUnplainNumber(body.text)) : true };
    },
    source(webhookId, id) {
      const stored = entries.get(keyOf(webhookId, id));
      if (!stored?.body) return undefined;
      return {
        method: stored.meta.method,
        receivedAt: stored.meta.receivedAt,
        ...stored.pairs,
        rawBody: base64Of(stored.body),
        imported: stored.meta.imported === true,
      };
    },
    clear: forgetEverything,
    forget(webhookId) {
      droppedThrough.delete(webhookId);
      // By the key (`webhookId\nid`): a restored entry's parts need not be read for it.
      const prefix = keyOf(webhookId, '');
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) dropEntry(key);
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
    exportState() {
      const saved: SavedEntry[] = [];
      const indexOf = new Map<string, number>();
      for (const [key, stored] of entries) {
        indexOf.set(key, saved.length);
        const { arrivedAt, evicted, body, entryBytes, bodyBytes } = stored;
        const { webhookId, id, awaitingDelivery } = stored instanceof RestoredEntry ? stored.identity() : stored.meta;
        saved.push({ arrivedAt, webhookId, id, awaitingDelivery, evicted, body, entryBytes, bodyBytes, parts: partsOf(stored) });
      }
      return { entries: saved, bodyOrder: [...bodies].map((key) => indexOf.get(key)!), droppedThrough: [...droppedThrough] };
    },
    restoreState(state, decode) {
      forgetEverything();
      restored = [];
      restoredRead = 0;
      const keys: string[] = [];
      for (const saved of state.entries) {
        const key = keyOf(saved.webhookId, saved.id);
        keys.push(key);
        const stored = new RestoredEntry(nextSeq++, saved, decode);
        entries.set(key, stored);
        restored.push(stored);
        if (saved.awaitingDelivery) awaiting.add(key);
        bytes += saved.entryBytes + saved.bodyBytes;
      }
      for (const index of state.bodyOrder) bodies.add(keys[index]!);
      for (const [webhookId, sequence] of state.droppedThrough) droppedThrough.set(webhookId, sequence);
      enforce();
    },
    readRestored(limit) {
      const end = Math.min(restored.length, restoredRead + limit);
      for (; restoredRead < end; restoredRead++) restored[restoredRead]!.read();
      const left = restored.length - restoredRead;
      if (left === 0) {
        restored = [];
        restoredRead = 0;
      }
      return left;
    },
  };
}

/**
 * An entry restored from a checkpoint: its parts stay the checkpoint's text until first read (reading
 * 100,000 entries' parts at start was half of the start's time), and the rest is at hand.
 */
class RestoredEntry implements Stored {
  seq: number;
  arrivedAt: number;
  pairsText: string | null = null;
  body: KeptBody | null;
  evicted: boolean;
  entryBytes: number;
  bodyBytes: number;
  readonly webhookId: string;
  readonly id: string;
  readonly awaitingDelivery: boolean;
  private parts: EntryParts | null = null;
  private text: Buffer | null;
  constructor(
    seq: number,
    saved: SavedEntry,
    private readonly decode: (text: Buffer) => EntryParts | null,
  ) {
    this.seq = seq;
    this.arrivedAt = saved.arrivedAt;
    this.body = saved.body;
    this.evicted = saved.evicted;
    this.entryBytes = saved.entryBytes;
    this.bodyBytes = saved.bodyBytes;
    this.webhookId = saved.webhookId;
    this.id = saved.id;
    this.awaitingDelivery = saved.awaitingDelivery;
    if (Buffer.isBuffer(saved.parts)) this.text = saved.parts;
    else {
      this.text = null;
      this.parts = saved.parts;
    }
  }
  /** Its parts, read from their text the first time. */
  read(): EntryParts {
    if (this.parts) return this.parts;
    this.parts = this.decode(this.text!) ?? this.unreadable();
    this.text = null;
    return this.parts;
  }
  /** What it is known by, without reading its parts (they may have changed it since: then theirs). */
  identity(): Pick<Meta, 'webhookId' | 'id' | 'awaitingDelivery'> {
    return this.parts?.meta ?? this;
  }
  /** Its parts, or their text while they were never read. */
  saved(): EntryParts | Buffer {
    return this.parts ?? this.text!;
  }
  /** Parts that do not read: the entry is listed by its id and time, with nothing else. */
  private unreadable(): EntryParts {
    const receivedAt = new Date(this.arrivedAt).toISOString();
    const meta: Meta = { webhookId: this.webhookId, id: this.id, receivedAt, method: null, size: 0, routing: null, delivered: false, awaitingDelivery: false };
    return { meta, pairs: { headers: {}, query: {} }, fixed: this.body ? null : awaitedContent(0), fullRouting: null };
  }
  get meta(): Meta {
    return this.read().meta;
  }
  set meta(meta: Meta) {
    this.read().meta = meta;
  }
  get pairs(): Pairs {
    return this.read().pairs;
  }
  set pairs(pairs: Pairs) {
    this.read().pairs = pairs;
  }
  get fixed(): Content | null {
    return this.read().fixed;
  }
  set fixed(fixed: Content | null) {
    this.read().fixed = fixed;
  }
  get fullRouting(): RoutingDecision | null {
    return this.read().fullRouting;
  }
  set fullRouting(routing: RoutingDecision | null) {
    this.read().fullRouting = routing;
  }
  get archivedSignature(): SignatureVerdict | undefined {
    return this.read().archivedSignature;
  }
}

/** What an entry keeps besides its body and figures, as a checkpoint saves it. */
function partsOf(stored: Stored): EntryParts | Buffer {
  if (stored instanceof RestoredEntry) return stored.saved();
  const { meta, pairs, fixed, fullRouting, archivedSignature } = stored;
  return { meta, pairs, fixed, fullRouting, ...(archivedSignature && { archivedSignature }) };
}

/** The entry's headers and query as one text, made when first needed. */
function textOfPairs(stored: Stored): string {
  return (stored.pairsText ??= pairsText(stored.pairs.headers, stored.pairs.query));
}

/** The summary sent to the window: the meta and the content (made from the kept body, or the fixed one). */
function summaryOf(stored: Stored): WebhookEntry {
  return { ...stored.meta, ...contentOf(stored) };
}

function contentOf(stored: Stored): Content {
  return stored.body ? keptContent(stored.pairs, stored.body) : stored.fixed!;
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

function fullMessage(stored: Stored, kept: KeptBody): WebhookFullMessage {
  const { meta, pairs } = stored;
  const rawBody = base64Of(kept);
  const message: WebhookFullMessage = {
    webhookId: meta.webhookId,
    id: meta.id,
    receivedAt: meta.receivedAt,
    method: meta.method,
    size: meta.size,
    headers: pairs.headers,
    query: pairs.query,
    body: decodeBody(kept, pairs.headers['content-type']),
    bodyOmitted: false,
    rawBody,
    rawTruncated: false,
    routing: stored.fullRouting ?? meta.routing,
    delivered: meta.delivered,
    ...(meta.rejected && { rejected: meta.rejected }),
    ...(stored.archivedSignature && { archivedSignature: stored.archivedSignature }),
  };
  // Keep the answer within one frame: first leave out the parsed body, then cut the raw body.
  if (serialisedLength(message) <= INSPECTOR_MESSAGE_MAX_CHARS) return message;
  const withoutBody: WebhookFullMessage = { ...message, body: undefined, bodyOmitted: true };
  const rest = serialisedLength(withoutBody);
  if (rest <= INSPECTOR_MESSAGE_MAX_CHARS) return withoutBody;
  const room = Math.max(0, INSPECTOR_MESSAGE_MAX_CHARS - (rest - rawBody.length));
  return { ...withoutBody, rawBody: rawBody.slice(0, room - (room % 4)), rawTruncated: true };
}

/** The bytes of a base64 body, kept as text when they are UTF-8 (a BOM included: it is a character of the text). */
function keptBody(rawBody: string): KeptBody {
  const raw = Buffer.from(rawBody, 'base64');
  try {
    const text = exactUtf8.decode(raw);
    return { text, bytes: raw.length, escaped: text.includes('\\') };
  } catch {
    return { raw, bytes: raw.length };
  }
}

/** What a kept body is accounted: V8 keeps an ASCII string one byte a character, any other text two. */
function bodyCost(body: KeptBody): number {
  if ('raw' in body) return body.bytes + BUFFER_OVERHEAD_BYTES;
  return body.text.length === body.bytes ? body.bytes : body.text.length * 2;
}

function base64Of(body: KeptBody): string {
  return ('text' in body ? Buffer.from(body.text, 'utf8') : body.raw).toString('base64');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');
/** Keeps a leading BOM as a character, so the text encodes back to exactly the bytes received. */
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Values at a key path (by its text), per kept body. */
type RememberedValues = Map<string, WeakMap<KeptBody, unknown>>;
/** Key paths whose values are kept between searches, and the longest string value kept. */
const REMEMBERED_PATHS = 2;
const REMEMBERED_STRING_CHARS = 256;

/** What a Buffer costs besides its bytes. */
const BUFFER_OVERHEAD_BYTES = 96;

/**
 * The parsed body (docs/interface.md §2.7 `body`) of a raw body, decoded as the forwarder decodes it (bodyEncoding):
 * JSON, form fields (name → first value) or text; `null` when empty. JSON that does not parse (never
 * from the reference forwarder, which refuses it with 400) is shown as text.
 */
export function decodeRawBody(rawBody: string, contentType: string | undefined): unknown {
  return decodeBody(keptBody(rawBody), contentType);
}

function decodeBody(kept: KeptBody, contentType: string | undefined): unknown {
  if (kept.bytes === 0) return null;
  const encoding = bodyEncoding(contentType);
  const text = 'text' in kept ? withoutBom(kept.text) : undefined;
  if (encoding === 'json' && text !== undefined) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // not JSON after all: the text below
    }
  }
  const shown = text ?? lenientUtf8.decode((kept as { raw: Buffer }).raw);
  return encoding === 'form' ? firstValues(new URLSearchParams(shown)) : shown;
}

/** A decoder drops a leading BOM; the kept text has it, so it is dropped here where the text is read. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** A length that never throws: an unserialisable (or absurdly large) value counts as too large. */
function serialisedLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** What a kept body and the whole pairs give an entry's summary: never the body, only a preview of at most INSPECTOR_PREVIEW_BYTES. */
function keptContent(pairs: Pairs, body: KeptBody): Content {
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
 * The first INSPECTOR_PREVIEW_BYTES of the body: UTF-8 text when those bytes decode (a character cut at
 * the end is dropped), else base64 of the first bytes (at most INSPECTOR_PREVIEW_BYTES characters).
 */
function preview(body: KeptBody): Pick<WebhookEntry, 'preview' | 'previewKind'> {
  const whole = body.bytes <= INSPECTOR_PREVIEW_BYTES;
  // ASCII: a copy of the first characters (a slice would be a view that keeps the whole body alive once the body is dropped).
  if ('text' in body && body.text.length === body.bytes)
    return { preview: Buffer.from(body.text.slice(0, INSPECTOR_PREVIEW_BYTES), 'latin1').toString('latin1'), previewKind: 'text' };
  // Encode only a prefix of the text: the whole body is never copied.
  const head = ('text' in body ? Buffer.from(body.text.slice(0, INSPECTOR_PREVIEW_BYTES), 'utf8') : body.raw).subarray(0, INSPECTOR_PREVIEW_BYTES);
  for (let drop = 0; drop <= (whole ? 0 : 3) && drop < head.length + 1; drop++) {
    try {
      return { preview: strictUtf8.decode(head.subarray(0, head.length - drop)), previewKind: 'text' };
    } catch {
      // a character cut at the end: try one byte shorter
    }
  }
  const bytes = head.subarray(0, Math.floor((INSPECTOR_PREVIEW_BYTES * 3) / 4));
  return { preview: bytes.toString('base64'), previewKind: 'base64' };
}
