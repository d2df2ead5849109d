/**
 * A checkpoint of the inspector's state (docs/webhooks-app.md, "History"): what a start reads instead of
 * replaying every record of the journal (history-journal.ts). Replaying 100,000 messages took about 3 s
 * (decrypting and parsing every record with its base64 body, checking it against the contract's schema,
 * taking it in again); a checkpoint is the state itself, each body as its own bytes.
 *
 * - The file `checkpoint` in the journal's folder: a header (`HDWC`, a version byte, the journal key's
 *   id) and frames, each a 4-byte big-endian length and an AES-256-GCM record (aes-gcm.ts). The first
 *   frame is the head, JSON (how many entries, the bodies' eviction order, the forwarder's drop marks,
 *   and `through`: the last journal segment whose records the state holds); each next frame holds up to
 *   FRAME_ENTRIES entries, as a binary index, texts and bodies (see INDEX_BYTES). Parsing every entry's
 *   JSON was half of a start's time (0.52 s of JSON.parse for 100,000 entries), so an entry's parts
 *   (meta, headers and query, cut routing, signature) stay their text until the inspector reads them.
 * - Written to `checkpoint.tmp`, synced, then renamed over the old one: a crash leaves the old or the
 *   new checkpoint, never half of one. Frames are sealed one at a time with a turn of the event loop
 *   between them, and so are they read.
 * - Read whole or not at all: a frame that does not open, or lengths and counts that do not add up,
 *   make the whole checkpoint unread (`damaged`). Its frames are authenticated with the journal's key, so
 *   only this code wrote what opens; an entry's parts are still checked for shape when they are read
 *   (`decodeEntryParts`), and parts that do not pass leave the entry listed by its id and time alone.
 */
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { journalKeyId, openSealedFrame, sealedFrame } from './history-journal';
import type { KeptBody } from './inspector-body';
import type { EntryParts, SavedEntry } from './inspector-entry';
import type { InspectorState } from './webhook-inspector';

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

interface Head {
  through: number;
  entries: number;
  bodyOrder: number[];
  droppedThrough: Array<[string, string]>;
}

/**
 * An entry frame's plaintext: a 4-byte count, then per entry an INDEX_BYTES record (little-endian:
 * arrivedAt f64; entry and body bytes accounted, key length, parts length, body length u32; flags u8),
 * then the keys and parts' texts (UTF-8, per entry its key `webhookId\nid` then the JSON of its parts),
 * then the bodies. No JSON is parsed to read a frame: the parts stay text until the inspector reads them.
 */
const INDEX_BYTES = 8 + 5 * 4 + 1;
const EVICTED = 1;
const AWAITING = 2;
/** Bits 2–3: 0 no body, 1 text, 2 bytes. */
const BODY_SHIFT = 2;
const ESCAPED = 16;
/** Bits 5–6: 0 not known, 1 false, 2 true. */
const UNPLAIN_SHIFT = 5;

