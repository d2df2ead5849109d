import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  type FilterableContent,
  type FilterableMessage,
  hasUnplainNumber,
  matchesCondition,
  pairsText,
  parseKeyPathCondition,
} from '../../../common/message-filter';

const input = { headers: { 'x-kind': 'test' }, query: { hub: 'h1' }, body: { device: { id: 'lamp-1', level: 5, tags: ['a'] } } };
const condition = (text: string) => {
  const parsed = parseKeyPathCondition(text);
  if (!parsed.ok) throw new Error(`${parsed.message} at ${parsed.position}`);
  return parsed.condition;
};

describe('parseKeyPathCondition', () => {
  it('reads ==, != and exists, with JSON values or bare words', () => {
    expect(matchesCondition(condition('body.device.id == "lamp-1"'), input)).toBe(true);
    expect(matchesCondition(condition('body.device.id == lamp-1'), input)).toBe(true);
    expect(matchesCondition(condition('body.device.id != lamp-1'), input)).toBe(false);
    expect(matchesCondition(condition("headers['x-kind'] != live"), input)).toBe(true);
    expect(matchesCondition(condition('query.hub exists'), input)).toBe(true);
    expect(matchesCondition(condition('body.missing exists'), input)).toBe(false);
    expect(matchesCondition(condition('body.device'), input)).toBe(true);
  });

  it('compares as the forwarder does: 5 and "5" alike, objects by their JSON', () => {
    expect(matchesCondition(condition('body.device.level == "5"'), input)).toBe(true);
    expect(matchesCondition(condition('body.device.level == 5.0'), input)).toBe(true);
    expect(matchesCondition(condition('body.device.tags == ["a"]'), input)).toBe(true);
    expect(matchesCondition(condition('body.device.tags == "a"'), input)).toBe(false);
  });

  it('a path with spaces or = inside quotes is one path', () => {
    const spaced = { ...input, body: { 'a b': { 'c=d': 1 } } };
    expect(matchesCondition(condition("body['a b']['c=d'] == 1"), spaced)).toBe(true);
  });

  it.each([
    ['body .a == 1', 5],
    ['body.a ~= 1', 7],
    ['body.a ==', 9],
    ['body.a == {bad', 10],
    ['bodyx.a exists', 0],
  ])('%s fails at %i', (text, position) => {
    const parsed = parseKeyPathCondition(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.position).toBe(position);
  });
});

