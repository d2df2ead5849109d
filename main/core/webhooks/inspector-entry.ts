/**
 * An entry of the inspector (webhook-inspector.ts) as it is kept: its parts, body and figures; one restored
 * from a checkpoint, whose parts stay their text until read; and what is made of an entry to send it
 * (its summary, its full message, its parts for a checkpoint).
 */
import { INSPECTOR_MESSAGE_MAX_CHARS, type SignatureVerdict, type WebhookEntry, type WebhookFullMessage } from '../../../common/ipc-contract';
import { pairsText } from '../../../common/message-filter';
import type { RoutingDecision } from '../../../common/webhook-protocol';
import { base64Of, decodeBody, type KeptBody } from './inspector-body';
import { awaitedContent, type Content, keptContent, type Meta, type Pairs, serialisedLength } from './inspector-content';

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

export interface Stored {
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

/**
 * An entry restored from a checkpoint: its parts stay the checkpoint's text until first read (reading
 * 100,000 entries' parts at start was half of the start's time), and the rest is at hand.
 */
export class RestoredEntry implements Stored {
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
export function partsOf(stored: Stored): EntryParts | Buffer {
  if (stored instanceof RestoredEntry) return stored.saved();
  const { meta, pairs, fixed, fullRouting, archivedSignature } = stored;
  return { meta, pairs, fixed, fullRouting, ...(archivedSignature && { archivedSignature }) };
}

/** The entry's headers and query as one text, made when first needed. */
export function textOfPairs(stored: Stored): string {
  return (stored.pairsText ??= pairsText(stored.pairs.headers, stored.pairs.query));
}

/** The summary sent to the window: the meta and the content (made from the kept body, or the fixed one). */
export function summaryOf(stored: Stored): WebhookEntry {
  return { ...stored.meta, ...contentOf(stored) };
}

export function contentOf(stored: Stored): Content {
  return stored.body ? keptContent(stored.pairs, stored.body) : stored.fixed!;
}

export function fullMessage(stored: Stored, kept: KeptBody): WebhookFullMessage {
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
