import { describe, expect, it } from 'vitest';
import {
  connectionLabel,
  formatSize,
  HEX_DUMP_MAX_BYTES,
  hexDump,
  jsonErrorExcerpt,
  outcomeOf,
  parseKeyValues,
  prettyJson,
  rawBodyText,
  refusedBodyNote,
  requestPath,
  routingLabel,
  webhookSubtitle,
  webhookTitle,
} from '../../../../renderer/src/format/webhook-labels';

describe('webhook labels', () => {
  it('parses comma-separated key values, keeping plain numbers as numbers', () => {
    expect(parseKeyValues(' lamp-1, 5 ,007, -2.5, 1e3, ,lamp-1, 12345678901234567')).toEqual(['lamp-1', 5, '007', -2.5, '1e3', '12345678901234567']);
    expect(parseKeyValues(' , ')).toEqual([]);
  });

  it('shows the intake path with the query, as the sender asked for it', () => {
    expect(requestPath({ webhookId: 'wh1', query: {} })).toBe('/webhook/wh1');
    expect(requestPath({ webhookId: 'wh1', query: { hub: 'h 1', a: 'x&y' } })).toBe('/webhook/wh1?hub=h+1&a=x%26y');
  });

  it('labels registrations and connections', () => {
    expect(routingLabel({ kind: 'keys', values: ['a', 5] })).toBe('Key values a, 5');
    expect(routingLabel({ kind: 'hub', hubId: 'h1' }, 'Home')).toBe('Hub Home');
    expect(routingLabel({ kind: 'hub', hubId: 'h1' })).toBe('A hub of your account (sign in to see which)'); // never the raw id
    expect(connectionLabel({ state: 'reconnecting', attempt: 3, nextRetryAt: 4_500 }, 1_000)).toBe('Reconnecting (attempt 3, next try in 4 s)');
    expect(connectionLabel({ state: 'not-responding', since: 1_000 }, 7_900)).toBe(
      'Not responding: no answer from the forwarder for 6 s; waiting for it on the open connection',
    );
    expect(connectionLabel({ state: 'refused', reason: 'Wrong.' }, 0)).toBe('Refused: Wrong.');
    // Why the last try failed, when there is more to say than a dropped connection; one line, whatever main sent.
    expect(connectionLabel({ state: 'reconnecting', attempt: 2, nextRetryAt: 2_000, reason: 'Hubdesk could not reach the cloud.' }, 1_000)).toBe(
      'Reconnecting (attempt 2, next try in 1 s): Hubdesk could not reach the cloud.',
    );
    expect(connectionLabel({ state: 'reconnecting', attempt: 2, nextRetryAt: 2_000, reason: 'line one\nline two' }, 1_000)).not.toContain('\n');
  });

  it("names a registration by the user's label, else the forwarder's name, else its id, and says what the title leaves out", () => {
    expect([webhookTitle({ id: 'wh1' }), webhookSubtitle({ id: 'wh1' })]).toEqual(['wh1', null]);
    expect([webhookTitle({ id: 'wh1', webhookName: 'Lamps' }), webhookSubtitle({ id: 'wh1', webhookName: 'Lamps' })]).toEqual(['Lamps', 'wh1']);
    expect([webhookTitle({ id: 'wh1', label: 'Mine', webhookName: 'Lamps' }), webhookSubtitle({ id: 'wh1', label: 'Mine', webhookName: 'Lamps' })]).toEqual([
      'Mine',
      'Lamps · wh1',
    ]);
    expect(webhookSubtitle({ id: 'wh1', label: 'Lamps', webhookName: 'Lamps' })).toBe('wh1');
  });

  it('formats sizes', () => {
    expect([formatSize(12), formatSize(2048), formatSize(3 * 1024 * 1024)]).toEqual(['12 B', '2.0 KB', '3.0 MB']);
  });

  it('shows the raw body as text when it is UTF-8, else as base64', () => {
    expect(rawBodyText(Buffer.from('{"é":1}').toString('base64'))).toEqual({ kind: 'text', text: '{"é":1}' });
    const binary = Buffer.from([0xff, 0xfe, 0x00]).toString('base64');
    expect(rawBodyText(binary)).toEqual({ kind: 'base64', text: binary });
    expect(rawBodyText('%%%')).toEqual({ kind: 'base64', text: '%%%' });
  });
});

