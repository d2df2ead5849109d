/**
 * A listener's unacknowledged messages, oldest first, bounded in number and in size: when full, the
 * oldest are dropped (and counted). A message stays here from routing until the listener acknowledges it, whether or not it
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
  /** Characters of the frames in `entries`. */
  private chars = 0;
  /** Messages dropped because the buffer was full, since the listener first registered. */
  dropped = 0;

  /**
   * At most `capacity` messages and `maxChars` characters of frames (a frame shared with other
   * listeners counts in each of their buffers); the newest message is always kept.
   */
  constructor(
    private readonly capacity: number,
    private readonly maxChars: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Adds a message; returns how many older ones had to be dropped to make room. */
  add(message: QueuedMessage): number {
    this.entries.set(message.id, message);
    this.unsent.set(message.id, message);
    this.chars += message.frame.length;
    let dropped = 0;
    while (this.entries.size > this.capacity || (this.chars > this.maxChars && this.entries.size > 1)) {
      this.acknowledge(this.entries.keys().next().value as string);
      dropped++;
    }
    this.dropped += dropped;
    return dropped;
  }

  acknowledge(id: string): void {
    const message = this.entries.get(id);
    if (!message) return;
    this.entries.delete(id);
    this.unsent.delete(id);
    this.chars -= message.frame.length;
  }

  /**
   * Prepares a resume: drops what the listener says it has (sequence ≤ `afterSequence`; an ack may have
   * been lost with the old connection) and marks everything else unsent, so it goes out again in order.
   */
  rewind(afterSequence: number | undefined): void {
    if (afterSequence !== undefined) {
      for (const [id, message] of this.entries) if (message.sequence <= afterSequence) this.acknowledge(id);
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
