/**
 * JSON.parse for untrusted text, with two checks it lacks:
 *
 * - Depth: a linear scan counts open brackets outside strings BEFORE parsing, with a loop and a
 *   counter (no recursion), so `[[[[…` 100,000 deep is refused without building it and without any
 *   recursive consumer (JSON.stringify, zod, the sandbox) ever seeing it. On malformed text the count
 *   may be off, but then JSON.parse refuses it anyway.
 * - Prototype poisoning (as secure-json-parse): an object with an own `__proto__` key, or a
 *   `constructor` holding a `prototype`, is refused. JSON.parse itself makes such keys plain own
 *   properties, but a consumer that merges objects naively would turn them into prototype writes.
 *   The walk runs only when the text could spell such a key (contains "proto" or a `\u` escape).
 */
import { firstJsonSyntaxError } from '../../common/json-syntax-error';

export type SafeJsonResult = { ok: true; value: unknown } | { ok: false; problem: string; at?: JsonErrorPosition };

/** Where JSON text stops parsing: UTF-8 byte offset (0-based), line and column (1-based, the column in characters). */
export interface JsonErrorPosition {
  offset: number;
  line: number;
  column: number;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function parseJsonSafely(text: string, maxDepth: number): SafeJsonResult {
  if (nestingExceeds(text, maxDepth)) return { ok: false, problem: `The JSON body is nested deeper than ${maxDepth} levels.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Only for text JSON.parse refused: where it stops, from a second, strict scan.
    const first = firstJsonSyntaxError(text);
    if (!first) return { ok: false, problem: 'The body is not valid JSON.' };
    const at = { offset: Buffer.byteLength(text.slice(0, first.index)), line: first.line, column: first.column };
    return { ok: false, problem: `The body is not valid JSON (line ${at.line}, column ${at.column}, byte ${at.offset}): ${first.problem}.`, at };
  }
  if ((text.includes('proto') || text.includes('\\u')) && carriesPrototypeKey(value)) {
    return { ok: false, problem: 'The JSON body carries a __proto__ or constructor.prototype key.' };
  }
  return { ok: true, value };
}

export function nestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Most of a large body is inside strings: skipped with a native search, not a character at a time.
    if (c === QUOTE) i = closingQuote(text, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Where the string opened at `open` ends: its first quote after an even run of backslashes (the text's length if none). */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    // Each run of backslashes is counted once, by the quote it ends at: linear in all.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/** Iterative walk; the depth was bounded before parsing, the stack array holds at most the values of one document. */
function carriesPrototypeKey(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Object.hasOwn(value, '__proto__')) return true;
    const ctor = (value as Record<string, unknown>).constructor;
    if (Object.hasOwn(value, 'constructor') && typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return true;
    for (const child of Object.values(value)) pending.push(child);
  }
  return false;
}