describe('compileFilter', () => {
  const message = (overrides: Partial<FilterableMessage> = {}): FilterableMessage => ({
    webhookId: 'wh1',
    receivedAt: '2026-11-24T10:00:00.000Z',
    method: 'POST',
    routing: { option: 'key-path', matched: [] },
    delivered: true,
    awaitingDelivery: false,
    ...overrides,
  });
  /** The content of a JSON body as the inspector gives it, counting how often the body is decoded. */
  const jsonContent = (bodyText: string, headers: Record<string, string> = { 'content-type': 'application/json', 'x-kind': 'test' }) => {
    const counts = { decoded: 0 };
    const content: FilterableContent = {
      headers,
      query: input.query,
      pairsText: () => pairsText(headers, input.query),
      body: () => (counts.decoded++, JSON.parse(bodyText) as unknown),
      bodyText: () => bodyText,
      bodyEscaped: () => bodyText.includes('\\'),
      bodyHasUnplainNumber: () => hasUnplainNumber(bodyText),
    };
    return { content, counts };
  };
  const test = (
    filter: Parameters<typeof compileFilter>[0],
    candidate = message(),
    content: FilterableContent = jsonContent(JSON.stringify(input.body)).content,
  ) => {
    const compiled = compileFilter(filter);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.test(candidate, content);
  };

  it('matches by webhook, method, outcome and time range', () => {
    expect(test({ webhookIds: ['wh1'] })).toBe(true);
    expect(test({ webhookIds: ['wh2'] })).toBe(false);
    expect(test({ methods: ['GET'] })).toBe(false);
    expect(test({ outcomes: ['this-app'] })).toBe(true);
    expect(test({ outcomes: ['rejected'] }, message({ rejected: { status: 413 } }))).toBe(true);
    expect(test({ outcomes: ['no-match'] }, message({ delivered: false }))).toBe(true);
    expect(test({ from: '2026-11-24T09:00:00.000Z', to: '2026-11-24T10:00:00.000Z' })).toBe(true);
    expect(test({ from: '2026-11-24T10:00:00.001Z' })).toBe(false);
    // Times in other forms than toISOString's are parsed: the same answers.
    expect(test({ from: '2026-11-24T10:00:00.001Z' }, message({ receivedAt: '2026-11-24T11:00:00+01:00' }))).toBe(false);
    expect(test({ from: '2026-11-24T09:59:59Z', to: '2026-11-24T10:00:00Z' }, message({ receivedAt: '2026-11-24T11:00:00+01:00' }))).toBe(true);
    expect(test({ to: '2026-11-24T09:59:59.999Z' })).toBe(false);
    expect(test({ from: '2026-11-24T09:00:00.000Z' }, message({ receivedAt: 'not a time' }))).toBe(false);
  });

  it('searches text in header names and values, the query and the body, ignoring case', () => {
    expect(test({ text: 'X-KIND' })).toBe(true);
    expect(test({ text: 'LAMP-1' })).toBe(true);
    expect(test({ text: 'h1' })).toBe(true);
    expect(test({ text: 'nowhere' })).toBe(false);
  });

  it('searches the text as it is written: characters of patterns are only characters', () => {
    expect(test({ text: '.' })).toBe(false); // no dot anywhere in the message
    expect(test({ text: 'lamp.1' })).toBe(false);
    for (const text of ['(', ')', '\\', '*', '+', '?', '$^', '{1}', '|']) expect(test({ text })).toBe(false);
    expect(test({ text: '["A"]' })).toBe(true);
    expect(test({ text: '{"id":"LAMP-1"' })).toBe(true);
  });

  it('reads the content only when text or a key path asks for it', () => {
    let reads = 0;
    const counted: FilterableContent = {
      get headers() {
        reads++;
        return { 'content-type': 'application/json' };
      },
      query: {},
      pairsText: () => '',
      body: () => ({}),
      bodyText: () => '{}',
      bodyEscaped: () => false,
      bodyHasUnplainNumber: () => false,
    };
    expect(test({ webhookIds: ['wh1'], outcomes: ['this-app'] }, message(), counted)).toBe(true);
    expect(reads).toBe(0);
    expect(test({ keyPath: 'body.device.id == lamp-1' }, message(), counted)).toBe(false);
    expect(reads).toBeGreaterThan(0);
  });

  it('decodes a JSON body only when its text may hold what the key path looks for, and answers the same either way', () => {
    const cases: Array<[string, string, boolean, number]> = [
      // [key path condition, body, matches, decodes]
      ['body.device.id == "lamp-1"', '{"device":{"id":"lamp-1"}}', true, 1],
      ['body.device.id == "lamp-1"', '{"device":{"id":"lamp-2"}}', false, 0],
      ['body.device.id != "lamp-1"', '{"device":{"id":"lamp-2"}}', true, 0],
      ['body.device.id != "lamp-1"', '{"device":{"id":"lamp-1"}}', false, 1],
      ['body.device.id != "lamp-1"', '{"other":"lamp-1"}', true, 1],
      ['body.device.id == "lamp-1"', '{"device":{"id":"lamp-10"}}', false, 0],
      ['body.device.id == "true"', '{"device":{"id":true}}', true, 1],
      ['body.device.name exists', '{"device":{"id":"lamp-1"}}', false, 0],
      ['body.device.id exists', '{"device":{"id":"lamp-1"}}', true, 1],
      ['body.device.id exists', '{"id":{"device":1}}', false, 1],
      // Escapes can hide anything: such a body is always decoded.
      ['body.device.id == "lamp-1"', '{"device":{"id":"lamp\\u002d1"}}', true, 1],
      ['body.device["id"] exists', '{"device":{"i\\u0064":1}}', true, 1],
      // A number can be written in many ways: any form holds its shortest one, unless in exponent form (then decoded).
      ['body.level == 100', '{"level":1e2}', true, 1],
      ['body.level == "100"', '{"level":1e2}', true, 1],
      ['body.level == 100', '{"level":100.0}', true, 1],
      ['body.level == 100', '{"level":"100"}', true, 1],
      ['body.level == 100', '{"level":7}', false, 0],
      ['body.level != 100', '{"level":7}', true, 0],
      ['body.n == 54321', '{"n":5.4321E4}', true, 1],
      ['body.n == -0.5', '{"n":-0.50}', true, 1],
      ['body.n == 1e21', '{"n":1000000000000000000000}', true, 1],
      ['body.n == 9007199254740992', '{"n":9007199254740993}', true, 1],
      ['body.n == 0.1', '{"n":0.09999999999999999999}', true, 1],
      ['body.n == 0.1', '{"n":0.2}', false, 0],
      ['body.on == true', '{"on":true}', true, 1],
      ['body.on == true', '{"on":false}', false, 0],
    ];
    for (const [keyPath, body, matches, decodes] of cases) {
      const { content, counts } = jsonContent(body);
      expect(test({ keyPath }, message(), content), `${keyPath} on ${body}`).toBe(matches);
      expect(counts.decoded, `decodes of ${keyPath} on ${body}`).toBe(decodes);
    }
  });

  it('asks the content for a value it kept before decoding the body, and offers it what it decodes', () => {
    const { content, counts } = jsonContent('{"device":{"id":"lamp-1"}}');
    const kept = new Map<string, unknown>();
    const keeping: FilterableContent = {
      ...content,
      recall: (path) => (kept.has(path.source) ? { value: kept.get(path.source) } : undefined),
      keep: (path, value) => void kept.set(path.source, value),
    };
    // Skipped by its text: nothing is kept (the path's value was not read).
    expect(test({ keyPath: 'body.device.id == lamp-2' }, message(), keeping)).toBe(false);
    expect(kept.size).toBe(0);
    expect(test({ keyPath: 'body.device.id == lamp-1' }, message(), keeping)).toBe(true);
    expect(kept.get('body.device.id')).toBe('lamp-1');
    expect(counts.decoded).toBe(1);
    // The same path with other values: answered from what was kept, right each time.
    expect(test({ keyPath: 'body.device.id != lamp-1' }, message(), keeping)).toBe(false);
    expect(test({ keyPath: 'body.device.id == lamp-2' }, message(), keeping)).toBe(false);
    expect(test({ keyPath: 'body.device.id exists' }, message(), keeping)).toBe(true);
    expect(counts.decoded).toBe(1);
  });

  it('a body that is not JSON (a form) is always decoded: its keys are not quoted', () => {
    const form: FilterableContent = {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      query: {},
      pairsText: () => '',
      body: () => ({ device: 'lamp-1' }),
      bodyText: () => 'device=lamp-1',
      bodyEscaped: () => false,
      bodyHasUnplainNumber: () => false,
    };
    expect(test({ keyPath: 'body.device exists' }, message(), form)).toBe(true);
    expect(test({ keyPath: 'body.device == lamp-1' }, message(), form)).toBe(true);
  });

  it('refuses a key path that does not parse, with its position', () => {
    expect(compileFilter({ keyPath: 'body..a' })).toMatchObject({ ok: false, position: 5 });
  });
});
