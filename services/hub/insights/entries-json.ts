/**
 * An entries answer as JSON bytes, made a chunk of entries at a time with a turn of the event loop
 * between chunks (docs/services.md, "The hub's history"): a year is 8,760 entries and about 360 kB, some
 * 10 ms of formatting and serialising on this machine's cores, which in one piece would hold every other
 * request of the hub behind it.
 */
import type { InsightsEntries } from '../../../common/insights';

/** Entries formatted and serialised in one turn (about 1 ms here). */
export const ENTRIES_PER_CHUNK = 1_000;

/** A log's answer as read at one moment: its fields but `values`, and its entries made on demand. */
export interface LogEntries {
  head: Omit<InsightsEntries, 'values'>;
  count: number;
  /** Entries [from, to), oldest first. */
  slice(from: number, to: number): InsightsEntries['values'];
}

/** Lets the event loop serve what is waiting (I/O included) before the next chunk. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The whole answer, `{...head, "values": [...]}`, serialised chunk by chunk. */
export async function entriesJson(entries: LogEntries, pause: () => Promise<void> = nextTurn): Promise<Buffer> {
  const head = JSON.stringify(entries.head);
  const parts = [Buffer.from(`${head.slice(0, -1)},"values":[`)];
  for (let from = 0; from < entries.count; from += ENTRIES_PER_CHUNK) {
    if (from > 0) await pause();
    const chunk = JSON.stringify(entries.slice(from, Math.min(entries.count, from + ENTRIES_PER_CHUNK)));
    parts.push(Buffer.from(`${from > 0 ? ',' : ''}${chunk.slice(1, -1)}`));
  }
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}
