/**
 * The key-path language of webhook routing (docs/interface.md §6.1.3; grammar, limits and rules in docs/key-paths.md):
 * `body.device.id`, `headers['x-hub-id']`, `body.items[0]["name"]`.
 *
 * Paths come from webhook owners and are evaluated against bodies sent by anyone, so both halves are
 * defensive: the parser is a single index-based pass (no eval, no regular expressions, bounded input),
 * and evaluation reads own data properties only, never runs a getter, never reaches a prototype and
 * never throws.
 */

export type KeyPathRoot = 'body' | 'headers' | 'query';

export interface KeyPath {
  readonly root: KeyPathRoot;
  /** Property names (strings) and array indexes (numbers), in order. */
  readonly segments: readonly (string | number)[];
  /** The text the path was parsed from. */
  readonly source: string;
}

export class KeyPathError extends Error {
  override readonly name = 'KeyPathError';
  constructor(
    message: string,
    /** 0-based offset in the source where the problem is. */
    readonly position: number,
  ) {
    super(message);
  }
}

export const KEY_PATH_LIMITS: { readonly maxLength: number; readonly maxDepth: number } = Object.freeze({
  maxLength: 512,
  maxDepth: 32,
});

/** The largest array index JavaScript has; a bigger one can never match. */
const MAX_INDEX = 4_294_967_294;

const ROOTS: readonly string[] = ['body', 'headers', 'query'] satisfies KeyPathRoot[];

/** Names that lead to prototypes or constructors: they resolve to nothing, even as own JSON keys. */
const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const DOT = 0x2e;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const SINGLE = 0x27;
const DOUBLE = 0x22;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;

const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;

// [A-Za-z_$]
const isIdentStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;

// [A-Za-z0-9_$]
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);

/** End of the identifier starting at `start`, or `start` when there is none. */
function identEnd(text: string, start: number): number {
  if (start >= text.length || !isIdentStart(text.charCodeAt(start))) return start;
  let end = start + 1;
  while (end < text.length && isIdentPart(text.charCodeAt(end))) end++;
  return end;
}

const isIdentifier = (text: string): boolean => text.length > 0 && identEnd(text, 0) === text.length;

const isRoot = (name: string): name is KeyPathRoot => ROOTS.includes(name);

type Scanned<T> = readonly [value: T, next: number];

/** Parses a key path; throws KeyPathError saying what was expected and where. */
export function parseKeyPath(source: string): KeyPath {
  if (typeof source !== 'string') throw new KeyPathError('key path must be a string', 0);
  const { maxLength, maxDepth } = KEY_PATH_LIMITS;
  if (source.length > maxLength) throw new KeyPathError(`path too long (max ${maxLength})`, maxLength);

  const rootEnd = identEnd(source, 0);
  if (rootEnd === 0) throw new KeyPathError('expected body, headers or query at 0', 0);
  const root = source.slice(0, rootEnd);
  if (!isRoot(root)) throw new KeyPathError(`unknown root '${root}' at 0 (expected body, headers or query)`, 0);

  const segments: (string | number)[] = [];
  let pos = rootEnd;
  while (pos < source.length) {
    if (segments.length === maxDepth) throw new KeyPathError(`too deep (max ${maxDepth} segments) at ${pos}`, pos);
    const c = source.charCodeAt(pos);
    let segment: string | number;
    if (c === DOT) {
      const end = identEnd(source, pos + 1);
      if (end === pos + 1) throw new KeyPathError(`expected identifier at ${pos + 1}`, pos + 1);
      [segment, pos] = [source.slice(pos + 1, end), end];
    } else if (c === OPEN) {
      [segment, pos] = scanBracket(source, pos + 1);
    } else {
      throw new KeyPathError(`expected '.' or '[' at ${pos}`, pos);
    }
    segments.push(segment);
  }
  return { root, segments, source };
}

/** `<index>]` or `<quoted string>]`, starting just after the `[`. */
function scanBracket(source: string, start: number): Scanned<string | number> {
  const c = source.charCodeAt(start);
  let scanned: Scanned<string | number>;
  if (isDigit(c)) scanned = scanIndex(source, start);
  else if (c === SINGLE || c === DOUBLE) scanned = scanString(source, start);
  else throw new KeyPathError(`expected index or quoted string at ${start}`, start);
  const [segment, end] = scanned;
  if (source.charCodeAt(end) !== CLOSE) throw new KeyPathError(`expected ']' at ${end}`, end);
  return [segment, end + 1];
}

