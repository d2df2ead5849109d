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
});
