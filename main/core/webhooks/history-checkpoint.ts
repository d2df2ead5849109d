/**
 * A checkpoint of the inspector's state (docs/webhooks-app.md, "History"): what a start reads instead of
 * replaying every record of the journal (history-journal.ts). Replaying 100,000 messages took about 3 s
 * (decrypting and parsing every record with its base64 body, checking it against the contract's schema,
 * taking it in again); a checkpoint is the state itself, each body as its own bytes.
 *
 * - The file `checkpoint` in the journal's folder: a header (`HDWC`, a version byte, the journal key's
 *   id) and frames, each a 4-byte big-endian length and an AES-256-GCM record (aes-gcm.ts) of a 4-byte
 *   length, that much JSON, and the bodies' bytes the JSON points into. The first frame is the head
 *   (how many entries, the bodies' eviction order, the forwarder's drop marks, and `through`: the last
 *   journal segment whose records the state holds); each next frame holds up to FRAME_ENTRIES entries.
 * - Written to `checkpoint.tmp`, synced, then renamed over the old one: a crash leaves the old or the
 *   new checkpoint, never half of one. Frames are sealed one at a time with a turn of the event loop
 *   between them, and so are they read.
 * - Read whole or not at all: a frame that does not open, or entries that do not add up, make the whole
 *   checkpoint unread (`damaged`). Its frames are authenticated with the journal's key, so only this
 *   code wrote what opens; the entries are still checked for shape before the inspector takes them.
 */
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { openBytes, SEAL_OVERHEAD_BYTES, sealBytes } from '../shared';
import { journalKeyId } from './history-journal';
import type { InspectorState, KeptBody, SavedEntry } from './webhook-inspector';

const MAGIC = Buffer.from('HDWC');
const FORMAT_V1 = 1;
const HEADER_BYTES = MAGIC.length + 1 + 8;
const FILE = 'checkpoint';
const TEMPORARY = 'checkpoint.tmp';
/** Entries per frame, and bodies' bytes at most per frame (a larger single body gets a frame of its own). */
const FRAME_ENTRIES = 2_000;
const FRAME_BODY_BYTES = 4 * 1024 * 1024;

export interface Checkpoint {
  /** The last journal segment whose records the state holds: the records of later segments are read after it. */
  through: number;
  state: InspectorState;
}

export type CheckpointRead = { status: 'none' } | { status: 'damaged' } | ({ status: 'read'; bytes: number } & Checkpoint);

/**
 * An entry in a frame's JSON: one flat array (no object per body), its body as its kind (-1 none, 0 text,
 * 1 bytes), its length in the frame's bodies, whether its text has escapes, and whether it has a number
 * in another form (0, 1, -1 not known).
 */
type EntryRow = [
  arrivedAt: number,
  meta: SavedEntry['meta'],
  pairs: SavedEntry['pairs'],
  fixed: SavedEntry['fixed'],
  evicted: boolean,
  fullRouting: SavedEntry['fullRouting'],
  archivedSignature: SavedEntry['archivedSignature'] | null,
  entryBytes: number,
  bodyBytes: number,
  bodyKind: -1 | 0 | 1,
  bodyLength: number,
  escaped: 0 | 1,
  unplainNumber: 0 | 1 | -1,
];
interface Head {
  through: number;
  entries: number;
  bodyOrder: number[];
  droppedThrough: Array<[string, string]>;
}

/** Writes `checkpoint` atomically; resolves with its size in bytes. */
export async function writeCheckpoint(dir: string, key: Buffer, { through, state }: Checkpoint): Promise<number> {
  const temporary = join(dir, TEMPORARY);
  const file = await open(temporary, 'w', 0o600);
  let bytes = 0;
  const writeFrame = async (json: unknown, bodies: Buffer[]) => {
    const text = Buffer.from(JSON.stringify(json));
    const jsonLength = Buffer.alloc(4);
    jsonLength.writeUInt32BE(text.length);
    const sealed = sealBytes(key, Buffer.concat([jsonLength, text, ...bodies]));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(sealed.length);
    const frame = Buffer.concat(bytes === 0 ? [MAGIC, Buffer.of(FORMAT_V1), journalKeyId(key), length, sealed] : [length, sealed]);
    await file.write(frame);
    bytes += frame.length;
    await yieldToEventLoop();
  };
  try {
    const head: Head = { through, entries: state.entries.length, bodyOrder: state.bodyOrder, droppedThrough: state.droppedThrough };
    await writeFrame(head, []);
    let rows: EntryRow[] = [];
    let bodies: Buffer[] = [];
    let bodyBytes = 0;
    for (const entry of state.entries) {
      const body = entry.body && bodyBytesOf(entry.body);
      if (rows.length === FRAME_ENTRIES || (rows.length > 0 && body && bodyBytes + body.length > FRAME_BODY_BYTES)) {
        await writeFrame(rows, bodies);
        rows = [];
        bodies = [];
        bodyBytes = 0;
      }
      rows.push(rowOf(entry, body));
      if (body) {
        bodies.push(body);
        bodyBytes += body.length;
      }
    }
    if (rows.length > 0) await writeFrame(rows, bodies);
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, join(dir, FILE));
  return bytes;
}

