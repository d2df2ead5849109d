/**
 * The forwarder-wide byte budget of all resume buffers (docs/security.md, "Byte budgets"). Each buffer is bounded on its
 * own, but a webhook owner can register many listeners and keep them away: 31 full buffers of 16 Mi
 * characters took a 512 MiB heap down, and every other tenant with it. The budget bounds the sum.
 *
 * Bytes are those of the distinct frames held (memory-size.ts): a frame routed to many listeners is
 * one string in memory, so it counts once, for as long as any buffer holds it. When the total is over
 * `maxBytes`, messages are evicted from the largest buffer (by its own bytes), oldest first, until the
 * total fits: the tenant holding the most pays first, and a small buffer of another tenant is reached
 * only once every larger one has shrunk to its size. The budget is a hard bound; it may even take the
 * message just added when a single frame exceeds the whole budget.
 */
import { stringBytes } from './memory-size';
import type { BufferBudget, QueuedMessage, ResumeBuffer } from './resume-buffer';

/** 256 MiB: with frames counted at two bytes a character, 128 Mi characters of plain-ASCII frames, a quarter of a 512 MiB heap. */
export const DEFAULT_RESUME_BUDGET_BYTES = 256 * 1024 * 1024;

/** Told once per buffer that lost messages in one enforcement. */
export type EvictionReport = (buffer: ResumeBuffer, evicted: number) => void;

export class ResumeBudget implements BufferBudget {
  /** How many buffers hold each frame. */
  private readonly holders = new Map<QueuedMessage, number>();
  /** The buffers holding at least one message: the candidates for eviction. */
  private readonly buffers = new Set<ResumeBuffer>();
  private total = 0;

  constructor(
    readonly maxBytes: number,
    private readonly onEvicted: EvictionReport = () => {},
  ) {
    if (!(maxBytes > 0)) throw new RangeError(`the resume budget must be a positive number of bytes, got ${maxBytes}`);
  }

  /** Bytes of the distinct frames held by all buffers. */
  get bytes(): number {
    return this.total;
  }

  retain(buffer: ResumeBuffer, message: QueuedMessage): void {
    this.buffers.add(buffer);
    const count = this.holders.get(message) ?? 0;
    this.holders.set(message, count + 1);
    if (count === 0) this.total += stringBytes(message.frame);
  }

  release(buffer: ResumeBuffer, message: QueuedMessage): void {
    if (buffer.size === 0) this.buffers.delete(buffer);
    const count = this.holders.get(message);
    if (count === undefined) return;
    if (count > 1) return void this.holders.set(message, count - 1);
    this.holders.delete(message);
    this.total -= stringBytes(message.frame);
  }

  /** Evicts until the total fits (see the module comment); reports each buffer that lost messages, and returns them. */
  enforce(): ReadonlySet<ResumeBuffer> {
    const evicted = new Map<ResumeBuffer, number>();
    if (this.total <= this.maxBytes) return new Set();
    while (this.total > this.maxBytes) {
      const largest = this.largest();
      if (!largest?.dropOldest()) break;
      evicted.set(largest, (evicted.get(largest) ?? 0) + 1);
    }
    for (const [buffer, count] of evicted) this.onEvicted(buffer, count);
    return new Set(evicted.keys());
  }

  /** A linear scan: eviction is rare (only over the budget), and the buffers are bounded by the listener caps. */
  private largest(): ResumeBuffer | undefined {
    let largest: ResumeBuffer | undefined;
    for (const buffer of this.buffers) if (!largest || buffer.bytes > largest.bytes) largest = buffer;
    return largest;
  }
}