/** Writes `checkpoint` atomically; resolves with its size in bytes. */
export async function writeCheckpoint(dir: string, key: Buffer, { through, state }: Checkpoint): Promise<number> {
  const temporary = join(dir, TEMPORARY);
  const file = await open(temporary, 'w', 0o600);
  let bytes = 0;
  const writeFrame = async (plain: Buffer) => {
    const sealed = sealedFrame(key, plain);
    const frame = bytes === 0 ? Buffer.concat([MAGIC, Buffer.of(FORMAT_V1), journalKeyId(key), sealed]) : sealed;
    await file.write(frame);
    bytes += frame.length;
    await yieldToEventLoop();
  };
  try {
    const head: Head = { through, entries: state.entries.length, bodyOrder: state.bodyOrder, droppedThrough: state.droppedThrough };
    await writeFrame(Buffer.from(JSON.stringify(head)));
    let part: SavedEntry[] = [];
    let bodyBytes = 0;
    for (const entry of state.entries) {
      const size = entry.body?.bytes ?? 0;
      if (part.length === FRAME_ENTRIES || (part.length > 0 && bodyBytes + size > FRAME_BODY_BYTES)) {
        await writeFrame(entryFrame(part));
        part = [];
        bodyBytes = 0;
      }
      part.push(entry);
      bodyBytes += size;
    }
    if (part.length > 0) await writeFrame(entryFrame(part));
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

/** The plaintext of one frame of entries (see INDEX_BYTES). */
function entryFrame(entries: readonly SavedEntry[]): Buffer {
  const texts: Buffer[] = [];
  const bodies: Buffer[] = [];
  const index = Buffer.alloc(4 + entries.length * INDEX_BYTES);
  index.writeUInt32LE(entries.length, 0);
  entries.forEach((entry, i) => {
    const key = Buffer.from(`${entry.webhookId}\n${entry.id}`);
    const parts = Buffer.isBuffer(entry.parts) ? entry.parts : Buffer.from(partsJson(entry.parts));
    const body = entry.body && ('text' in entry.body ? Buffer.from(entry.body.text, 'utf8') : entry.body.raw);
    texts.push(key, parts);
    if (body) bodies.push(body);
    let flags = (entry.evicted ? EVICTED : 0) | (entry.awaitingDelivery ? AWAITING : 0);
    if (entry.body && 'text' in entry.body) {
      flags |= (1 << BODY_SHIFT) | (entry.body.escaped ? ESCAPED : 0);
      if (entry.body.unplainNumber !== undefined) flags |= (entry.body.unplainNumber ? 2 : 1) << UNPLAIN_SHIFT;
    } else if (entry.body) flags |= 2 << BODY_SHIFT;
    let at = 4 + i * INDEX_BYTES;
    at = index.writeDoubleLE(entry.arrivedAt, at);
    for (const count of [entry.entryBytes, entry.bodyBytes, key.length, parts.length, body?.length ?? 0]) at = index.writeUInt32LE(count, at);
    index.writeUInt8(flags, at);
  });
  return Buffer.concat([index, ...texts, ...bodies]);
}

/** The text a checkpoint keeps of an entry's parts: `[meta, pairs, fixed, fullRouting, archivedSignature]`. */
function partsJson({ meta, pairs, fixed, fullRouting, archivedSignature }: EntryParts): string {
  return JSON.stringify([meta, pairs, fixed, fullRouting, archivedSignature ?? null]);
}

/**
 * The parts of an entry from their text (what `restoreState` reads them with), or null when they do
 * not read as parts: ids and times strings, headers and query string maps.
 */
export function decodeEntryParts(text: Buffer): EntryParts | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) return null;
  const [meta, pairs, fixed, fullRouting, archivedSignature] = parsed as unknown[];
  if (!isRecord(meta) || typeof meta.webhookId !== 'string' || typeof meta.id !== 'string' || typeof meta.receivedAt !== 'string') return null;
  if (!isRecord(pairs) || !isStringRecord(pairs.headers) || !isStringRecord(pairs.query)) return null;
  if ((fixed !== null && !isRecord(fixed)) || (fullRouting !== null && !isRecord(fullRouting))) return null;
  return {
    meta: meta as unknown as EntryParts['meta'],
    pairs: pairs as EntryParts['pairs'],
    fixed: fixed as EntryParts['fixed'],
    fullRouting: fullRouting as EntryParts['fullRouting'],
    ...(isRecord(archivedSignature) && { archivedSignature: archivedSignature as unknown as EntryParts['archivedSignature'] }),
  };
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
    const frame = openSealedFrame(file, offset, key);
    if (frame) offset = frame.end;
    return frame;
  };
  const first = next();
  const head = first && headOf(first);
  if (!head) return { status: 'damaged' };
  const entries: SavedEntry[] = [];
  while (offset < file.length) {
    await yieldToEventLoop();
    const frame = next();
    if (!frame || !readEntries(frame, entries)) return { status: 'damaged' };
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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isStringRecord = (value: unknown) => isRecord(value) && Object.values(value).every((item) => typeof item === 'string');

function headOf({ plain }: { plain: Buffer }): Head | null {
  let json: unknown;
  try {
    json = JSON.parse(plain.toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(json)) return null;
  const { through, entries, bodyOrder, droppedThrough } = json;
  if (!isCount(through) || !isCount(entries) || !Array.isArray(bodyOrder) || !bodyOrder.every(isCount)) return null;
  if (!Array.isArray(droppedThrough) || !droppedThrough.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((v) => typeof v === 'string')))
    return null;
  return { through, entries, bodyOrder, droppedThrough: droppedThrough as Array<[string, string]> };
}

/** Appends the entries of a frame to `entries`; false when the frame does not add up (a length past its end). */
function readEntries({ plain }: { plain: Buffer }, entries: SavedEntry[]): boolean {
  if (plain.length < 4) return false;
  const count = plain.readUInt32LE(0);
  const indexEnd = 4 + count * INDEX_BYTES;
  if (indexEnd > plain.length) return false;
  let text = indexEnd;
  let textEnd = indexEnd;
  for (let i = 0; i < count; i++) textEnd += plain.readUInt32LE(4 + i * INDEX_BYTES + 16) + plain.readUInt32LE(4 + i * INDEX_BYTES + 20);
  let body = textEnd;
  for (let i = 0; i < count; i++) {
    const at = 4 + i * INDEX_BYTES;
    const keyLength = plain.readUInt32LE(at + 16);
    const partsLength = plain.readUInt32LE(at + 20);
    const bodyLength = plain.readUInt32LE(at + 24);
    const flags = plain.readUInt8(at + 28);
    if (textEnd > plain.length || body + bodyLength > plain.length) return false;
    const key = plain.toString('utf8', text, text + keyLength);
    const split = key.indexOf('\n');
    if (split < 0) return false;
    // A view of the frame, not a string: the frame's plaintext is kept until its entries' parts are read
    // (a few thousand a turn after the start); 36 MB of strings made at once were a third of the start's
    // garbage collection, every young collection copying them all again.
    const parts = plain.subarray(text + keyLength, text + keyLength + partsLength);
    text += keyLength + partsLength;
    entries.push({
      arrivedAt: plain.readDoubleLE(at),
      webhookId: key.slice(0, split),
      id: key.slice(split + 1),
      awaitingDelivery: (flags & AWAITING) !== 0,
      evicted: (flags & EVICTED) !== 0,
      entryBytes: plain.readUInt32LE(at + 8),
      bodyBytes: plain.readUInt32LE(at + 12),
      body: bodyOf(flags, plain, body, bodyLength),
      parts,
    });
    body += bodyLength;
  }
  return body === plain.length;
}

function bodyOf(flags: number, plain: Buffer, at: number, bytes: number): KeptBody | null {
  const kind = (flags >> BODY_SHIFT) & 3;
  if (kind === 0) return null;
  // A copy, not a view: a view would keep the frame's whole plaintext alive as long as any of its bodies.
  if (kind !== 1) return { raw: Buffer.from(plain.subarray(at, at + bytes)), bytes };
  const unplain = (flags >> UNPLAIN_SHIFT) & 3;
  const text = plain.toString('utf8', at, at + bytes);
  return { text, bytes, escaped: (flags & ESCAPED) !== 0, ...(unplain !== 0 && { unplainNumber: unplain === 2 }) };
}
