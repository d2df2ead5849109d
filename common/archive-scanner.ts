/**
 * Finds the entries of an archive file in its text as it arrives in pieces, without parsing the whole
 * file: a HAR's `log.entries` elements, or an NDJSON file's lines (docs/webhooks-app.md, "Export and
 * import"). An entry's text is held only until it is complete, and only while it stays within
 * ARCHIVE_MAX_ENTRY_CHARS and ARCHIVE_MAX_DEPTH levels; a larger or deeper one is passed over (its
 * text dropped) and reported as bad, so a hostile file costs at most one entry's bound in memory and
 * nothing nested deeper than the bound reaches JSON.parse (docs/security.md, "Hostile archive files").
 * Every entry is reported, good or bad, in the file's order: the n-th report is entry (or line) n.
 */

/** An entry's text is at most this long: a 256 KiB body written as JSON text with escapes, and room for its headers. */
export const ARCHIVE_MAX_ENTRY_CHARS = 2 * 1024 * 1024;
/** Levels of nesting in one entry: the intake's 64 levels for a routed value, and the entry's own wrappers. */
export const ARCHIVE_MAX_DEPTH = 72;

export type ScannedEntry = { ok: true; text: string } | { ok: false; reason: string };
/** What a piece of text told: go on, the file is not a HAR (read it as NDJSON), the file is over, or it cannot be read on. */
export type ScanState = { state: 'more' | 'not-har' | 'done' } | { state: 'broken'; reason: string };
export type Emit = (found: ScannedEntry) => void;

export interface EntryScanner {
  /** Takes the next piece of the file's text; `emit` is called for each entry that ends in it, in order. */
  feed(piece: string, emit: Emit): ScanState;
  /** The file ended. */
  end(emit: Emit): ScanState;
}

