import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalKeyValue,
  evaluateKeyPath,
  formatKeyPath,
  KEY_PATH_LIMITS,
  KeyPathError,
  parseKeyPath,
  type KeyPathInput,
  type KeyPathRoot,
} from '../../../common/key-path';

const input = (body: unknown, headers: Record<string, string> = {}, query: Record<string, string> = {}): KeyPathInput => ({
  body,
  headers,
  query,
});

const at = (source: string, value: KeyPathInput): unknown => evaluateKeyPath(parseKeyPath(source), value);

function parseError(source: string): KeyPathError {
  try {
    parseKeyPath(source);
  } catch (error) {
    if (error instanceof KeyPathError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} not to parse`);
}

describe('parseKeyPath', () => {
  it.each<[string, KeyPathRoot, (string | number)[]]>([
    ['body', 'body', []],
    ['body.arr[0]', 'body', ['arr', 0]],
    ["body.obj['str-value'].bar", 'body', ['obj', 'str-value', 'bar']],
    ["body.a[0]['b-c']", 'body', ['a', 0, 'b-c']],
    ['body["x"]', 'body', ['x']],
    ["headers['x-hub-id']", 'headers', ['x-hub-id']],
    ['query.hub', 'query', ['hub']],
    ['body.$_a9.A_$', 'body', ['$_a9', 'A_$']],
    ['body[1234567890]', 'body', [1234567890]],
    ['body[4294967294]', 'body', [4294967294]],
    ["body['0']", 'body', ['0']],
    ["body['']", 'body', ['']],
    [String.raw`body['it\'s']`, 'body', ["it's"]],
    [String.raw`body["say \"hi\""]`, 'body', ['say "hi"']],
    [String.raw`body['back\\slash']`, 'body', ['back\\slash']],
    [String.raw`body["\'"]`, 'body', ["'"]],
    ["body['a b.c[d]']", 'body', ['a b.c[d]']],
    ['body.__proto__', 'body', ['__proto__']],
  ])('parses %s', (source, root, segments) => {
    expect(parseKeyPath(source)).toEqual({ root, segments, source });
  });

  it.each<[string, string, number]>([
    ['', 'expected body, headers or query at 0', 0],
    [' body', 'expected body, headers or query at 0', 0],
    ['.a', 'expected body, headers or query at 0', 0],
    ['foo.bar', "unknown root 'foo' at 0 (expected body, headers or query)", 0],
    ['Body.a', "unknown root 'Body' at 0 (expected body, headers or query)", 0],
    ['bodyx', "unknown root 'bodyx' at 0 (expected body, headers or query)", 0],
    ['body.', 'expected identifier at 5', 5],
    ['body..a', 'expected identifier at 5', 5],
    ['body.1a', 'expected identifier at 5', 5],
    ['body.a-b', "expected '.' or '[' at 6", 6],
    ['body.a ', "expected '.' or '[' at 6", 6],
    ['body .a', "expected '.' or '[' at 4", 4],
    ['body.a]', "expected '.' or '[' at 6", 6],
    ['body[', 'expected index or quoted string at 5', 5],
    ['body[]', 'expected index or quoted string at 5', 5],
    ['body[-1]', 'expected index or quoted string at 5', 5],
    ['body[ 0]', 'expected index or quoted string at 5', 5],
    ['body[a]', 'expected index or quoted string at 5', 5],
    ['body[0', "expected ']' at 6", 6],
    ['body[0 ]', "expected ']' at 6", 6],
    ['body[1.5]', "expected ']' at 6", 6],
    ["body.obj['str-value'.bar", "expected ']' at 20", 20],
    ['body[01]', 'leading zero in index at 5', 5],
    ['body[4294967295]', 'index too large (max 4294967294) at 5', 5],
    [`body[${'9'.repeat(400)}]`, 'index too large (max 4294967294) at 5', 5],
    ["body['abc", 'unterminated string at 5', 5],
    ['body["abc\'', 'unterminated string at 5', 5],
    ["body['abc\\'", 'unterminated string at 5', 5],
    ["body['a\\", 'unterminated string at 5', 5],
    [String.raw`body['a\nb']`, String.raw`invalid escape '\n' at 7 (expected \\, \' or \")`, 7],
    [`body.a${'.a'.repeat(31)}.b`, 'too deep (max 32 segments) at 68', 68],
    [`body${'.a'.repeat(300)}`, 'path too long (max 512)', 512],
  ])('rejects %j: %s', (source, message, position) => {
    const error = parseError(source);
    expect(error.message).toBe(message);
    expect(error.position).toBe(position);
  });

  it('accepts exactly the limits', () => {
    expect(parseKeyPath(`body${'.a'.repeat(KEY_PATH_LIMITS.maxDepth)}`).segments).toHaveLength(32);
    const longest = `body['${'x'.repeat(KEY_PATH_LIMITS.maxLength - 8)}']`;
    expect(longest).toHaveLength(512);
    expect(parseKeyPath(longest).segments).toEqual(['x'.repeat(504)]);
    expect(parseError(`body['${'x'.repeat(505)}']`).message).toBe('path too long (max 512)');
  });

  it('refuses a source that is not a string (input from outside is unknown)', () => {
    expect(() => parseKeyPath(42 as unknown as string)).toThrow(new KeyPathError('key path must be a string', 0));
  });

  it.each([
    ['open brackets', `body${'['.repeat(500)}`],
    ['open quotes', `body${"['".repeat(254)}`],
    ['backslashes', `body['${'\\'.repeat(505)}`],
    ['dots', `body${'.'.repeat(508)}`],
    ['nested brackets', `body${"['a']".repeat(101)}`],
  ])('fails adversarial %s of the maximum length with a KeyPathError', (_name, source) => {
    expect(source.length).toBeLessThanOrEqual(512 + 8);
    expect(() => parseKeyPath(source)).toThrow(KeyPathError);
  });

  it('throws nothing but KeyPathError for arbitrary strings', () => {
    const grammarChars = fc.constantFrom(...'body.headers[query]\'"\\0123456789 -_$x'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: grammarChars, maxLength: 80 }), fc.string({ unit: 'binary' })), (source) => {
        try {
          parseKeyPath(source);
        } catch (error) {
          expect(error).toBeInstanceOf(KeyPathError);
          const { position } = error as KeyPathError;
          expect(position).toBeGreaterThanOrEqual(0);
          expect(position).toBeLessThanOrEqual(Math.max(source.length, KEY_PATH_LIMITS.maxLength));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const rootArb = fc.constantFrom<KeyPathRoot>('body', 'headers', 'query');
const nameArb = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abzAZ_$09-\'"\\ .[]'.split('')), maxLength: 12 }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', '0', ''),
);
const segmentArb = fc.oneof(nameArb, fc.nat({ max: 4294967294 }), fc.nat({ max: 5 }));
const pathArb = fc
  .record({ root: rootArb, segments: fc.array(segmentArb, { maxLength: KEY_PATH_LIMITS.maxDepth }) })
  .filter((path) => formatKeyPath(path).length <= KEY_PATH_LIMITS.maxLength);

