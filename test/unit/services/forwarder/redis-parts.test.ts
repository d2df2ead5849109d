/**
 * The pure parts of the forwarder's Redis mode: a frame split where the id goes (the intake script
 * puts it there), slot keys, change-stream versions, and ids made from the shared sequence.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageId, sequenceOf, timeOf } from '../../../../services/forwarder/message-ids';
import { frameAround } from '../../../../services/forwarder/redis/redis-backend';
import { slotKey } from '../../../../services/forwarder/redis/redis-keys';
import { compareVersions, parseSlotKey } from '../../../../services/forwarder/redis/redis-mirror';

describe('frameAround', () => {
  it('prefix + id + suffix is the frame of the message with that id, whatever the body holds (a NUL too)', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), fc.dictionary(fc.string(), fc.string()), (rawBody, body, headers) => {
        const message = { id: '', receivedAt: '2026-11-26T12:00:00.000Z', headers, query: { hub: '\u0000' }, body, rawBody };
        const [prefix, suffix] = frameAround(message);
        const id = messageId(1_700_000_000_000, 42);
        expect(prefix + id + suffix).toBe(JSON.stringify({ type: 'message', message: { ...message, id } }));
      }),
    );
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
    for (const key of ['fw:q:', 'fw:q:["a"]', 'fw:q:["a",1]', 'fw:q:{"a":"b"}', 'fw:q:["a","b","c"]', 'fw:q:nope']) expect(parseSlotKey(key), key).toBeUndefined();
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
