/**
 * An append-only journal of JSON records, encrypted at rest, in a folder of segment files: what the
 * webhook history is kept in (webhook-history.ts says what the records are). It knows files, frames
 * and bounds; nothing about webhooks.
 *
 * - A segment is `NNNNNNNNNN.log`: a header (`HDWH`, a version byte, the first 8 bytes of the
 *   SHA-256 of the key, so a segment of another key is told apart from a damaged one) and frames.
 *   A frame is a 4-byte big-endian length and an AES-256-GCM record (aes-gcm.ts) of one batch:
 *   `{ newest, records: [[at, record], …] }`, `at` being when the record was appended (ms).
 * - Appends are batched: one frame per `flushMs` (200 ms) at most, or sooner when MAX_FRAME_BYTES are
 *   waiting; a crash loses at most that. Writes run one at a time, in order. What waits to be written
 *   is bounded (`maxPendingBytes`), the batch being gathered and the batches queued behind a slow write
 *   together: beyond it, records are not saved (logged once per episode, and `status().error` says so),
 *   the disk being far slower than the network for that long.
 * - Reading yields to the event loop after each frame (at most MAX_FRAME_BYTES), so a large history
 *   read at start never holds the process for long.
 * - Every start writes to a new segment, and a segment is closed at `segmentBytes`: a frame torn by a
 *   crash is only ever at the end of a segment nothing is appended to again. Reading stops at a
 *   damaged frame; the frames before it are kept.
 * - Bounds: the segments together stay within `boundBytes` less the bytes reserved for the folder's
 *   checkpoint (the oldest segment is deleted first; the newest is never deleted for the bound, and it is
 *   at most `segmentBytes`, an eighth of the bound by default), and `dropBefore(at)` deletes the segments
 *   whose newest record is older than `at`.
 * - A checkpoint (history-checkpoint.ts) holds the records of the segments up to a number: `cut()` ends
 *   the segment being written and says its number, `dropThrough(n)` deletes the segments a checkpoint
 *   holds, and `load(…, n)` reads only the segments after it.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { openBytes, SEAL_OVERHEAD_BYTES, sealBytes } from '../shared';
import { type Logger, realSchedule, type Schedule } from '../shared';
import { errorMessage } from '../../../common/error-message';

const MAGIC = Buffer.from('HDWH');
const FORMAT_V1 = 1;
const HEADER_BYTES = MAGIC.length + 1 + 8;
const SEGMENT_NAME = /^(\d{10})\.log$/;
const DEFAULT_FLUSH_MS = 200;
/** A batch is written once this much waits, without waiting for the flush timer. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;
const DEFAULT_SEGMENT_MAX_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_PENDING_BYTES = 32 * 1024 * 1024;

export interface JournalOptions {
  dir: string;
  /** 32 bytes. */
  key: Buffer;
  boundBytes: number;
  logger: Logger;
  schedule?: Schedule;
  flushMs?: number;
  /** Default: an eighth of the bound, at most 8 MiB. */
  segmentBytes?: number;
  maxPendingBytes?: number;
}

export interface JournalLoad {
  records: number;
  /** Segments that could not be read to their end (torn by a crash, changed, or of another key). */
  damaged: number;
}

export interface Journal {
  /**
   * Reads every record of the segments after segment `after` (0: all), oldest first, and deletes the
   * segments up to it (a checkpoint holds their records, history-checkpoint.ts). Call once, before the first append.
   */
  load(onRecord: (record: unknown, at: number) => void, after?: number): Promise<JournalLoad>;
  /**
   * Ends the segment being written (what waits is written to it first): what is appended from this call
   * on goes to later segments. Resolves with the last segment's number (0: none), once it is on disk.
   */
  cut(): Promise<number>;
  /** Deletes the segments up to segment `through` (a checkpoint now holds their records). */
  dropThrough(through: number): Promise<void>;
  /** Bytes of the folder that are not segments (the checkpoint): counted in `status()` and against the bound. */
  setReserved(bytes: number): Promise<void>;
  /** The bytes the segments take (without the reserved ones). */
  segmentBytes(): number;
  append(record: object, at: number): void;
  /** Writes what waits now; resolves when it is on disk. */
  flush(): Promise<void>;
  /** Deletes every segment; what waits is dropped. */
  clear(): Promise<void>;
  setBound(boundBytes: number): Promise<void>;
  /** Deletes the segments whose newest record was appended before `at`. */
  dropBefore(at: number): Promise<void>;
  status(): { bytes: number; error: string | null };
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

interface Segment {
  name: string;
  bytes: number;
  newest: number;
}

/** The first 8 bytes of the SHA-256 of the key: a file of another key is told apart from a damaged one. */
export function journalKeyId(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, 8);
}

