/**
 * A listener's unacknowledged messages, oldest first, bounded in number and in bytes: when full, the
 * oldest are dropped (and counted). A message stays here from routing until the listener acknowledges it, whether or not it
 * could be sent, so a reconnect with `resumeAfter` re-sends exactly what the listener has not confirmed.
 * `unsent` marks the messages not yet written to the current socket (listener offline, or the socket's
 * send buffer was full).
 *
 * Messages are kept as the frame the listener will receive, serialised once per intake and form (with
 * the parsed body, or raw body only for `rawBodyOnly` listeners) and shared by every listener it was
 * routed to in that form: one string per message instead of an object graph per message, which is what
 * the garbage collector would otherwise walk and copy for every buffered message.
 *
 * Drops are remembered for the listener's `dropped` notice (docs/webhooks-app.md, "Dropped by the
 * forwarder"): the newest message dropped (`droppedThrough`; drops go oldest first, so nothing before it
 * is held either) and whether the current connection is owed a notice of it.
 *
 * Every buffer of a forwarder also answers to one forwarder-wide ResumeBudget (resume-budget.ts): a
 * frame is counted there once however many buffers hold it, and the budget may take the oldest
 * messages of the largest buffer when the total is over it.
 */
import type { DroppedNotice } from '../../common/webhook-protocol';
import { stringBytes } from './memory-size';

/** A routed message, ready to send. */
export interface QueuedMessage {
  readonly id: string;
  readonly sequence: number;
  /** The `{"type":"message",...}` frame (ListenerServerMessage) as JSON. */
  readonly frame: string;
}

/**
 * What a buffer tells the forwarder-wide budget: the ResumeBudget (resume-budget.ts), which imports
 * this module to reach the buffers it evicts from, so it is named here rather than imported.
 */
export interface BufferBudget {
  retain(buffer: ResumeBuffer, message: QueuedMessage): void;
  release(buffer: ResumeBuffer, message: QueuedMessage): void;
}

/** Whose buffer it is, for the logs (never the payload). */
export interface BufferOwner {
  readonly webhookId: string;
  readonly listenerId: string;
}

export class ResumeBuffer {
  /** By id, in routing order (Map keeps insertion order; delete is O(1)). */
  private readonly entries = new Map<string, QueuedMessage>();
  /** The subset not yet written to the current socket, in the same order. */
  private unsent = new Map<string, QueuedMessage>();
  private heldBytes = 0;
  /** Messages dropped because this buffer or the forwarder's budget was full, since the listener first registered. */
  dropped = 0;
  /** The newest message dropped: its id and sequence (message-ids.ts). */
  private droppedThrough: { id: string; sequence: number } | undefined;
  /** A drop the current connection has not been told of. */
  private noticeOwed = false;

  /**
   * At most `capacity` messages and `maxBytes` bytes of frames (memory-size.ts; a frame shared with
   * other listeners counts in each of their buffers); the newest message is always kept here, though
   * the forwarder-wide `budget` may still take it.
   */
  constructor(
    private readonly capacity: number,
    private readonly maxBytes: number,
    private readonly budget?: BufferBudget,
    readonly owner?: BufferOwner,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the frames held (memory-size.ts), shared ones included. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Adds a message; returns how many older ones had to be dropped to make room in this buffer. */
  add(message: QueuedMessage): number {
    if (this.entries.has(message.id)) return 0;
    this.entries.set(message.id, message);
    this.unsent.set(message.id, message);
    this.heldBytes += stringBytes(message.frame);
    this.budget?.retain(this, message);
    let dropped = 0;
    while (this.entries.size > this.capacity || (this.heldBytes > this.maxBytes && this.entries.size > 1)) {
      this.dropOldest();
      dropped++;
    }
    return dropped;
  }

  acknowledge(id: string): void {
    const message = this.entries.get(id);
    if (!message) return;
    this.entries.delete(id);
    this.unsent.delete(id);
    this.heldBytes -= stringBytes(message.frame);
    this.budget?.release(this, message);
  }

  /** Drops the oldest message (counted in `dropped`); false when empty. */
  dropOldest(): boolean {
    const oldest = this.entries.keys().next();
    if (oldest.done) return false;
    const { id, sequence } = this.entries.get(oldest.value)!;
    this.acknowledge(id);
    this.dropped++;
    this.droppedThrough = { id, sequence };
    this.noticeOwed = true;
    return true;
  }

  /** Empties the buffer without counting drops (the listener is forgotten): its frames leave the budget. */
  clear(): void {
    for (const id of [...this.entries.keys()]) this.acknowledge(id);
  }

  /**
   * Prepares a resume: drops what the listener says it has (sequence ≤ `afterSequence`; an ack may have
   * been lost with the old connection) and marks everything else unsent, so it goes out again in order.
   */
  rewind(afterSequence: number | undefined): void {
    // A new connection is told of drops past what the listener says it has (all of them when it says nothing).
    this.noticeOwed = this.droppedThrough !== undefined && (afterSequence === undefined || this.droppedThrough.sequence > afterSequence);
    if (afterSequence !== undefined) {
      for (const [id, message] of this.entries) if (message.sequence <= afterSequence) this.acknowledge(id);
    }
    this.unsent = new Map(this.entries);
  }

  /** The `dropped` notice owed to the current connection (until `noticeSent`): undefined when none is. */
  owedNotice(): DroppedNotice | undefined {
    if (!this.noticeOwed || !this.droppedThrough) return undefined;
    return { type: 'dropped', through: this.droppedThrough.id, count: this.dropped };
  }

  noticeSent(): void {
    this.noticeOwed = false;
  }

  /** The unsent messages in order; `send` returns false to stop (socket full) and leave the rest unsent. */
  flush(send: (message: QueuedMessage) => boolean): void {
    for (const [id, message] of this.unsent) {
      if (!send(message)) return;
      this.unsent.delete(id);
    }
  }
}