/** Reads `checkpoint`: none when there is none, damaged when any of it does not open or add up. */
export async function readCheckpoint(dir: string, key: Buffer): Promise<CheckpointRead> {
  let file: Buffer;
  try {
    file = await readFile(join(dir, FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'none' };
    throw error;
  }
  const header = Buffer.concat([MAGIC, Buffer.of(FORMAT_V1), journalKeyId(key)]);
  if (file.length < HEADER_BYTES || !file.subarray(0, HEADER_BYTES).equals(header)) return { status: 'damaged' };
  let offset = HEADER_BYTES;
  const next = () => {
    const frame = openFrame(file, offset, key);
    if (frame) offset = frame.end;
    return frame;
  };
  const first = next();
  const head = first && headOf(first.json);
  if (!head || first.region.length !== 0) return { status: 'damaged' };
  const entries: SavedEntry[] = [];
  while (offset < file.length) {
    await yieldToEventLoop();
    const frame = next();
    if (!frame || !Array.isArray(frame.json)) return { status: 'damaged' };
    let at = 0;
    for (const row of frame.json as unknown[]) {
      const entry = entryOf(row, frame.region, at);
      if (!entry) return { status: 'damaged' };
      at += entry.body?.bytes ?? 0;
      entries.push(entry);
    }
    if (at !== frame.region.length) return { status: 'damaged' };
  }
  if (entries.length !== head.entries || head.bodyOrder.some((index) => !entries[index]?.body)) return { status: 'damaged' };
  return {
    status: 'read',
    bytes: file.length,
    through: head.through,
    state: { entries, bodyOrder: head.bodyOrder, droppedThrough: head.droppedThrough },
  };
}

/** Deletes the checkpoint (and a write's leftover). */
export async function removeCheckpoint(dir: string): Promise<void> {
  await rm(join(dir, FILE), { force: true });
  await rm(join(dir, TEMPORARY), { force: true });
}

/** The checkpoint's size on disk (0 without one). */
export async function checkpointBytes(dir: string): Promise<number> {
  return stat(join(dir, FILE)).then(
    (found) => found.size,
    () => 0,
  );
}

function bodyBytesOf(body: KeptBody): Buffer {
  return 'text' in body ? Buffer.from(body.text, 'utf8') : body.raw;
}

function rowOf(entry: SavedEntry, body: Buffer | null): EntryRow {
  const kept = entry.body;
  const text = kept !== null && 'text' in kept;
  return [
    entry.arrivedAt,
    entry.meta,
    entry.pairs,
    entry.fixed,
    entry.evicted,
    entry.fullRouting,
    entry.archivedSignature ?? null,
    entry.entryBytes,
    entry.bodyBytes,
    kept === null || body === null ? -1 : text ? 0 : 1,
    body?.length ?? 0,
    text && kept.escaped ? 1 : 0,
    !text || kept.unplainNumber === undefined ? -1 : kept.unplainNumber ? 1 : 0,
  ];
}

function openFrame(file: Buffer, offset: number, key: Buffer): { json: unknown; region: Buffer; end: number } | null {
  if (offset + 4 > file.length) return null;
  const length = file.readUInt32BE(offset);
  const end = offset + 4 + length;
  if (length < SEAL_OVERHEAD_BYTES || end > file.length) return null;
  try {
    const plain = openBytes(key, file.subarray(offset + 4, end));
    const jsonLength = plain.readUInt32BE(0);
    if (4 + jsonLength > plain.length) return null;
    return { json: JSON.parse(plain.toString('utf8', 4, 4 + jsonLength)) as unknown, region: plain.subarray(4 + jsonLength), end };
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isStringRecord = (value: unknown) => isRecord(value) && Object.values(value).every((item) => typeof item === 'string');

function headOf(json: unknown): Head | null {
  if (!isRecord(json)) return null;
  const { through, entries, bodyOrder, droppedThrough } = json;
  if (!isCount(through) || !isCount(entries) || !Array.isArray(bodyOrder) || !bodyOrder.every(isCount)) return null;
  if (!Array.isArray(droppedThrough) || !droppedThrough.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((v) => typeof v === 'string')))
    return null;
  return { through, entries, bodyOrder, droppedThrough: droppedThrough as Array<[string, string]> };
}

/** An entry of a frame, its body read from `region` at `at`; null when the row is not one. */
function entryOf(row: unknown, region: Buffer, at: number): SavedEntry | null {
  if (!Array.isArray(row) || row.length !== 13) return null;
  const [arrivedAt, meta, pairs, fixed, evicted, fullRouting, archivedSignature, entryBytes, bodyBytes, kind, length, escaped, unplainNumber] = row as EntryRow;
  if (typeof arrivedAt !== 'number' || !isCount(entryBytes) || !isCount(bodyBytes) || typeof evicted !== 'boolean') return null;
  if (!isRecord(meta) || typeof meta.webhookId !== 'string' || typeof meta.id !== 'string' || typeof meta.receivedAt !== 'string') return null;
  if (!isRecord(pairs) || !isStringRecord(pairs.headers) || !isStringRecord(pairs.query)) return null;
  if ((fixed !== null && !isRecord(fixed)) || (fullRouting !== null && !isRecord(fullRouting))) return null;
  const body = kind === -1 ? null : bodyOf(kind, length, region, at, escaped, unplainNumber);
  if (body === undefined) return null;
  return {
    arrivedAt,
    meta,
    pairs,
    fixed,
    evicted,
    fullRouting,
    ...(archivedSignature !== null && { archivedSignature }),
    entryBytes,
    bodyBytes,
    body,
  };
}

function bodyOf(kind: unknown, bytes: unknown, region: Buffer, at: number, escaped: unknown, unplainNumber: unknown): KeptBody | undefined {
  if ((kind !== 0 && kind !== 1) || !isCount(bytes) || at + bytes > region.length) return undefined;
  // A copy, not a view: a view would keep the frame's whole region alive as long as any of its bodies.
  if (kind === 1) return { raw: Buffer.from(region.subarray(at, at + bytes)), bytes };
  const text = region.toString('utf8', at, at + bytes);
  return { text, bytes, escaped: escaped === 1, ...(unplainNumber !== -1 && { unplainNumber: unplainNumber === 1 }) };
}
