/**
 * The pure parts of the forwarder's Redis mode: a frame split where the id's text goes (the intake script
 * puts it there), intakes cut into scripts, slot keys (and their byte bound), change-stream versions,
 * and ids made from the shared sequence.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageId, sequenceOf, timeOf } from '../../../../services/forwarder/message-ids';
import { aroundIdText, scriptParts } from '../../../../services/forwarder/redis/redis-backend';
import { MAX_SLOT_KEY_BYTES, slotKey } from '../../../../services/forwarder/redis/redis-keys';
import { compareVersions, parseSlotKey } from '../../../../services/forwarder/redis/redis-mirror';

describe('aroundIdText', () => {
  it('prefix + id + suffix is the frame of the message with that id, whatever the body holds (a NUL too)', () => {
    fc.assert(
      fc.property(fc.base64String(), fc.jsonValue(), fc.dictionary(fc.string(), fc.string()), fc.boolean(), (rawBody, body, headers, withBody) => {
        const message = { receivedAt: '2026-11-26T12:00:00.000Z', headers, query: { hub: '\u0000' }, body, rawBody };
        const [prefix, suffix] = aroundIdText({ message, bodyJson: JSON.stringify(body) }, withBody);
        const id = messageId(1_700_000_000_000, 42);
        const { body: _body, ...raw } = message;
        expect(prefix + id + suffix).toBe(JSON.stringify({ type: 'message', message: { id, ...(withBody ? message : raw) } }));
      }),
    );
  });
});

describe('scriptParts', () => {
  it('keeps every intake once, in order, each part within the count and bytes (or one larger intake alone)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1000 })), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 2000 }), (sizes, items, bytes) => {
        const parts = scriptParts(sizes, (size) => size, { items, bytes });
        expect(parts.flat()).toEqual(sizes);
        for (const part of parts) {
          expect(part.length).toBeGreaterThan(0);
          expect(part.length).toBeLessThanOrEqual(items);
          if (part.length > 1) expect(part.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(bytes);
        }
      }),
    );
  });

  it('cuts a flood of large intakes into scripts of a few, and small ones into scripts of the count limit', () => {
    expect(scriptParts(Array(10).fill(600_000), (size) => size, { items: 100, bytes: 4 * 1024 * 1024 }).map((part) => part.length)).toEqual([6, 4]);
    expect(scriptParts(Array(250).fill(300), (size) => size, { items: 100, bytes: 4 * 1024 * 1024 }).map((part) => part.length)).toEqual([100, 100, 50]);
  });
});

describe('slot keys', () => {
  it('name a (webhook, listener) pair that parses back, whatever the listener id holds', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1, maxLength: 200 }), (webhookId, listenerId) => {
        expect(parseSlotKey(slotKey(webhookId, listenerId))).toEqual([webhookId, listenerId]);
      }),
    );
  });

  it('anything else is not one', () => {
    for (const key of ['fw:q:', 'fw:q:["a"]', 'fw:q:["a",1]', 'fw:q:{"a":"b"}', 'fw:q:["a","b","c"]', 'fw:q:nope'])
      expect(parseSlotKey(key), key).toBeUndefined();
  });
});

describe('change-stream versions', () => {
  it('compare as Redis orders stream ids: by time, then by count, as numbers', () => {
    expect(compareVersions('10-0', '9-5')).toBeGreaterThan(0);
    expect(compareVersions('5-10', '5-9')).toBeGreaterThan(0);
    expect(compareVersions('5-9', '5-9')).toBe(0);
    expect(compareVersions('0-0', '1700000000000-0')).toBeLessThan(0);
  });
});

describe('ids from a sequence', () => {
  it('carry the time and the sequence back, and sort as the sequence does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 36 ** 10 - 1 }), (time, sequence) => {
        const id = messageId(time, sequence);
        expect(timeOf(id)).toBe(time);
        expect(sequenceOf(id)).toBe(sequence);
      }),
    );
    expect(messageId(5, 9) < messageId(5, 10)).toBe(true);
  });
});

describe('MAX_SLOT_KEY_BYTES', () => {
  const id = fc.string({ unit: 'binary', maxLength: 200 }).filter((text) => text.length >= 1 && text.length <= 200);
  it('holds the slot key of any two ids the channel accepts (1 to 200 characters), as Redis stores it (UTF-8)', () => {
    fc.assert(fc.property(id, id, (webhookId, listenerId) => Buffer.byteLength(slotKey(webhookId, listenerId)) <= MAX_SLOT_KEY_BYTES));
  });

  it('is reached by ids of characters JSON escapes to six bytes', () => {
    for (const character of ['\u0001', '\ud800']) expect(Buffer.byteLength(slotKey(character.repeat(200), character.repeat(200)))).toBe(MAX_SLOT_KEY_BYTES);
  });
});
