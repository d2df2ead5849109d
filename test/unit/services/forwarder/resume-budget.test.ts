import { describe, expect, it } from 'vitest';
import { createMessageIds } from '../../../../services/forwarder/message-ids';
import { type QueuedMessage, ResumeBuffer } from '../../../../services/forwarder/resume-buffer';
import { ResumeBudget } from '../../../../services/forwarder/resume-budget';

const ids = createMessageIds(() => 1_700_000_000_000);
/** A message whose frame takes `bytes` bytes as counted (two a character). */
const message = (bytes: number): QueuedMessage => ({ ...ids.next(), frame: 'x'.repeat(bytes / 2) });

function setup(maxBytes: number) {
  const evictions: { listenerId: string | undefined; evicted: number }[] = [];
  const budget = new ResumeBudget(maxBytes, (buffer, evicted) => evictions.push({ listenerId: buffer.owner?.listenerId, evicted }));
  const buffer = (listenerId: string) => new ResumeBuffer(1000, Infinity, budget, { webhookId: 'wh', listenerId });
  return { budget, buffer, evictions };
}

function ids_(buffer: ResumeBuffer): string[] {
  const all: string[] = [];
  buffer.rewind(undefined);
  buffer.flush((m) => (all.push(m.id), true));
  return all;
}

describe('ResumeBudget', () => {
  it('counts a frame shared by several buffers once, until the last of them lets it go', () => {
    const { budget, buffer } = setup(1000);
    const [a, b] = [buffer('a'), buffer('b')];
    const shared = message(100);
    a.add(shared);
    b.add(shared);
    expect(budget.bytes).toBe(100);
    a.acknowledge(shared.id);
    expect(budget.bytes).toBe(100);
    b.acknowledge(shared.id);
    expect(budget.bytes).toBe(0);
  });

  it('evicts from the largest buffer first, oldest message first, until the total fits, and reports whom it hit', () => {
    const { budget, buffer, evictions } = setup(1000);
    const [hog, small] = [buffer('hog'), buffer('small')];
    const hogMessages = Array.from({ length: 8 }, () => message(100));
    for (const m of hogMessages) hog.add(m);
    const smallMessages = [message(100), message(100)];
    for (const m of smallMessages) small.add(m);
    budget.enforce();
    expect(evictions).toEqual([]);

    small.add(message(100)); // 1,100 > 1,000: the hog (800) pays, not the buffer that just grew (300)
    budget.enforce();
    expect(budget.bytes).toBe(1000);
    expect(evictions).toEqual([{ listenerId: 'hog', evicted: 1 }]);
    expect(ids_(hog)).toEqual(hogMessages.slice(1).map((m) => m.id));
    expect(small.size).toBe(3);
    expect(hog.dropped).toBe(1);
  });

  it('takes from the next largest only once the largest has shrunk to its size', () => {
    const { budget, buffer, evictions } = setup(600);
    const [big, middle] = [buffer('big'), buffer('middle')];
    for (let i = 0; i < 5; i++) big.add(message(100));
    for (let i = 0; i < 3; i++) middle.add(message(100));
    budget.enforce(); // 800 → 600: big 500 → 400 → 300 (ties go to the first found)
    expect(budget.bytes).toBe(600);
    expect([big.size, middle.size]).toEqual([3, 3]);
    expect(evictions).toEqual([{ listenerId: 'big', evicted: 2 }]);
  });

  it('frees the bytes of a buffer that is cleared (its listener forgotten)', () => {
    const { budget, buffer } = setup(1000);
    const gone = buffer('gone');
    gone.add(message(300));
    gone.add(message(300));
    gone.clear();
    expect(budget.bytes).toBe(0);
    expect(gone.dropped).toBe(0);
  });

  it('is a hard bound, even against one frame larger than the whole budget', () => {
    const { budget, buffer } = setup(100);
    const only = buffer('only');
    only.add(message(200));
    budget.enforce();
    expect([budget.bytes, only.size]).toEqual([0, 0]);
  });

  it('refuses a budget that is not a positive number of bytes', () => {
    expect(() => new ResumeBudget(0)).toThrow(RangeError);
    expect(() => new ResumeBudget(Number.NaN)).toThrow(RangeError);
  });
});
