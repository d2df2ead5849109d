/**
 * The legacy sandbox's waiting room (docs/security.md, "Byte budgets"): one FIFO queue per key (the webhook id), served
 * round-robin, so a webhook flooded with requests queues behind itself, never in front of the others.
 * With one queue for all, 1,200 large requests to one webhook held another webhook's request for 35 s.
 *
 * Bounded per key and in total, each by count and by bytes (what the caller says an item holds). A key
 * over its own bound is refused first (`key-full`: that key's sender is the one to slow down); only then
 * the total (`full`).
 *
 * Rotation: a Map keeps insertion order, so the key served is the first one, and a key that still has
 * items after being served is re-inserted at the end. A new key joins at the end: it waits for at most
 * one item of each key already waiting.
 *
 * Room can be held for an item that is not here yet (`reserve`: a request whose body is still being
 * read): it counts against its key's bounds, and the total's, until it is released or its item pushed.
 * So a flood is refused while its bodies are still unread, not after each was read and parsed
 * (docs/legacy-functions.md, "Limits").
 */

export interface FairQueueLimits {
  /** Items waiting in all queues together. */
  items: number;
  bytes: number;
  /** Items waiting for one key. */
  itemsPerKey: number;
  bytesPerKey: number;
}

export type Admission = 'queued' | 'key-full' | 'full';

interface KeyQueue<T> {
  readonly items: { item: T; bytes: number }[];
  bytes: number;
}

interface Held {
  items: number;
  bytes: number;
}

/** Room held in a queue; releasing it twice, or after its item was pushed with it, does nothing. */
export interface Reservation {
  /** Still held: neither released nor taken by its item. */
  readonly held: boolean;
  release(): void;
}

export class FairQueue<T> {
  private readonly queues = new Map<string, KeyQueue<T>>();
  private readonly held = new Map<string, Held>();
  private readonly heldInAll: Held = { items: 0, bytes: 0 };
  private count = 0;
  private totalBytes = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Items waiting for `key`. */
  waiting(key: string): number {
    return this.queues.get(key)?.items.length ?? 0;
  }

  /** Items waiting, by key (keys with none left out). */
  waitingByKey(): Record<string, number> {
    return Object.fromEntries([...this.queues].map(([key, queue]) => [key, queue.items.length]));
  }

  /** What `push` would answer for an item of `bytes` now, without queueing anything (held room counts as waiting). */
  admission(key: string, bytes: number): Admission {
    const queue = this.queues.get(key);
    const held = this.held.get(key);
    const waitingForKey = (queue?.items.length ?? 0) + (held?.items ?? 0);
    if (waitingForKey >= this.limits.itemsPerKey || (queue?.bytes ?? 0) + (held?.bytes ?? 0) + bytes > this.limits.bytesPerKey) return 'key-full';
    if (this.count + this.heldInAll.items >= this.limits.items || this.totalBytes + this.heldInAll.bytes + bytes > this.limits.bytes) return 'full';
    return 'queued';
  }

  /** Holds room for an item of `bytes` to come, when `push` would queue it now; else says why not. */
  reserve(key: string, bytes: number): Reservation | Exclude<Admission, 'queued'> {
    const admission = this.admission(key, bytes);
    if (admission !== 'queued') return admission;
    const held = this.held.get(key) ?? { items: 0, bytes: 0 };
    this.held.set(key, held);
    const change = (sign: 1 | -1) => {
      held.items += sign;
      held.bytes += sign * bytes;
      this.heldInAll.items += sign;
      this.heldInAll.bytes += sign * bytes;
    };
    change(1);
    let released = false;
    return {
      get held() {
        return !released;
      },
      release: () => {
        if (released) return;
        released = true;
        change(-1);
        if (held.items === 0 && this.held.get(key) === held) this.held.delete(key);
      },
    };
  }

  /**
   * Queues an item when there is room; one that comes with room still held for it (`reservation`) takes
   * that room and is queued even if it holds a little more than was held (the estimate made before its
   * body was read): it was admitted then.
   */
  push(key: string, item: T, bytes: number, reservation?: Reservation): Admission {
    const admitted = reservation?.held === true;
    reservation?.release();
    const admission = admitted ? 'queued' : this.admission(key, bytes);
    if (admission !== 'queued') return admission;
    const queue = this.queues.get(key);
    if (queue) {
      queue.items.push({ item, bytes });
      queue.bytes += bytes;
    } else this.queues.set(key, { items: [{ item, bytes }], bytes });
    this.count++;
    this.totalBytes += bytes;
    return 'queued';
  }

  /** The next item in round-robin order, or undefined when nothing waits. */
  shift(): T | undefined {
    const next = this.queues.entries().next();
    if (next.done) return undefined;
    const [key, queue] = next.value;
    const head = queue.items.shift()!;
    queue.bytes -= head.bytes;
    this.count--;
    this.totalBytes -= head.bytes;
    this.queues.delete(key);
    if (queue.items.length > 0) this.queues.set(key, queue);
    return head.item;
  }

  /** Removes and returns everything waiting (closing, or no worker can start). */
  drain(): T[] {
    const all: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) all.push(item);
    return all;
  }
}
