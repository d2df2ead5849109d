/** An entries answer serialised chunk by chunk: the same JSON as in one piece, with a pause between chunks. */
import { describe, expect, it } from 'vitest';
import { ENTRIES_PER_CHUNK, entriesJson, type LogEntries } from '../../../../../services/hub/insights/entries-json';

function entries(count: number): LogEntries & { sliced: [number, number][] } {
  const sliced: [number, number][] = [];
  const entry = (i: number) => ({ t: new Date(i * 3_600_000).toISOString(), v: i % 3 === 0 ? null : i % 2 === 0 ? i / 10 : true });
  return {
    head: { start: '1970-01-01T00:00:00.000Z', end: '2000-01-01T00:00:00.000Z', step: 3_600_000, lastValue: null },
    count,
    sliced,
    slice(from, to) {
      sliced.push([from, to]);
      return Array.from({ length: to - from }, (_, i) => entry(from + i));
    },
  };
}

describe('entriesJson', () => {
  it.each([0, 1, ENTRIES_PER_CHUNK, ENTRIES_PER_CHUNK + 1, 8_760])('makes the same answer as JSON.stringify for %i entries', async (count) => {
    const log = entries(count);
    const json = (await entriesJson(log, async () => {})).toString('utf8');
    expect(JSON.parse(json)).toEqual({ ...log.head, values: entries(count).slice(0, count) });
  });

  it('makes a year in chunks of ENTRIES_PER_CHUNK with a pause before each but the first', async () => {
    const log = entries(8_760);
    let pauses = 0;
    await entriesJson(log, async () => void pauses++);
    expect(log.sliced).toHaveLength(Math.ceil(8_760 / ENTRIES_PER_CHUNK));
    expect(log.sliced.every(([from, to]) => to - from <= ENTRIES_PER_CHUNK)).toBe(true);
    expect(pauses).toBe(log.sliced.length - 1);
  });

  it('lets the event loop run between chunks by default', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const answer = entriesJson(entries(2 * ENTRIES_PER_CHUNK));
    expect(ran).toBe(false);
    await answer;
    expect(ran).toBe(true);
  });
});