function scanIndex(source: string, start: number): Scanned<number> {
  if (source.charCodeAt(start) === ZERO) {
    if (isDigit(source.charCodeAt(start + 1))) throw new KeyPathError(`leading zero in index at ${start}`, start);
    return [0, start + 1];
  }
  let value = 0;
  let pos = start;
  while (pos < source.length && isDigit(source.charCodeAt(pos))) {
    value = value * 10 + (source.charCodeAt(pos) - ZERO);
    if (value > MAX_INDEX) throw new KeyPathError(`index too large (max ${MAX_INDEX}) at ${start}`, start);
    pos++;
  }
  return [value, pos];
}

/** A '…' or "…" string; the only escapes are \\, \' and \" (in either kind of string). */
function scanString(source: string, start: number): Scanned<string> {
  const quote = source.charCodeAt(start);
  let value = '';
  let chunkStart = start + 1;
  let pos = chunkStart;
  while (pos < source.length) {
    const c = source.charCodeAt(pos);
    if (c === quote) return [value + source.slice(chunkStart, pos), pos + 1];
    if (c === BACKSLASH) {
      if (pos + 1 >= source.length) break;
      const escaped = source.charCodeAt(pos + 1);
      if (escaped !== BACKSLASH && escaped !== SINGLE && escaped !== DOUBLE) {
        throw new KeyPathError(`invalid escape '\\${source.charAt(pos + 1)}' at ${pos} (expected \\\\, \\' or \\")`, pos);
      }
      value += source.slice(chunkStart, pos) + source.charAt(pos + 1);
      pos += 2;
      chunkStart = pos;
    } else {
      pos++;
    }
  }
  throw new KeyPathError(`unterminated string at ${start}`, start);
}

/**
 * Canonical text of a path: `.ident` where the name is an identifier, `[n]` for indexes, otherwise a
 * quoted string using whichever quote needs fewer escapes (single on a tie). Never longer than any source
 * that parses to the same path, so it always parses back to it.
 */
export function formatKeyPath(path: Pick<KeyPath, 'root' | 'segments'>): string {
  let text: string = path.root;
  for (const segment of path.segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (isIdentifier(segment)) text += `.${segment}`;
    else text += `[${quote(segment)}]`;
  }
  return text;
}

function quote(name: string): string {
  let singles = 0;
  let doubles = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === SINGLE) singles++;
    else if (c === DOUBLE) doubles++;
  }
  const q = doubles < singles ? '"' : "'";
  return q + name.replaceAll('\\', '\\\\').replaceAll(q, `\\${q}`) + q;
}

export interface KeyPathInput {
  body: unknown;
  /** Names lower-cased, as Node delivers them. */
  headers: Record<string, string>;
  query: Record<string, string>;
}

/**
 * The value at `path`, or undefined when it resolves to nothing. Never throws.
 * Arrays are read by number segments only, objects by name (a number segment reads the key "n");
 * only own data properties count; `__proto__`, `constructor` and `prototype` resolve to nothing.
 * Header names are case-insensitive (RFC 9110), so the segment after `headers` is lower-cased.
 */
export function evaluateKeyPath(path: KeyPath, input: KeyPathInput): unknown {
  try {
    let current = ownData(input, path.root);
    for (let i = 0; i < path.segments.length && current !== undefined; i++) {
      const segment = path.segments[i]!;
      current = step(current, path.root === 'headers' && i === 0 && typeof segment === 'string' ? segment.toLowerCase() : segment);
    }
    return current;
  } catch {
    // Only exotic inputs get here (a revoked Proxy throws from any reflection); they hold nothing to find.
    return undefined;
  }
}

function step(value: unknown, segment: string | number): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) return typeof segment === 'number' ? ownData(value, segment) : undefined;
  if (typeof segment === 'string' && FORBIDDEN_NAMES.has(segment)) return undefined;
  return ownData(value, segment);
}

/** An own data property: inherited properties and accessors (whose getters could run code) are nothing. */
function ownData(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

/**
 * Canonical form used to compare `$key`/`$keys` values with extracted values, and to index registrations:
 * strings as is; finite numbers as String(n) (so 5 and "5" match); booleans "true"/"false"; anything else
 * undefined (never matches).
 */
export function canonicalKeyValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
    case 'function':
    case 'object':
    case 'symbol':
    case 'undefined':
      return undefined;
  }
}
