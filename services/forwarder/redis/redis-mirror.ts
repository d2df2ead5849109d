/**
 * Each instance's copy of what routing reads, kept current from Redis: the webhooks (a WebhookTable), the
 * listener slots (a ListenerRegistry: the same by-hub and by-key index as in memory, so routing stays one
 * Map lookup per request whatever the number of registrations) and which webhooks have a tap open.
 *
 * It loads everything in one MULTI (a consistent snapshot, with the change stream's last id), then follows
 * the change stream with a blocking XREAD on a connection of its own. A change names what changed (a
 * webhook, a slot, a webhook's taps), never the value: after each read the mirror reads the current value
 * of each thing named, once however often it was named, so a registration repeated a thousand times costs
 * the stream a thousand ids, not a thousand records (docs/services.md, "What Redis holds"). The value read
 * is at least as new as the change, and applying it twice is harmless. The changes are numbered: a gap
 * means the stream was trimmed past what this mirror had read, and it loads everything again, as it does
 * when Redis comes back after going away: what changed meanwhile (or a restarted Redis) cannot be missed.
 * A record that fails its schema is logged and skipped, never applied.
 *
 * Writers wait for `caughtUp(change id)`: a write resolves once its own change is visible to reads here.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../../common/logger';
import { RegistrationDataSchema } from '../../../common/webhook-protocol';
import { ListenerRegistry } from '../listener-registry';
import { type StoredWebhook, WebhookTable } from '../webhook-store';
import { CHANGES_READ_COUNT, KEYS, SLOT_PREFIX, slotKey, tapsKey } from './redis-keys';
import { errorMessage } from '../../../common/error-message';

const StoredWebhookSchema = z.object({
  record: z.object({
    id: z.string().min(1),
    name: z.string(),
    ownerId: z.string().min(1),
    secret: z.string().min(1),
    keyPath: z.string().nullable(),
    legacyFunction: z.string().nullable(),
    createdAt: z.number(),
  }),
  taps: z.array(z.object({ id: z.string().min(1), secret: z.string().min(1), createdAt: z.number() })),
});

/** A listener slot as Redis keeps it: what routing needs, the same on every instance. */
export const SlotRecordSchema = z.object({
  webhookId: z.string().min(1),
  ownerId: z.string().min(1),
  listenerId: z.string().min(1),
  hubId: z.string().optional(),
  data: RegistrationDataSchema.optional(),
  keys: z.array(z.string()),
  rawBodyOnly: z.boolean(),
});
export type SlotRecord = z.infer<typeof SlotRecordSchema>;

export function parseStoredWebhook(json: string): StoredWebhook {
  return StoredWebhookSchema.parse(JSON.parse(json));
}

/** Stream ids (`<ms>-<n>`) in order. */
export function compareVersions(a: string, b: string): number {
  const [aTime = 0, aCount = 0] = a.split('-').map(Number);
  const [bTime = 0, bCount = 0] = b.split('-').map(Number);
  return aTime - bTime || aCount - bCount;
}

const RETRY_MS = 200;

export class RedisMirror {
  readonly webhooks = new WebhookTable();
  /** Caps are Redis's (the register script): the mirror holds whatever Redis holds. */
  readonly registry = new ListenerRegistry({ maxListenersPerWebhook: Infinity, maxListenersPerOwner: Infinity, bufferCapacity: 1 });
  private readonly openTaps = new Map<string, number>();
  private applied = '0-0';
  /** The number of the change last applied (KEYS.changeSequence); undefined when the stream had none. */
  private appliedNumber: number | undefined;
  private loaded = false;
  private closed = false;
  private waiters: Array<{ version: string; resolve: () => void }> = [];
  private following: Promise<void> | undefined;