export function openJournal(options: JournalOptions): Journal {
  const { dir, key, logger } = options;
  const schedule = options.schedule ?? realSchedule;
  const flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
  const maxPendingBytes = options.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
  let boundBytes = options.boundBytes;
  const segmentMax = () => options.segmentBytes ?? Math.min(DEFAULT_SEGMENT_MAX_BYTES, Math.max(64 * 1024, Math.floor(boundBytes / 8)));
  const header = Buffer.concat([MAGIC, Buffer.of(FORMAT_V1), journalKeyId(key)]);

  /** Oldest first; the last one is being written to (once something was appended). */
  let segments: Segment[] = [];
  let nextNumber = 1;
  let current: Segment | null = null;
  let pending: Array<[number, string]> = [];
  let pendingBytes = 0;
  /** What the batches handed to `writing` and not yet written hold: counted against maxPendingBytes with `pendingBytes`. */
  let queuedBytes = 0;
  let overflowing = false;
  let error: string | null = null;
  let cancelTimer: (() => void) | null = null;
  let writing: Promise<void> = Promise.resolve();
  /** Bumped by clear(): a write that was queued before it is dropped. */
  let epoch = 0;

  let reserved = 0;
  const segmentTotal = () => segments.reduce((sum, segment) => sum + segment.bytes, 0);
  const total = () => reserved + segmentTotal();
  const numberOf = (segment: Segment) => Number(SEGMENT_NAME.exec(segment.name)![1]);
  const pathOf = (segment: Segment) => join(dir, segment.name);

  const remove = async (segment: Segment) => {
    segments = segments.filter((candidate) => candidate !== segment);
    if (current === segment) current = null;
    await rm(pathOf(segment), { force: true });
  };

  const enforceBound = async () => {
    while (total() > boundBytes && segments.length > 1) await remove(segments[0]!);
  };

  const writeBatch = async (batch: Array<[number, string]>, batchEpoch: number) => {
    if (batchEpoch !== epoch || batch.length === 0) return;
    const newest = batch[batch.length - 1]![0];
    const plaintext = Buffer.from(`{"newest":${newest},"records":[${batch.map(([at, json]) => `[${at},${json}]`).join(',')}]}`);
    const frame = sealedFrame(key, plaintext);
    if (!current || current.bytes >= segmentMax()) {
      current = { name: `${String(nextNumber++).padStart(10, '0')}.log`, bytes: 0, newest };
      segments.push(current);
    }
    const segment = current;
    const bytes = segment.bytes === 0 ? Buffer.concat([header, frame]) : frame;
    try {
      await appendFile(pathOf(segment), bytes, { mode: 0o600 });
      segment.bytes += bytes.length;
      segment.newest = newest;
      error = null;
      await enforceBound();
    } catch (cause) {
      error = `Hubdesk could not save the webhook history (${errorMessage(cause)}); it is kept until Hubdesk quits.`;
      logger.error('history: a write failed', { error: errorMessage(cause) });
      if (segment.bytes === 0) segments = segments.filter((candidate) => candidate !== segment);
      if (current === segment) current = null; // a partial write: never append after it
    }
  };

  const flush = (): Promise<void> => {
    cancelTimer?.();
    cancelTimer = null;
    const batch = pending;
    const batchBytes = pendingBytes;
    pending = [];
    pendingBytes = 0;
    queuedBytes += batchBytes;
    const batchEpoch = epoch;
    writing = writing.then(() => writeBatch(batch, batchEpoch).finally(() => (queuedBytes -= batchBytes)));
    return writing;
  };

  return {
    async load(onRecord, after = 0) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Numbers go on after the checkpoint's, even when every segment it covers is gone.
      nextNumber = Math.max(nextNumber, after + 1);
      const names = (await readdir(dir)).filter((name) => SEGMENT_NAME.test(name)).sort();
      let records = 0;
      let damaged = 0;
      for (const name of names) {
        const number = Number(SEGMENT_NAME.exec(name)![1]);
        nextNumber = Math.max(nextNumber, number + 1);
        if (number <= after) {
          await rm(join(dir, name), { force: true }); // left by a crash after its checkpoint was written
          continue;
        }
        const file = await readFile(join(dir, name));
        const segment: Segment = { name, bytes: file.length, newest: 0 };
        if (file.length < HEADER_BYTES || !file.subarray(0, HEADER_BYTES).equals(header)) {
          damaged++;
          logger.warn('history: a segment of another key or format was deleted', { segment: name });
          await rm(join(dir, name), { force: true });
          continue;
        }
        segments.push(segment);
        let offset = HEADER_BYTES;
        while (offset < file.length) {
          const frame = readFrame(file, offset, key);
          if (!frame) {
            damaged++;
            logger.warn('history: a segment ends with a damaged frame; the frames before it are kept', { segment: name });
            break;
          }
          offset = frame.end;
          segment.newest = frame.batch.newest;
          for (const [at, record] of frame.batch.records) {
            records++;
            onRecord(record, at);
          }
          // A large history takes seconds to read: the process answers everything else between frames.
          await yieldToEventLoop();
        }
      }
      await enforceBound();
      return { records, damaged };
    },
    append(record, at) {
      const json = JSON.stringify(record);
      if (pendingBytes + queuedBytes + json.length > maxPendingBytes) {
        if (!overflowing) logger.error('history: writes are too slow; records are not being saved', { pendingBytes });
        overflowing = true;
        error = 'Hubdesk could not save the webhook history as fast as messages arrived; some are kept only until Hubdesk quits.';
        return;
      }
      overflowing = false;
      pending.push([at, json]);
      pendingBytes += json.length;
      if (pendingBytes >= MAX_FRAME_BYTES) void flush();
      else cancelTimer ??= schedule(() => void flush(), flushMs);
    },
    flush,
    cut() {
      void flush();
      const cutAt = writing.then(() => {
        current = null;
        return nextNumber - 1;
      });
      writing = cutAt.then(() => {});
      return cutAt;
    },
    async dropThrough(through) {
      await writing;
      for (const segment of [...segments]) if (numberOf(segment) <= through && segment !== current) await remove(segment);
    },
    async setReserved(bytes) {
      reserved = bytes;
      await writing;
      await enforceBound();
    },
    segmentBytes: segmentTotal,
    async clear() {
      epoch++;
      cancelTimer?.();
      cancelTimer = null;
      pending = [];
      pendingBytes = 0;
      await writing;
      for (const segment of [...segments]) await remove(segment);
      current = null;
      error = null;
    },
    async setBound(bytes) {
      boundBytes = bytes;
      await writing;
      await enforceBound();
    },
    async dropBefore(at) {
      await writing;
      for (const segment of [...segments]) if (segment.newest < at && segment !== current) await remove(segment);
    },
    status: () => ({ bytes: total() + queuedBytes + pendingBytes, error }),
    async close() {
      await flush();
    },
  };
}

