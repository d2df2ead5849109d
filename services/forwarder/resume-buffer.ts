/**
 * A listener's unacknowledged messages, oldest first, bounded: when full, the oldest is dropped (and
 * counted). A message stays here from routing until the listener acknowledges it, whether or not it
 * could be sent, so a reconnect with `resumeAfter` re-sends exactly what the listener has not confirmed.
 * `unsent` marks the messages not yet written to the current socket (listener offline, or the socket's
 * send buffer was full).
 */
import type { WebhookMessage } from '../../common/webhook-protocol';

interface Entry {
  message: WebhookMessage;
  sequence: number;
}

export class ResumeBuffer {
  /** By id, in routing order (Map keeps insertion order; delete is O(1)). */
  private readonly entries = new Map<string, Entry>();
  /** The subset not yet written to the current socket, in the same order. */
  private unsent = new Map<string, Entry>();
  /** Messages dropped because the buffer was full, since the listener first registered. */
  dropped = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Adds a message; returns true when an older one had to be dropped to make room. */
  add(message: WebhookMessage, sequence: number): boolean {
    const entry = { message, sequence };
    this.entries.set(message.id, entry);
    this.unsent.set(message.id, entry);
    if (this.entries.size <= this.capacity) return false;
    this.acknowledge(this.entries.keys().next().value as string);
    this.dropped++;
    return true;
  }

  acknowledge(id: string): void {
    this.entries.delete(id);
    this.unsent.delete(id);
  }

  /**
   * Prepares a resume: drops what the listener says it has (sequence ≤ `afterSequence`; an ack may have
   * been lost with the old connection) and marks everything else unsent, so it goes out again in order.
   */
  rewind(afterSequence: number | undefined): void {
    if (afterSequence !== undefined) {
      for (const [id, entry] of this.entries) if (entry.sequence <= afterSequence) this.entries.delete(id);
    }
    this.unsent = new Map(this.entries);
  }

  /** The unsent messages in order; `send` returns false to stop (socket full) and leave the rest unsent. */
  flush(send: (message: WebhookMessage) => boolean): void {
    for (const [id, entry] of this.unsent) {
      if (!send(entry.message)) return;
      this.unsent.delete(id);
    }
  }
}
