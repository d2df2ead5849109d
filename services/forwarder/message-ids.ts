/**
 * Message ids: `evt_<time>_<sequence>`, both base36 and zero-padded. The sequence grows by one per
 * intake of this forwarder and alone orders messages, so "after id X" is well defined even when the
 * clock steps back; the time part makes ids from different runs distinct and readable.
 */
const TIME_WIDTH = 9; // base36 milliseconds up to the year 5188
const SEQUENCE_WIDTH = 10;

export interface MessageIds {
  next(): { id: string; sequence: number };
}

/** The time part of an id. */
export function timeText(time: number): string {
  return Math.max(0, Math.floor(time)).toString(36).padStart(TIME_WIDTH, '0');
}

export function messageId(time: number, sequence: number): string {
  return `evt_${timeText(time)}_${sequence.toString(36).padStart(SEQUENCE_WIDTH, '0')}`;
}

/** Ids from this process's own sequence (in memory); with Redis the sequence is shared (redis/redis-scripts.ts). */
export function createMessageIds(now: () => number): MessageIds {
  let sequence = 0;
  return {
    next() {
      sequence++;
      return { id: messageId(now(), sequence), sequence };
    },
  };
}

/** When an id made here was made (ms since the epoch), or undefined for anything else. */
export function timeOf(id: string): number | undefined {
  const match = /^evt_([0-9a-z]{9})_[0-9a-z]{10}$/.exec(id);
  return match ? parseInt(match[1]!, 36) : undefined;
}

/** The sequence number of an id made here, or undefined for anything else. */
export function sequenceOf(id: string): number | undefined {
  const match = /^evt_[0-9a-z]{9}_([0-9a-z]{10})$/.exec(id);
  return match ? parseInt(match[1]!, 36) : undefined;
}
