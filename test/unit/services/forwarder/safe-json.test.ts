import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingExceeds, parseJsonSafely } from '../../../../services/forwarder/safe-json';

describe('parseJsonSafely', () => {
  it('parses ordinary JSON', () => {
    expect(parseJsonSafely('{"a":[1,{"b":"c"}],"proto":"fine"}', 8)).toEqual({ ok: true, value: { a: [1, { b: 'c' }], proto: 'fine' } });
  });

  it('counts nesting outside strings only, up to and including the limit', () => {
    expect(nestingExceeds('[[[]]]', 3)).toBe(false);
    expect(nestingExceeds('[[[[]]]]', 3)).toBe(true);
    expect(nestingExceeds('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(parseJsonSafely('['.repeat(1_000_000), 64)).toEqual({ ok: false, problem: 'The JSON body is nested deeper than 64 levels.' });
  });

  it('finds the depth a character-by-character scan finds, on any text of brackets, quotes and backslashes', () => {
    const oneByOne = (text: string, maxDepth: number) => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '[' || c === '{') {
          if (++depth > maxDepth) return true;
        } else if (c === ']' || c === '}') depth--;
      }
      return false;
    };
    const texts = fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ':', ','), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(texts, fc.nat({ max: 6 }), (text, maxDepth) => nestingExceeds(text, maxDepth) === oneByOne(text, maxDepth)),
      { numRuns: 2000 },
    );
  });

  it('refuses malformed JSON', () => {
    expect(parseJsonSafely('{"a":', 8)).toEqual({
      ok: false,
      problem: 'The body is not valid JSON (line 1, column 6, byte 5): a value was expected.',
      at: { offset: 5, line: 1, column: 6 },
    });
    expect(parseJsonSafely('{"é":\n x}', 8)).toMatchObject({ ok: false, at: { offset: 8, line: 2, column: 2 } });
  });

  it('refuses __proto__ keys (plain or escaped, at any depth) and constructor.prototype, but not a plain constructor', () => {
    for (const text of ['{"__proto__":{"x":1}}', '[{"a":{"\\u005f_proto__":1}}]', '{"constructor":{"prototype":{}}}']) {
      expect(parseJsonSafely(text, 8).ok).toBe(false);
    }
    expect(parseJsonSafely('{"constructor":"Acme"}', 8)).toEqual({ ok: true, value: { constructor: 'Acme' } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
