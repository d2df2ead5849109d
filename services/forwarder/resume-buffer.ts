/**
 * A listener's unacknowledged messages, oldest first, bounded: when full, the oldest is dropped (and
 * counted). A message stays here from routing until the listener acknowledges it, whether or not it
 * could be sent, so a reconnect with `resumeAfter` re-sends exactly what the listener has not confirmed.
 * `unsent` marks the messages not yet written to the current socket (listener offline, or the socket's
 * send buffer was full).
 *
 * Messages are kept as the frame the listener will receive, serialised once per intake and shared by
 * every listener it was routed to: one string per message instead of an object graph per message,
 * which is what the garbage collector would otherwise walk and copy for every buffered message.
 */

/** A routed message, ready to send. */
export interface QueuedMessage {
  readonly id: string;
  readonly sequence: number;
  /** The `{"type":"message",...}` frame (ListenerServerMessage) as JSON. */
  readonly frame: string;
}

export class ResumeBuffer {
  /** By id, in routing order (Map keeps insertion order; delete is O(1)). */
  private readonly entries = new Map<string, QueuedMessage>();
  /** The subset not yet written to the current socket, in the same order. */
  private unsent = new Map<string, QueuedMessage>();
  /** Messages dropped because the buffer was full, since the listener first registered. */
  dropped = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Adds a message; returns true when an older one had to be dropped to make room. */
  add(message: QueuedMessage): boolean {
    this.entries.set(message.id, message);
    this.unsent.set(message.id, message);
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
      for (const [id, message] of this.entries) if (message.sequence <= afterSequence) this.entries.delete(id);
    }
    this.unsent = new Map(this.entries);
  }

  /** The unsent messages in order; `send` returns false to stop (socket full) and leave the rest unsent. */
  flush(send: (message: QueuedMessage) => boolean): void {
    for (const [id, message] of this.unsent) {
      if (!send(message)) return;
      this.unsent.delete(id);
    }
  }
}
