import { describe, expect, it } from 'vitest';
import { createMessageIds, sequenceOf } from '../../../../services/forwarder/message-ids';
import { type QueuedMessage, ResumeBuffer } from '../../../../services/forwarder/resume-buffer';

const ids = createMessageIds(() => 1_700_000_000_000);
const message = (frameChars?: number) => {
  const { id, sequence } = ids.next();
  const m: QueuedMessage = { id, sequence, frame: frameChars === undefined ? JSON.stringify({ type: 'message', message: { id } }) : 'x'.repeat(frameChars) };
  return { m, sequence };
};

function drain(buffer: ResumeBuffer, room = Infinity): string[] {
  const sent: string[] = [];
  buffer.flush((m) => {
    if (sent.length >= room) return false;
    sent.push(m.id);
    return true;
  });
  return sent;
}

describe('message ids', () => {
  it('are unique, ordered by sequence, and parse back', () => {
    const a = ids.next();
    const b = ids.next();
    expect(b.sequence).toBe(a.sequence + 1);
    expect(a.id < b.id).toBe(true);
    expect(sequenceOf(b.id)).toBe(b.sequence);
    expect(sequenceOf('evt_nonsense')).toBeUndefined();
  });
});

describe('ResumeBuffer', () => {
  it('sends each message once until a rewind, then re-sends the unacknowledged ones after the given sequence', () => {
    const buffer = new ResumeBuffer(10, Infinity);
    const [one, two, three] = [message(), message(), message()];
    for (const { m } of [one, two, three]) buffer.add(m);
    expect(drain(buffer)).toEqual([one.m.id, two.m.id, three.m.id]);
    expect(drain(buffer)).toEqual([]);
    buffer.acknowledge(three.m.id);
    buffer.rewind(one.sequence);
    expect(buffer.size).toBe(1);
    expect(drain(buffer)).toEqual([two.m.id]);
  });

  it('stops when the socket is full and continues later in order', () => {
    const buffer = new ResumeBuffer(10, Infinity);
    const all = [message(), message(), message()];
    for (const { m } of all) buffer.add(m);
    expect(drain(buffer, 1)).toEqual([all[0]!.m.id]);
    expect(drain(buffer)).toEqual([all[1]!.m.id, all[2]!.m.id]);
  });

  it('drops the oldest message when full and counts it', () => {
    const buffer = new ResumeBuffer(2, Infinity);
    const all = [message(), message(), message()];
    expect(all.map(({ m }) => buffer.add(m))).toEqual([0, 0, 1]);
    expect(buffer.dropped).toBe(1);
    expect(drain(buffer)).toEqual([all[1]!.m.id, all[2]!.m.id]);
  });

  it('owes a notice of its drops, through the newest one dropped, until it is sent', () => {
    const buffer = new ResumeBuffer(2, Infinity);
    const all = [message(), message(), message(), message()];
    buffer.add(all[0]!.m);
    buffer.add(all[1]!.m);
    expect(buffer.owedNotice()).toBeUndefined();
    buffer.add(all[2]!.m);
    buffer.add(all[3]!.m);
    expect(buffer.owedNotice()).toEqual({ type: 'dropped', through: all[1]!.m.id, count: 2 });
    expect(buffer.owedNotice()).toEqual({ type: 'dropped', through: all[1]!.m.id, count: 2 });
    buffer.noticeSent();
    expect(buffer.owedNotice()).toBeUndefined();
  });

  it('owes a new connection the notice only when the drops go past what the listener says it has', () => {
    const buffer = new ResumeBuffer(1, Infinity);
    const [a, b, c] = [message(), message(), message()];
    buffer.add(a.m);
    buffer.add(b.m); // a dropped
    buffer.noticeSent();
    buffer.rewind(a.sequence);
    expect(buffer.owedNotice()).toBeUndefined();
    buffer.rewind(undefined);
    expect(buffer.owedNotice()).toEqual({ type: 'dropped', through: a.m.id, count: 1 });
    buffer.noticeSent();
    buffer.add(c.m); // b dropped
    buffer.rewind(a.sequence);
    expect(buffer.owedNotice()).toEqual({ type: 'dropped', through: b.m.id, count: 2 });
  });

  it('drops the oldest messages while the frames exceed the byte bound (two bytes a character), always keeping the newest', () => {
    const buffer = new ResumeBuffer(100, 500);
    const [a, b, c] = [message(100), message(100), message(100)];
    expect([buffer.add(a.m), buffer.add(b.m), buffer.add(c.m)]).toEqual([0, 0, 1]);
    expect(drain(buffer)).toEqual([b.m.id, c.m.id]);
    const huge = message(1000);
    expect(buffer.add(huge.m)).toBe(2);
    expect(buffer.size).toBe(1);
    expect(buffer.dropped).toBe(3);
  });

  it('frees the bytes of acknowledged and rewound messages', () => {
    const buffer = new ResumeBuffer(100, 500);
    const [a, b, c, d] = [message(100), message(100), message(100), message(100)];
    buffer.add(a.m);
    buffer.add(b.m);
    buffer.acknowledge(a.m.id);
    expect(buffer.add(c.m)).toBe(0);
    buffer.rewind(b.sequence);
    expect(buffer.add(d.m)).toBe(0);
    expect(buffer.dropped).toBe(0);
    expect(drain(buffer)).toEqual([c.m.id, d.m.id]);
  });
});
