import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type JournalOptions, journalBytesOnDisk, openJournal } from '../../../../../main/core/webhooks/history-journal';
import { recordingLogger } from '../../../../support/core-fakes';
import { tempDir } from '../../../../support/temp-dir';

const KiB = 1024;
const noTimer = () => () => {};

function journalIn(dir: string, overrides: Partial<JournalOptions> = {}) {
  const logger = recordingLogger();
  return { logger, journal: openJournal({ dir, key: overrides.key ?? KEY, boundBytes: 1024 * KiB, logger, schedule: noTimer, ...overrides }) };
}
const KEY = randomBytes(32);

async function readAll(dir: string, overrides: Partial<JournalOptions> = {}) {
  const { journal, logger } = journalIn(dir, overrides);
  const records: Array<{ record: unknown; at: number }> = [];
  const report = await journal.load((record, at) => records.push({ record, at }));
  return { records, report, journal, logger };
}

const segments = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .sort();

describe('history journal', () => {
  it('reads back what was appended, in order, after a restart; each start writes a new segment', async () => {
    const dir = tempDir('journal-order');
    const first = journalIn(dir).journal;
    await first.load(() => {});
    first.append({ n: 1 }, 1000);
    first.append({ n: 2, text: 'é✓' }, 1001);
    await first.close();
    const second = await readAll(dir);
    expect(second.records).toEqual([
      { record: { n: 1 }, at: 1000 },
      { record: { n: 2, text: 'é✓' }, at: 1001 },
    ]);
    second.journal.append({ n: 3 }, 1002);
    await second.journal.close();
    expect(segments(dir)).toHaveLength(2);
    expect((await readAll(dir)).records.map(({ record }) => record)).toEqual([{ n: 1 }, { n: 2, text: 'é✓' }, { n: 3 }]);
  });

  it('lets other work run between frames while it reads (a large history takes seconds)', async () => {
    const dir = tempDir('journal-yields');
    const { journal } = journalIn(dir);
    await journal.load(() => {});
    for (const n of [1, 2, 3]) {
      journal.append({ n }, n);
      await journal.flush(); // a frame each
    }
    await journal.close();
    const seen: string[] = [];
    await journalIn(dir).journal.load((record) => {
      const { n } = record as { n: number };
      seen.push(`frame ${n}`);
      if (n === 1) setImmediate(() => seen.push('other work'));
    });
    expect(seen).toEqual(['frame 1', 'other work', 'frame 2', 'frame 3']);
  });

  it('is unreadable on disk: no plaintext, and nothing from it without the key (those segments are deleted, not misread)', async () => {
    const dir = tempDir('journal-secret');
    const { journal } = journalIn(dir);
    await journal.load(() => {});
    const marker = 'a-body-that-must-not-be-on-disk-in-clear';
    journal.append({ body: marker, base64: Buffer.from(marker).toString('base64') }, 1);
    await journal.close();
    const bytes = Buffer.concat(segments(dir).map((name) => readFileSync(join(dir, name))));
    expect(bytes.includes(marker)).toBe(false);
    expect(bytes.includes(Buffer.from(marker).toString('base64'))).toBe(false);
    const other = await readAll(dir, { key: randomBytes(32) });
    expect(other.records).toEqual([]);
    expect(other.report.damaged).toBe(1);
    expect(segments(dir)).toEqual([]);
  });

  it('keeps the frames before a torn or changed one', async () => {
    const dir = tempDir('journal-torn');
    const { journal } = journalIn(dir, { flushMs: 0 });
    await journal.load(() => {});
    journal.append({ n: 1 }, 1);
    await journal.flush();
    journal.append({ n: 2 }, 2);
    await journal.flush();
    const [name] = segments(dir);
    const path = join(dir, name!);
    truncateSync(path, statSync(path).size - 3); // a crash in the middle of the second frame
    const torn = await readAll(dir);
    expect(torn.records.map(({ record }) => record)).toEqual([{ n: 1 }]);
    expect(torn.report.damaged).toBe(1);

    // A flipped bit in the first frame: the tag check refuses it, nothing is misread.
    const changed = readFileSync(path);
    changed[13 + 4 + 20]! ^= 1; // after the 13-byte header and the frame's length
    writeFileSync(path, changed);
    expect((await readAll(dir)).records).toEqual([]);
    // Garbage appended after good frames changes nothing before it.
    appendFileSync(path, Buffer.from([0, 0, 0, 5, 1, 2, 3]));
    expect((await readAll(dir)).report.damaged).toBe(1);
  });

  it('stays within its byte bound, the oldest segments deleted first', async () => {
    const dir = tempDir('journal-bound');
    const bound = 64 * KiB;
    const { journal } = journalIn(dir, { boundBytes: bound, segmentBytes: 8 * KiB });
    await journal.load(() => {});
    for (let n = 0; n < 400; n++) {
      journal.append({ n, pad: randomBytes(300).toString('base64') }, n);
      if (n % 10 === 9) await journal.flush();
    }
    await journal.close();
    expect(await journalBytesOnDisk(dir)).toBeLessThanOrEqual(bound);
    const kept = (await readAll(dir, { boundBytes: bound })).records.map(({ record }) => (record as { n: number }).n);
    expect(kept.length).toBeGreaterThan(50);
    expect(kept.at(-1)).toBe(399);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 400 - kept.length + i)); // the newest, none missing between

    // A smaller bound deletes at once.
    const again = journalIn(dir, { boundBytes: bound, segmentBytes: 8 * KiB }).journal;
    await again.load(() => {});
    await again.setBound(20 * KiB);
    expect(await journalBytesOnDisk(dir)).toBeLessThanOrEqual(20 * KiB);
  });

  it('drops segments whose newest record is older than asked, and clears everything', async () => {
    const dir = tempDir('journal-age');
    const first = journalIn(dir).journal;
    await first.load(() => {});
    first.append({ old: true }, 1_000);
    await first.close();
    const second = journalIn(dir).journal;
    await second.load(() => {});
    second.append({ old: false }, 5_000);
    await second.flush();
    await second.dropBefore(2_000);
    expect((await readAll(dir)).records.map(({ record }) => record)).toEqual([{ old: false }]);
    second.append({ waiting: true }, 6_000);
    await second.clear();
    await second.flush();
    expect(segments(dir)).toEqual([]);
    expect((await readAll(dir)).records).toEqual([]);
  });

  it('bounds what waits to be written, and says so when it had to drop records', async () => {
    const dir = tempDir('journal-pending');
    const { journal, logger } = journalIn(dir, { maxPendingBytes: 10 * KiB });
    await journal.load(() => {});
    for (let n = 0; n < 30; n++) journal.append({ n, pad: 'x'.repeat(1000) }, n);
    expect(journal.status().error).toMatch(/could not save the webhook history as fast as messages arrived/);
    expect(logger.lines.filter((entry) => entry.level === 'error')).toHaveLength(1);
    await journal.close();
    expect((await readAll(dir)).records.length).toBeLessThan(30);
  });

  it('counts the batches queued behind a slow write in that bound: a flood is not held in memory past it', async () => {
    const dir = tempDir('journal-queued');
    const { journal } = journalIn(dir, { maxPendingBytes: 12 * 1024 * KiB });
    await journal.load(() => {});
    // 40 MiB appended in one go: a batch is handed to the writer every 4 MiB, and none is written before
    // the loop ends (writes need the event loop), as when the disk is slower than the network.
    const record = { pad: 'x'.repeat(1024 * KiB) };
    for (let n = 0; n < 40; n++) journal.append({ n, ...record }, n);
    expect(journal.status().error).toMatch(/could not save the webhook history as fast as messages arrived/);
    expect(journal.status().bytes).toBeLessThanOrEqual(12 * 1024 * KiB);
    await journal.close();
    const { records } = await readAll(dir);
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThanOrEqual(12);
  });

  it('says when a write fails, and keeps going', async () => {
    const dir = tempDir('journal-fail');
    const { journal } = journalIn(dir, { dir: join(dir, 'missing', 'deeper') });
    // load() makes the folder; without it every write fails.
    journal.append({ n: 1 }, 1);
    await journal.flush();
    expect(journal.status().error).toMatch(/could not save the webhook history/);
  });
});