/** An independent printer that picks any valid spelling of each segment, to test the parser against. */
const spelledPathArb = pathArb.chain((path) =>
  fc
    .tuple(
      ...path.segments.map((segment) =>
        fc.record({ quote: fc.constantFrom("'", '"'), dotted: fc.boolean(), escapeOther: fc.boolean() }).map((style) => spell(segment, style)),
      ),
    )
    .map((spellings) => ({ path, source: path.root + spellings.join('') })),
);

function spell(segment: string | number, style: { quote: string; dotted: boolean; escapeOther: boolean }): string {
  if (typeof segment === 'number') return `[${segment}]`;
  if (style.dotted && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) return `.${segment}`;
  const other = style.quote === "'" ? '"' : "'";
  let body = '';
  for (const char of segment) {
    if (char === '\\' || char === style.quote || (char === other && style.escapeOther)) body += `\\${char}`;
    else body += char;
  }
  return `[${style.quote}${body}${style.quote}]`;
}

describe('formatKeyPath', () => {
  it.each([
    ['body[\'a\']["b"].c', 'body.a.b.c'],
    ["headers['x-hub-id']", "headers['x-hub-id']"],
    [String.raw`body["it's"]`, `body["it's"]`],
    [String.raw`body['say "hi"']`, `body['say "hi"']`],
    [String.raw`body["'\""]`, String.raw`body['\'"']`],
    [String.raw`body['a\\b']`, String.raw`body['a\\b']`],
    ["body['0'][0]['1a']", "body['0'][0]['1a']"],
  ])('prints %s as %s', (source, canonical) => {
    expect(formatKeyPath(parseKeyPath(source))).toBe(canonical);
  });

  it('round-trips: parsing the canonical text gives the same path', () => {
    fc.assert(
      fc.property(pathArb, (path) => {
        const reparsed = parseKeyPath(formatKeyPath(path));
        expect({ root: reparsed.root, segments: reparsed.segments }).toEqual(path);
      }),
      { numRuns: 1000 },
    );
  });

  it('parses every spelling of a path to that path, and never prints longer than the source', () => {
    fc.assert(
      fc.property(spelledPathArb, ({ path, source }) => {
        fc.pre(source.length <= KEY_PATH_LIMITS.maxLength);
        const parsed = parseKeyPath(source);
        expect({ root: parsed.root, segments: parsed.segments }).toEqual(path);
        expect(formatKeyPath(parsed).length).toBeLessThanOrEqual(source.length);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('evaluateKeyPath', () => {
  const webhook = input(
    { device: { id: 'dev-1', tags: ['a', { 'b-c': 7 }] }, arr: [10, 20], obj: { 'str-value': { bar: true } }, '0': 'zero', nil: null },
    { 'x-hub-id': 'hub-9', 'content-type': 'application/json' },
    { hub: 'hub-1', room: 'kitchen' },
  );

  it.each<[string, unknown]>([
    ['body.device.id', 'dev-1'],
    ['body.arr[0]', 10],
    ['body.arr[1]', 20],
    ["body.obj['str-value'].bar", true],
    ["body.device.tags[1]['b-c']", 7],
    ['body.nil', null],
    ["headers['x-hub-id']", 'hub-9'],
    ["headers['X-Hub-Id']", 'hub-9'],
    ['query.hub', 'hub-1'],
    ['query.Hub', undefined], // query names are case-sensitive
    ['body.arr[2]', undefined],
    ['body.device.missing.deeper', undefined],
    ['body.device.id.length', undefined], // strings are leaves
    ['body.arr.length', undefined], // arrays are read by index only
    ["body.arr['0']", undefined],
    ["body['0']", 'zero'],
    ['body[0]', 'zero'], // a number reads the key "0" of an object
    ['body.nil.x', undefined],
    ['headers.x', undefined],
  ])('%s → %j', (source, expected) => {
    expect(at(source, webhook)).toEqual(expected);
  });

  it("needs brackets for names with '-', as in JavaScript", () => {
    expect(() => parseKeyPath('headers.content-type')).toThrow("expected '.' or '[' at 15");
    expect(at("headers['Content-Type']", webhook)).toBe('application/json');
  });

  it('returns the root itself for a bare root', () => {
    expect(at('body', input('text body'))).toBe('text body');
    expect(at('query', webhook)).toBe(webhook.query);
  });

  it('resolves __proto__, constructor and prototype to nothing, also as own JSON keys', () => {
    const body: unknown = JSON.parse('{"__proto__": {"x": 1}, "constructor": {"x": 2}, "prototype": 3, "a": {"constructor": 4}}');
    expect(Object.hasOwn(body as object, '__proto__')).toBe(true);
    for (const source of [
      'body.__proto__',
      'body.__proto__.x',
      "body['__proto__'].x",
      'body.constructor',
      'body.constructor.x',
      'body.prototype',
      'body.a.constructor',
    ]) {
      expect(at(source, input(body))).toBeUndefined();
    }
    expect(at('body.constructor.name', input({}))).toBeUndefined();
    expect(at('body.toString', input({}))).toBeUndefined();
    expect(at('body.hasOwnProperty', input({}))).toBeUndefined();
    expect(at('body.__proto__', input([]))).toBeUndefined();
    expect(at('headers.constructor', input({}, { constructor: 'x' }))).toBeUndefined();
  });

  it('reads own data properties only: inherited ones and getters are nothing, and getters never run', () => {
    let ran = false;
    const body = Object.create(
      { inherited: 1 },
      {
        getter: {
          enumerable: true,
          get() {
            ran = true;
            return 'secret';
          },
        },
      },
    ) as unknown;
    expect(at('body.inherited', input(body))).toBeUndefined();
    expect(at('body.getter', input(body))).toBeUndefined();
    expect(ran).toBe(false);
    expect(at('body[1]', input([1, , 3]))).toBeUndefined(); // eslint-disable-line no-sparse-arrays
  });

  it('never throws on hostile inputs', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const path = parseKeyPath('body.a[0]');
    expect(evaluateKeyPath(path, input(proxy))).toBeUndefined();
    expect(evaluateKeyPath(path, input({ a: proxy }))).toBeUndefined();
    expect(evaluateKeyPath(path, null as unknown as KeyPathInput)).toBeUndefined();
    expect(evaluateKeyPath(parseKeyPath('headers.a'), {} as KeyPathInput)).toBeUndefined();
  });

  it('finds a value placed at any generated path', () => {
    const bodyPathArb = fc.array(segmentArb, { maxLength: 12 }).filter((segments) => segments.every((s) => typeof s === 'number' || !FORBIDDEN.has(s)));
    fc.assert(
      fc.property(bodyPathArb, fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }), (segments, value, noise) => {
        const body = segments.reduceRight<unknown>((inner, segment) => {
          if (typeof segment === 'number' && segment <= 5) {
            const array: unknown[] = Array.from({ length: segment + 1 }, (_, i) => noise[String(i)] ?? i);
            array[segment] = inner;
            return array;
          }
          const object: Record<string, unknown> = JSON.parse(JSON.stringify(noise)) as Record<string, unknown>;
          Object.defineProperty(object, String(segment), { value: inner, enumerable: true, writable: true, configurable: true });
          return object;
        }, value);
        expect(evaluateKeyPath({ root: 'body', segments, source: '' }, input(body))).toBe(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('finds any header by its name in any case, and any query parameter by its exact name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (name, value) => {
        const lower = name.toLowerCase();
        fc.pre(!FORBIDDEN.has(name) && !FORBIDDEN.has(lower) && name.toUpperCase().toLowerCase() === lower);
        const headers = { [lower]: value };
        expect(evaluateKeyPath({ root: 'headers', segments: [name.toUpperCase()], source: '' }, input(null, headers))).toBe(value);
        expect(evaluateKeyPath({ root: 'query', segments: [name], source: '' }, input(null, {}, { [name]: value }))).toBe(value);
      }),
    );
  });

  it('never throws on arbitrary values at arbitrary paths', () => {
    fc.assert(
      fc.property(
        pathArb,
        fc.oneof(fc.jsonValue(), fc.anything({ withNullPrototype: true, withObjectString: true, withMap: true, withTypedArray: true, withSparseArray: true })),
        (path, body) => {
          const value = evaluateKeyPath({ ...path, source: formatKeyPath(path) }, input(body));
          if (path.segments.some((s) => typeof s === 'string' && FORBIDDEN.has(s))) expect(value).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('canonicalKeyValue', () => {
  it.each<[unknown, string | undefined]>([
    ['abc', 'abc'],
    ['', ''],
    ['5', '5'],
    [5, '5'],
    [5.0, '5'],
    [-0, '0'],
    [1.5, '1.5'],
    [1e21, '1e+21'],
    [true, 'true'],
    [false, 'false'],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    [null, undefined],
    [undefined, undefined],
    [{ a: 1 }, undefined],
    [['5'], undefined],
    [5n, undefined],
  ])('%o → %o', (value, expected) => {
    expect(canonicalKeyValue(value)).toBe(expected);
  });

  it('makes every finite number match its String() form, and only that spelling', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(canonicalKeyValue(n)).toBe(canonicalKeyValue(String(n)));
      }),
    );
    expect(canonicalKeyValue('5.0')).not.toBe(canonicalKeyValue(5));
  });
});
