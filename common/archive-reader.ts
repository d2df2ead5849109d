/**
 * Import's reading of an archive file (docs/webhooks-app.md, "Export and import"; the bounds in
 * docs/security.md, "Hostile archive files"): the file's bytes as they arrive, decoded and walked in
 * pieces, its entries found by common/archive-scanner.ts and each turned into a message by
 * common/webhook-archive.ts. Between pieces, and after every few entries, the reader waits for
 * `pause`, so the page stays responsive whatever the file holds.
 *
 * It goes on past a bad entry (counted, the first few reported with their number and reason) and
 * stops, saying where and why, when the file is larger than ARCHIVE_MAX_FILE_BYTES, once
 * ARCHIVE_MAX_MESSAGES messages are taken or ARCHIVE_MAX_SKIPPED entries were bad, or when a HAR's
 * structure cannot be followed.
 */
import { type EntryScanner, harScanner, lineScanner, type ScannedEntry } from './archive-scanner';
import { type ArchivedMessage, IMPORT_BATCH_MAX_BYTES } from './ipc-contract';
import { entryMessage } from './webhook-archive';

/** Main's capacity for imported messages at once. */
export const ARCHIVE_MAX_MESSAGES = 1000;
/** Files larger than this are refused before they are read, and reading stops there should one grow. */
export const ARCHIVE_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** A file with this many bad entries is not read on: it is not an archive, or not one of ours. */
export const ARCHIVE_MAX_SKIPPED = 1000;
/** Characters scanned between two pauses. */
export const ARCHIVE_PIECE_CHARS = 64 * 1024;
/** Entries turned into messages between two pauses. */
export const ARCHIVE_ENTRIES_PER_PAUSE = 100;
const MAX_SKIPPED_REPORTED = 20;

export type ArchiveFormat = 'har' | 'ndjson';

export interface ArchiveReadResult {
  format: ArchiveFormat;
  messages: ArchivedMessage[];
  /** How many entries were skipped, and the first few with their place (`entry 5`, `line 3`) and reason. */
  skippedCount: number;
  skipped: { at: string; reason: string }[];
  /** Set when reading stopped before the end of the file: where, and why. */
  stopped?: { at: string; reason: string };
}

export interface ReadPacing {
  /** Gives the page its turn (the window: one task; tests count the calls). */
  pause(): Promise<void>;
  /** Told before each pause: how many of the file's bytes have been read and how many entries taken. */
  progress?(read: { bytes: number; entries: number }): void;
}

/** Reads the file `open` gives (again when it was not a HAR, to read it as NDJSON). */
export async function readArchive(open: () => AsyncIterable<Uint8Array>, pacing: ReadPacing): Promise<ArchiveReadResult> {
  return (await readAs('har', open, pacing)) ?? (await readAs('ndjson', open, pacing))!;
}

/** Undefined when `format` is 'har' and the file turned out not to be one. */
async function readAs(format: ArchiveFormat, open: () => AsyncIterable<Uint8Array>, pacing: ReadPacing): Promise<ArchiveReadResult | undefined> {
  const scanner: EntryScanner = format === 'har' ? harScanner() : lineScanner();
  const taker = messageTaker(format);
  const decoder = new TextDecoder();
  const found: ScannedEntry[] = [];
  const push = (entry: ScannedEntry) => found.push(entry);
  let bytes = 0;
  const turn = async () => {
    pacing.progress?.({ bytes, entries: taker.count() });
    await pacing.pause();
  };

  /** Takes what the scanner found; true when reading is over. */
  const after = async (state: ReturnType<EntryScanner['feed']>): Promise<boolean> => {
    for (let i = 0; i < found.length; i++) {
      if (taker.take(found[i]!)) return true;
      if ((i + 1) % ARCHIVE_ENTRIES_PER_PAUSE === 0) await turn();
    }
    found.length = 0;
    if (state.state === 'broken') taker.stop(state.reason);
    return state.state !== 'more';
  };

  for await (const chunk of open()) {
    bytes += chunk.byteLength;
    if (bytes > ARCHIVE_MAX_FILE_BYTES) {
      taker.stop(`the file is larger than ${ARCHIVE_MAX_FILE_BYTES / 1024 / 1024} MiB; the rest was not read`);
      return taker.result;
    }
    const text = decoder.decode(chunk, { stream: true });
    for (let at = 0; at < text.length; at += ARCHIVE_PIECE_CHARS) {
      const state = scanner.feed(text.slice(at, at + ARCHIVE_PIECE_CHARS), push);
      if (state.state === 'not-har') return undefined;
      if (await after(state)) return taker.result;
      await turn();
    }
  }
  const last = scanner.feed(decoder.decode(), push);
  if (last.state === 'not-har') return undefined;
  if (await after(last)) return taker.result;
  const end = scanner.end(push);
  if (end.state === 'not-har') return undefined;
  await after(end);
  return taker.result;
}

/** A message's size as it crosses the bridge: UTF-8 bytes of its JSON. */
export function messageBytes(message: ArchivedMessage): number {
  return new TextEncoder().encode(JSON.stringify(message)).length;
}

/** Counts entries, turns the good ones into messages and keeps the tallies and bounds. */
function messageTaker(format: ArchiveFormat) {
  const result: ArchiveReadResult = { format, messages: [], skippedCount: 0, skipped: [] };
  const seen = new Set<string>();
  let number = 0;
  const at = () => `${format === 'har' ? 'entry' : 'line'} ${number}`;
  const stop = (reason: string) => {
    result.stopped ??= { at: at(), reason };
  };
  const skip = (reason: string): boolean => {
    result.skippedCount++;
    if (result.skipped.length < MAX_SKIPPED_REPORTED) result.skipped.push({ at: at(), reason });
    if (result.skippedCount < ARCHIVE_MAX_SKIPPED) return false;
    stop(`${ARCHIVE_MAX_SKIPPED} entries could not be read; the rest was not read`);
    return true;
  };
  return {
    result,
    stop,
    count: () => number,
    take(entry: ScannedEntry): boolean {
      number++;
      if (!entry.ok) return skip(entry.reason);
      if (format === 'ndjson' && entry.text.trim() === '') return false;
      if (result.messages.length >= ARCHIVE_MAX_MESSAGES) {
        stop(`more than ${ARCHIVE_MAX_MESSAGES} messages, the most one import takes; the rest was not read`);
        return true;
      }
      const read = entryMessage(format, entry.text, number);
      if (!read.ok) return skip(read.reason);
      const { message } = read;
      const key = `${message.webhookId}/${message.id}`;
      if (seen.has(key)) return skip(`message ${message.id} appears twice`);
      const size = messageBytes(message);
      if (size > IMPORT_BATCH_MAX_BYTES) return skip(`too large: ${Math.ceil(size / 1024)} KiB as a message, at most ${IMPORT_BATCH_MAX_BYTES / 1024} KiB`);
      seen.add(key);
      result.messages.push(message);
      return false;
    },
  };
}
