import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../../../../services/forwarder/legacy/fair-queue';

const roomy = { items: 100, bytes: 1000, itemsPerKey: 100, bytesPerKey: 1000 };

describe('FairQueue', () => {
  it('serves keys round-robin and each key in order: a flooded key queues behind itself', () => {
    const queue = new FairQueue<string>(roomy);
    for (let i = 1; i <= 5; i++) queue.push('flood', `f${i}`, 1);
    queue.push('other', 'o1', 1);
    queue.push('third', 't1', 1);
    queue.push('other', 'o2', 1);
    expect(queue.drain()).toEqual(['f1', 'o1', 't1', 'f2', 'o2', 'f3', 'f4', 'f5']);
    expect(queue.size).toBe(0);
    expect(queue.bytes).toBe(0);
  });

  it('puts a key that arrives late behind at most one item of each waiting key', () => {
    const queue = new FairQueue<string>(roomy);
    for (let i = 1; i <= 50; i++) queue.push('flood', `f${i}`, 1);
    expect(queue.shift()).toBe('f1');
    queue.push('late', 'l1', 1);
    expect([queue.shift(), queue.shift()]).toEqual(['f2', 'l1']);
    expect(queue.waiting('flood')).toBe(48);
  });

  it('refuses a key over its own count or bytes (key-full) before the total (full), and counts only what it queued', () => {
    const queue = new FairQueue<string>({ items: 4, bytes: 100, itemsPerKey: 2, bytesPerKey: 50 });
    expect([queue.push('a', 'a1', 10), queue.push('a', 'a2', 10), queue.push('a', 'a3', 10)]).toEqual(['queued', 'queued', 'key-full']);
    expect(queue.push('b', 'b1', 51)).toBe('key-full');
    expect([queue.push('b', 'b1', 40), queue.push('c', 'c1', 40)]).toEqual(['queued', 'queued']);
    // c has room of its own (one item, 40 of 50 bytes), the total (100 of 100 bytes) has not.
    expect(queue.push('c', 'c2', 10)).toBe('full');
    expect(queue.push('d', 'd1', 1)).toBe('full');
    expect(queue.admission('d', 1)).toBe('full');
    expect(queue.waitingByKey()).toEqual({ a: 2, b: 1, c: 1 });
    expect([queue.size, queue.bytes]).toEqual([4, 100]);
    queue.shift();
    expect(queue.push('d', 'd1', 1)).toBe('queued');
  });
  it('counts held room as waiting, per key and in all, until it is released (once)', () => {
    const queue = new FairQueue<string>({ items: 3, bytes: 100, itemsPerKey: 2, bytesPerKey: 50 });
    const first = queue.reserve('a', 20);
    const second = queue.reserve('a', 20);
    expect([typeof first, typeof second]).toEqual(['object', 'object']);
    // Two places of a's two are held: a third is refused, before anything was queued.
    expect(queue.reserve('a', 1)).toBe('key-full');
    expect(queue.push('a', 'a1', 1)).toBe('key-full');
    expect(queue.admission('a', 1)).toBe('key-full');
    // The total counts held room too: 2 held + 1 queued of 3.
    expect(queue.push('b', 'b1', 1)).toBe('queued');
    expect(queue.reserve('c', 1)).toBe('full');
    if (typeof first === 'string' || typeof second === 'string') throw new Error('expected reservations');
    first.release();
    first.release(); // a second release gives back nothing more
    expect(queue.admission('a', 31)).toBe('key-full'); // 20 held + 31 > 50
    expect(queue.push('a', 'a1', 31)).toBe('key-full');
    expect(queue.push('a', 'a1', 10)).toBe('queued');
    second.release();
    expect(queue.waitingByKey()).toEqual({ b: 1, a: 1 });
    expect(queue.admission('a', 40)).toBe('queued');
    expect(queue.drain()).toEqual(['b1', 'a1']);
    expect([queue.size, queue.bytes]).toEqual([0, 0]);
  });
  it('queues an item that comes with room held for it, even a little larger than held; a released reservation admits nothing', () => {
    const queue = new FairQueue<string>({ items: 10, bytes: 100, itemsPerKey: 2, bytesPerKey: 40 });
    const small = queue.reserve('a', 20);
    const other = queue.reserve('a', 20);
    if (typeof small === 'string' || typeof other === 'string') throw new Error('expected reservations');
    expect(queue.push('a', 'a1', 25, small)).toBe('queued'); // 25 + 20 held > 40: admitted when its room was held
    expect(small.held).toBe(false);
    expect(queue.push('a', 'late', 1, small)).toBe('key-full'); // that room is taken: a second push must find room
    other.release();
    expect(queue.push('a', 'a2', 15, other)).toBe('queued'); // released: admitted as any item (25 + 15 ≤ 40)
    expect([queue.size, queue.bytes]).toEqual([2, 40]);
  });
});
