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
  type ArchivedMessage,
  DROPPED_BY_FORWARDER,
  type InspectorPage,
  type InspectorPageRequest,
  type WebhookEntry,
  type WebhookEntryPatch,
  type WebhookFullMessage,
  type WebhookMessageResult,
} from '../../../common/ipc-contract';
import { base64ByteLength } from '../../../common/base64';
import { hasUnplainNumber, pairsText } from '../../../common/message-filter';
import type { DroppedNotice, RawWebhookMessage, TapEvent } from '../../../common/webhook-protocol';
import { forwarderSequence } from '../../../common/intake-order';
import { base64Of, bodyCost, keptBody } from './inspector-body';
import { awaitedContent, cutRouting, keptContent, type Meta } from './inspector-content';
import { contentOf, type EntryParts, fullMessage, partsOf, RestoredEntry, type SavedEntry, type Stored, summaryOf, textOfPairs } from './inspector-entry';
import { rememberedValues, searchPage } from './inspector-search';

export const MAIN_INSPECTOR_CAPACITY = 1000;
export const MAIN_INSPECTOR_BUDGET_BYTES = 64 * 1024 * 1024;
/** Accounted per entry besides its strings: the objects and the map slots. */
const ENTRY_OVERHEAD_BYTES = 480;

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

export function createWebhookInspector(options: { capacity?: number; budgetBytes?: number } = {}): WebhookInspector {
  const capacity = options.capacity ?? MAIN_INSPECTOR_CAPACITY;
  let budget = options.budgetBytes ?? MAIN_INSPECTOR_BUDGET_BYTES;
  // Maps keep insertion order: the first key is the oldest. `entries` holds every entry; `bodies` the
  // keys of the entries whose body is kept, oldest first, so eviction is O(1) per body dropped.
  const entries = new Map<string, Stored>();
  const bodies = new Set<string>();
  let bytes = 0;
  let nextSeq = 1;
  const remembered = rememberedValues();
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
    snapshot: (request) => searchPage(entries.values(), request, remembered),
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