describe('outcomeOf', () => {
  const keyPath = { option: 'key-path' as const, keyPath: 'body.device.id', value: 'lamp-1', matched: [{ listenerId: 'l1', hubId: 'hub-1' }] };
  const base = { routing: keyPath, delivered: false, awaitingDelivery: false };

  it('says what became of an intake', () => {
    expect(outcomeOf({ ...base, rejected: { status: 413, error: 'payload_too_large', reason: 'too large' } })).toEqual({
      kind: 'rejected',
      label: '413 rejected',
    });
    expect(outcomeOf({ ...base, delivered: true })).toEqual({ kind: 'this-app', label: 'This app' });
    expect(outcomeOf({ ...base, awaitingDelivery: true })).toEqual({ kind: 'on-its-way', label: 'On its way' });
    expect(outcomeOf({ ...base, droppedByForwarder: true })).toEqual({ kind: 'dropped', label: 'Dropped' });
    expect(outcomeOf({ ...base, delivered: true, droppedByForwarder: true }).kind).toBe('this-app');
    expect(outcomeOf(base)).toEqual({ kind: 'other-hubs', label: 'Other hubs' });
    expect(outcomeOf({ ...base, routing: { ...keyPath, matched: [] } })).toEqual({ kind: 'no-match', label: 'No match' });
    expect(outcomeOf({ ...base, routing: null })).toEqual({ kind: 'not-seen', label: 'Not seen' });
  });
});

describe('raw body views', () => {
  it('hexDump prints offset, two groups of eight bytes and the printable ASCII, as hexdump -C does', () => {
    const bytes = Uint8Array.from({ length: 18 }, (_, i) => (i === 17 ? 0x41 : i));
    expect(hexDump(bytes).split('\n')).toEqual([
      '00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|',
      '00000010  10 41                                             |.A|',
    ]);
  });

  it('hexDump stops at its bound and says how much more there is', () => {
    const lines = hexDump(new Uint8Array(HEX_DUMP_MAX_BYTES + 5)).split('\n');
    expect(lines).toHaveLength(HEX_DUMP_MAX_BYTES / 16 + 1);
    expect(lines.at(-1)).toBe('… 5 more bytes');
  });

  it('prettyJson indents JSON and leaves anything else alone', () => {
    expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson('a=1')).toBeUndefined();
  });

  it('shows where a refused JSON body stops: its line, cut around the column, and a caret under it', () => {
    expect(jsonErrorExcerpt('{"a": 1,\n  "on" true}', { line: 2, column: 8 })).toBe('  "on" true}\n       ^');
    const long = `{"x": "${'y'.repeat(300)}" z}`;
    const [line, caret] = jsonErrorExcerpt(long, { line: 1, column: long.indexOf(' z') + 2 }).split('\n');
    expect(line!.startsWith('…')).toBe(true);
    expect(line!.endsWith('…')).toBe(false);
    expect(line![caret!.length - 1]).toBe('z');
    expect(jsonErrorExcerpt('{"a":\t', { line: 1, column: 7 })).toBe('{"a": \n      ^');
  });

  it("says what a refused message's raw body holds", () => {
    expect(refusedBodyNote({ bodyTruncated: true }, 65536, 1_000_000)).toBe('The forwarder refused it and kept its first 64.0 KB of 976.6 KB (truncated).');
    expect(refusedBodyNote({}, 12, 12)).toContain('as it arrived');
  });
});