  /** `reader` blocks on the change stream: a connection of its own. */
  constructor(
    private readonly redis: Redis,
    private readonly reader: Redis,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the first load is done (rejects if it fails: the instance does not start without its state). */
  async start(): Promise<void> {
    await this.load();
    this.following = this.follow();
  }

  /** Loaded and following: routing reads are current. */
  get ready(): boolean {
    return this.loaded && !this.closed;
  }

  tapped(webhookId: string): boolean {
    return (this.openTaps.get(webhookId) ?? 0) > 0;
  }

  /** Resolves once the change `version` (or a later state) is applied here. */
  caughtUp(version: string): Promise<void> {
    if (compareVersions(this.applied, version) >= 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ version, resolve }));
  }

  /** Resolves once everything written to Redis before the call is applied here (one round trip, then the stream). */
  async sync(): Promise<void> {
    const [head] = (await this.redis.xrevrange(KEYS.changes, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
    if (head) await this.caughtUp(head[0]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reader.disconnect();
    await this.following;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  private async follow(): Promise<void> {
    let failing = false;
    while (!this.closed) {
      try {
        if (!this.loaded) await this.load();
        const reply = (await this.reader.xread('COUNT', CHANGES_READ_COUNT, 'BLOCK', 0, 'STREAMS', KEYS.changes, this.applied)) as Array<
          [string, Array<[string, string[]]>]
        > | null;
        for (const [, entries] of reply ?? []) await this.applyChanges(entries);
        this.settleWaiters();
        if (failing) this.logger.info('forwarder: following Redis again');
        failing = false;
      } catch (error) {
        if (this.closed) return;
        if (!failing) this.logger.warn('forwarder: lost the Redis change stream; will load again when Redis answers', { error: errorMessage(error) });
        failing = true;
        this.loaded = false;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  private async load(): Promise<void> {
    const replies = await this.redis
      .multi()
      .xrevrange(KEYS.changes, '+', '-', 'COUNT', 1)
      .hgetall(KEYS.webhooks)
      .hgetall(KEYS.slots)
      .smembers(KEYS.tapped)
      .exec();
    const [head, webhooks, slots, tapped] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    }) as [Array<[string, string[]]>, Record<string, string>, Record<string, string>, string[]];
    const counts = await Promise.all(tapped.map((webhookId) => this.redis.scard(tapsKey(webhookId))));

    for (const [id, json] of Object.entries(webhooks)) this.applyWebhook(id, json);
    for (const id of this.webhooks.ids()) if (!Object.hasOwn(webhooks, id)) this.webhooks.remove(id);
    const kept = new Set<string>();
    for (const [key, json] of Object.entries(slots)) if (this.applySlot(key, json)) kept.add(key);
    for (const slot of this.registry.allSlots()) if (!kept.has(slotKey(slot.webhookId, slot.listenerId))) this.registry.forget(slot);
    this.openTaps.clear();
    tapped.forEach((webhookId, i) => this.openTaps.set(webhookId, counts[i]!));
    this.applied = head[0]?.[0] ?? '0-0';
    this.appliedNumber = head[0] ? changeOf(head[0][1]).number : undefined;
    this.loaded = true;
    this.settleWaiters();
  }

  /** Applies a read of the change stream: the current value of each thing it names, read once. */
  private async applyChanges(entries: Array<[string, string[]]>): Promise<void> {
    const named = new Map<string, Change>();
    let number = this.appliedNumber;
    for (const [, fields] of entries) {
      const change = changeOf(fields);
      if (number !== undefined && change.number !== undefined && change.number !== number + 1) {
        this.logger.warn('forwarder: fell behind the Redis change stream; loading everything again', { applied: number, next: change.number });
        this.loaded = false;
        return;
      }
      number = change.number;
      if (change.kind !== undefined) named.set(`${change.kind}\n${change.subject}`, change);
    }
    const changes = [...named.values()] as Array<Change & { kind: ChangeKind }>;
    const reads = this.reader.pipeline();
    for (const { kind, subject } of changes) {
      if (kind === 'webhook') reads.hget(KEYS.webhooks, subject);
      else if (kind === 'slot') reads.hget(KEYS.slots, subject);
      else reads.scard(tapsKey(subject));
    }
    const values = changes.length === 0 ? [] : ((await reads.exec()) ?? []);
    changes.forEach(({ kind, subject }, i) => {
      const [error, value] = values[i] ?? [new Error('no reply')];
      if (error) throw error;
      if (kind === 'webhook') {
        if (value === null) this.webhooks.remove(subject);
        else this.applyWebhook(subject, value as string);
      } else if (kind === 'slot') {
        if (value === null) this.forgetSlot(subject);
        else this.applySlot(subject, value as string);
      } else if (Number(value) > 0) this.openTaps.set(subject, Number(value));
      else this.openTaps.delete(subject);
    });
    this.applied = entries.at(-1)![0];
    this.appliedNumber = number;
  }

  private applyWebhook(id: string, json: string): void {
    try {
      const stored = parseStoredWebhook(json);
      if (stored.record.id !== id) throw new Error('the record is stored under another id');
      this.webhooks.put(stored);
    } catch (error) {
      this.logger.error('forwarder: a webhook in Redis is not valid; skipped', { webhookId: id, error: errorMessage(error) });
    }
  }

  /** The slot's record, applied; undefined (logged) when it is not valid. */
  private applySlot(key: string, json: string): SlotRecord | undefined {
    let record: SlotRecord;
    try {
      record = SlotRecordSchema.parse(JSON.parse(json));
      if (slotKey(record.webhookId, record.listenerId) !== key) throw new Error('the record is stored under another slot');
    } catch (error) {
      this.logger.error('forwarder: a listener slot in Redis is not valid; skipped', { slot: key, error: errorMessage(error) });
      return undefined;
    }
    const { webhookId, ownerId, listenerId, hubId, data, keys, rawBodyOnly } = record;
    this.registry.register({ id: webhookId, ownerId }, listenerId, { hubId, data, keys, rawBodyOnly });
    return record;
  }

  private forgetSlot(key: string): void {
    const [webhookId, listenerId] = parseSlotKey(key) ?? [];
    const slot = webhookId === undefined ? undefined : this.registry.of(webhookId)?.slots.get(listenerId!);
    if (slot) this.registry.forget(slot);
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const waiting: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (compareVersions(this.applied, waiter.version) >= 0) waiter.resolve();
      else waiting.push(waiter);
    }
    this.waiters = waiting;
  }
}

type ChangeKind = 'webhook' | 'slot' | 'taps';
interface Change {
  /** Undefined for a kind this version does not know: skipped. */
  kind: ChangeKind | undefined;
  subject: string;
  /** Absent from entries written before changes were numbered. */
  number: number | undefined;
}

/** A change stream entry's fields (`k`, `s`, `n`: redis-scripts.ts `change`). */
function changeOf(fields: string[]): Change {
  const field = (name: string) => {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1]!;
    return '';
  };
  const kind = field('k');
  const number = Number(field('n'));
  return {
    kind: kind === 'webhook' || kind === 'slot' || kind === 'taps' ? kind : undefined,
    subject: field('s'),
    number: field('n') !== '' && Number.isSafeInteger(number) ? number : undefined,
  };
}

/** `fw:q:["<webhookId>","<listenerId>"]` → its two ids, or undefined. */
export function parseSlotKey(key: string): [string, string] | undefined {
  try {
    const parsed: unknown = JSON.parse(key.slice(SLOT_PREFIX.length));
    return Array.isArray(parsed) && parsed.length === 2 && parsed.every((part) => typeof part === 'string') ? (parsed as [string, string]) : undefined;
  } catch {
    return undefined;
  }
}