type Batch = { newest: number; records: Array<[number, unknown]> };

/** A sealed frame: a 4-byte big-endian length and the AES-256-GCM record of `plaintext` (the checkpoint's frames too). */
export function sealedFrame(key: Buffer, plaintext: Buffer): Buffer {
  const sealed = sealBytes(key, plaintext);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(sealed.length);
  return Buffer.concat([length, sealed]);
}

/** The plaintext of the sealed frame at `offset` and where it ends, or null when it is cut short, was changed, or is not one. */
export function openSealedFrame(file: Buffer, offset: number, key: Buffer): { plain: Buffer; end: number } | null {
  if (offset + 4 > file.length) return null;
  const length = file.readUInt32BE(offset);
  const end = offset + 4 + length;
  if (length < SEAL_OVERHEAD_BYTES || end > file.length) return null;
  try {
    return { plain: openBytes(key, file.subarray(offset + 4, end)), end };
  } catch {
    return null;
  }
}

/** The journal frame at `offset`, or null when it is cut short, was changed, or is not one. */
function readFrame(file: Buffer, offset: number, key: Buffer): { batch: Batch; end: number } | null {
  const frame = openSealedFrame(file, offset, key);
  if (!frame) return null;
  try {
    const batch = JSON.parse(frame.plain.toString('utf8')) as Batch;
    if (typeof batch?.newest !== 'number' || !Array.isArray(batch.records)) return null;
    if (!batch.records.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'number')) return null;
    return { batch, end: frame.end };
  } catch {
    return null;
  }
}

/** The bytes the journal's segments take on disk now (what the tests hold to the bound). */
export async function journalBytesOnDisk(dir: string): Promise<number> {
  let bytes = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) if (SEGMENT_NAME.test(name)) bytes += (await stat(join(dir, name))).size;
  return bytes;
}