const TOO_LARGE = `longer than ${ARCHIVE_MAX_ENTRY_CHARS / 1024 / 1024} Mi characters`;
const TOO_DEEP = `nested deeper than ${ARCHIVE_MAX_DEPTH} levels`;
/** The next character that ends or escapes inside a JSON string. */
const IN_STRING = /["\\]/g;
/** The entries array in `{ "log": { "entries": [ … ] } }`, the top object being depth 1. */
const ENTRIES_DEPTH = 3;
/** Keys longer than this are not read: the ones looked for are `log` and `entries`. */
const MAX_KEY_CHARS = 64;

/** A HAR's entries. Says `not-har` once the first value turns out not to be an object whose `log` is an object. */
export function harScanner(): EntryScanner {
  let buffer = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let har = false;
  let inEntries = false;
  /** After `[` or `,` in the entries array: the next value is an entry. */
  let elementDue = false;
  /** For depths 1 and 2 (the top object and `log`): whether the next string is a key, and the last key. */
  const expectKey = [false, false, false];
  const isObject = [false, false, false];
  const lastKey = ['', '', ''];
  let keyStart = -1;
  let entry: { start: number; bad: string | null } | null = null;

  const scan = (from: number, emit: Emit): ScanState => {
    for (let i = from; i < buffer.length; i++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        IN_STRING.lastIndex = i;
        const special = IN_STRING.exec(buffer);
        if (!special) break;
        i = special.index;
        if (special[0] === '\\') escaped = true;
        else {
          inString = false;
          if (keyStart >= 0) {
            lastKey[depth] = buffer.slice(keyStart, i);
            expectKey[depth] = false;
            keyStart = -1;
          }
        }
        continue;
      }
      const c = buffer[i]!;
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === ':') continue;
      if (depth === 0 && c !== '{') return { state: har ? 'done' : 'not-har' };
      if (inEntries && depth === ENTRIES_DEPTH && elementDue) {
        elementDue = false;
        if (c === '{') entry = { start: i, bad: null };
        else if (c !== ']') emit({ ok: false, reason: 'not a HAR entry (not an object)' });
      }
      if (c === '"') {
        inString = true;
        if (depth > 0 && depth <= 2 && expectKey[depth]) keyStart = i + 1;
      } else if (c === '{' || c === '[') {
        depth++;
        if (depth <= 2) expectKey[depth] = isObject[depth] = c === '{';
        if (depth === 2 && lastKey[1] === 'log' && c === '{') har = true;
        if (depth === ENTRIES_DEPTH && har && lastKey[2] === 'entries' && c === '[') inEntries = elementDue = true;
        if (entry && depth - ENTRIES_DEPTH > ARCHIVE_MAX_DEPTH) entry.bad ??= TOO_DEEP;
        else if (!entry && depth > ENTRIES_DEPTH + ARCHIVE_MAX_DEPTH)
          return har ? { state: 'broken', reason: `${TOO_DEEP} outside its entries` } : { state: 'not-har' };
      } else if (c === '}' || c === ']') {
        depth--;
        if (entry && depth === ENTRIES_DEPTH) {
          if (i + 1 - entry.start > ARCHIVE_MAX_ENTRY_CHARS) entry.bad ??= TOO_LARGE;
          emit(entry.bad === null ? { ok: true, text: buffer.slice(entry.start, i + 1) } : { ok: false, reason: entry.bad });
          entry = null;
        }
        if (inEntries && depth < ENTRIES_DEPTH) inEntries = false;
        if (depth === 0) return { state: har ? 'done' : 'not-har' };
      } else if (c === ',') {
        if (depth <= 2) expectKey[depth] = isObject[depth]!;
        if (inEntries && depth === ENTRIES_DEPTH) elementDue = true;
      }
    }
    // Keep only what a later piece completes: the open entry's text, or the open key's.
    if (entry && entry.bad === null && buffer.length - entry.start > ARCHIVE_MAX_ENTRY_CHARS) entry.bad = TOO_LARGE;
    if (keyStart >= 0 && buffer.length - keyStart > MAX_KEY_CHARS) {
      keyStart = -1; // no key we look for is this long
      lastKey[depth] = '';
      expectKey[depth] = false;
    }
    const keep = entry && entry.bad === null ? entry.start : keyStart >= 0 ? keyStart : buffer.length;
    if (entry) entry.start -= keep;
    if (keyStart >= 0) keyStart -= keep;
    buffer = buffer.slice(keep);
    return { state: 'more' };
  };

  return {
    feed(piece, emit) {
      const from = buffer.length; // what is kept was scanned already
      buffer += piece;
      return scan(from, emit);
    },
    end() {
      if (har && depth === 0) return { state: 'done' };
      return har ? { state: 'broken', reason: 'the file ends inside its entries (cut short?)' } : { state: 'not-har' };
    },
  };
}

/** An NDJSON file's lines, blank ones included (they keep the numbering); a line over the bounds is reported bad. */
export function lineScanner(): EntryScanner {
  let buffer = '';
  let overlong = false;
  const line = (text: string, emit: Emit) => {
    if (overlong || text.length > ARCHIVE_MAX_ENTRY_CHARS) emit({ ok: false, reason: TOO_LARGE });
    else emit(deeperThan(text, ARCHIVE_MAX_DEPTH) ? { ok: false, reason: TOO_DEEP } : { ok: true, text });
    overlong = false;
  };
  return {
    feed(piece, emit) {
      buffer += piece;
      let start = 0;
      for (let end = buffer.indexOf('\n'); end >= 0; start = end + 1, end = buffer.indexOf('\n', start)) line(buffer.slice(start, end), emit);
      buffer = buffer.slice(start);
      if (buffer.length > ARCHIVE_MAX_ENTRY_CHARS) {
        overlong = true;
        buffer = '';
      }
      return { state: 'more' };
    },
    end(emit) {
      if (buffer !== '' || overlong) line(buffer, emit);
      buffer = '';
      return { state: 'done' };
    },
  };
}

/** Whether JSON text nests deeper than `max` levels (strings skipped; not a check of its syntax). */
function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      IN_STRING.lastIndex = i + 1;
      for (let special = IN_STRING.exec(text); special; special = IN_STRING.exec(text)) {
        i = special.index;
        if (special[0] === '"') break;
        IN_STRING.lastIndex = i + 2; // past the escaped character
      }
      if (IN_STRING.lastIndex === 0) return false; // the string never ends: JSON.parse says so
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
