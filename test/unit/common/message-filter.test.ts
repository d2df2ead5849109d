import { describe, expect, it } from 'vitest';
import { compileFilter, type FilterableMessage, matchesCondition, parseKeyPathCondition } from '../../../common/message-filter';

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
    content: () => ({ ...input, body: () => input.body, bodyText: () => JSON.stringify(input.body) }),
    ...overrides,
  });
  const test = (filter: Parameters<typeof compileFilter>[0], candidate = message()) => {
    const compiled = compileFilter(filter);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.test(candidate);
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
  });

  it('searches text in header names and values, the query and the body, ignoring case', () => {
    expect(test({ text: 'X-KIND' })).toBe(true);
    expect(test({ text: 'LAMP-1' })).toBe(true);
    expect(test({ text: 'h1' })).toBe(true);
    expect(test({ text: 'nowhere' })).toBe(false);
  });

  it('reads the content only when text or a key path asks for it', () => {
    let reads = 0;
    const counted = message({ content: () => (reads++, { ...input, body: () => input.body, bodyText: () => '' }) });
    test({ webhookIds: ['wh1'], outcomes: ['this-app'] }, counted);
    expect(reads).toBe(0);
    test({ keyPath: 'body.device.id == lamp-1' }, counted);
    expect(reads).toBe(1);
  });

  it('refuses a key path that does not parse, with its position', () => {
    expect(compileFilter({ keyPath: 'body..a' })).toMatchObject({ ok: false, position: 5 });
  });
});
