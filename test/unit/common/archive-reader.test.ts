/**
 * The bounds of Import's reading (docs/security.md, "Hostile archive files"): each attack file is read
 * to a result (never a throw), with the first bad entry named by its number, and the reader pauses
 * between pieces and after every few entries, so the page never waits for a whole file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_ENTRIES_PER_PAUSE, ARCHIVE_MAX_FILE_BYTES, ARCHIVE_MAX_SKIPPED, ARCHIVE_PIECE_CHARS, readArchive } from '../../../common/archive-reader';
import { ARCHIVE_MAX_DEPTH, ARCHIVE_MAX_ENTRY_CHARS } from '../../../common/archive-scanner';
import { bytesBase64 } from '../../../common/base64';
import { type ArchivedMessage, IMPORT_BATCH_MAX_BYTES } from '../../../common/ipc-contract';
import { toHar, toNdjson } from '../../../common/webhook-archive';
import { readText } from '../../support/archive-files';

const message = (id: string, overrides: Partial<ArchivedMessage> = {}): ArchivedMessage => ({
  webhookId: 'wh_1',
  id,
  receivedAt: '2026-11-24T10:00:00.000Z',
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  query: {},
  rawBody: bytesBase64(new TextEncoder().encode(`{"n":"${id}","s":"a \\"quoted\\" \\\\ text"}`)),
  routing: null,
  delivered: false,
  ...overrides,
});
const har = (entries: string[]) => `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[${entries.join(',')}]}}`;
const harEntry = (routingValue: string) =>
  `{"startedDateTime":"2026-11-24T10:00:00.000Z","request":{"method":"POST","url":"http://x/webhook/wh_1","headers":[]},"_hubdesk":{"id":"deep","routing":{"option":"key-path","matched":[],"value":${routingValue}}}}`;
const exported = (messages: ArchivedMessage[]) => toHar(messages, { name: 'Hubdesk', version: '1' }, (id) => `http://127.0.0.1/webhook/${id}`);
/** One message's entry as Export writes it. */
const entryOf = (m: ArchivedMessage) => JSON.stringify((JSON.parse(exported([m])) as { log: { entries: unknown[] } }).log.entries[0]);

describe('depth', () => {
  it('a HAR entry nested 5,000 levels deep is skipped by its number and the entries after it are read', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const file = har([entryOf(message('m1')), harEntry(deep), entryOf(message('m3'))]);
    const { result } = await readText(file);
    expect(result.format).toBe('har');
    expect(result.messages.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect(result.skipped).toEqual([{ at: 'entry 2', reason: `nested deeper than ${ARCHIVE_MAX_DEPTH} levels` }]);
  });

  it('an entry at the bound is read; one level more is not', async () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    // The entry, _hubdesk and routing are three levels above the value.
    const { result } = await readText(har([harEntry(nested(ARCHIVE_MAX_DEPTH - 3)), harEntry(nested(ARCHIVE_MAX_DEPTH - 2))]));
    expect(result.messages).toHaveLength(1);
    expect(result.skipped).toEqual([{ at: 'entry 2', reason: `nested deeper than ${ARCHIVE_MAX_DEPTH} levels` }]);
  });

  it('an NDJSON line nested too deep is skipped; the next line is read', async () => {
    const deep = JSON.stringify(message('m1')).replace('"routing":null', `"routing":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    const { result } = await readText(`${deep}\n${JSON.stringify(message('m2'))}\n`);
    expect(result.messages.map((m) => m.id)).toEqual(['m2']);
    expect(result.skipped).toEqual([{ at: 'line 1', reason: `nested deeper than ${ARCHIVE_MAX_DEPTH} levels` }]);
  });
});

describe('size of an entry', () => {
  it('a message over the bridge’s bound (120,000 headers, over 1 MiB) is skipped, so no import call carries it', async () => {
    const headers = Object.fromEntries(Array.from({ length: 120_000 }, (_, i) => [`h${i}`, '']));
    const big = JSON.stringify(message('big', { headers }));
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const { result } = await readText(`${JSON.stringify(message('m1'))}\n${big}\n${JSON.stringify(message('m3'))}\n`);
    expect(result.messages.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect(result.skipped).toEqual([
      { at: 'line 2', reason: expect.stringMatching(new RegExp(`^too large: \\d+ KiB as a message, at most ${IMPORT_BATCH_MAX_BYTES / 1024} KiB$`)) },
    ]);
  });

  it('an entry or line longer than ARCHIVE_MAX_ENTRY_CHARS is passed over without being kept', async () => {
    const long = `"${'x'.repeat(ARCHIVE_MAX_ENTRY_CHARS)}"`;
    const harRead = await readText(har([harEntry(long), harEntry('1')]));
    expect(harRead.result.skipped).toEqual([{ at: 'entry 1', reason: 'longer than 2 Mi characters' }]);
    expect(harRead.result.messages).toHaveLength(1);
    const lines = await readText(`${long}\n${JSON.stringify(message('m2'))}`);
    expect(lines.result.skipped).toEqual([{ at: 'line 1', reason: 'longer than 2 Mi characters' }]);
    expect(lines.result.messages.map((m) => m.id)).toEqual(['m2']);
  });
});

describe('count and total size', () => {
  it('600,000 junk lines: reading stops after ARCHIVE_MAX_SKIPPED bad ones, the first named, pausing every few entries', async () => {
    const junk = Array.from({ length: 600_000 }, (_, i) => `junk ${i}`).join('\n');
    const { result, entriesAtPauses } = await readText(junk);
    expect(result.format).toBe('ndjson');
    expect(result.skippedCount).toBe(ARCHIVE_MAX_SKIPPED);
    expect(result.skipped[0]).toEqual({ at: 'line 1', reason: 'not JSON' });
    expect(result.stopped).toEqual({ at: `line ${ARCHIVE_MAX_SKIPPED}`, reason: `${ARCHIVE_MAX_SKIPPED} entries could not be read; the rest was not read` });
    // A pause after every ARCHIVE_ENTRIES_PER_PAUSE entries, never more between two.
    expect(entriesAtPauses.length).toBeGreaterThanOrEqual(ARCHIVE_MAX_SKIPPED / ARCHIVE_ENTRIES_PER_PAUSE - 1);
    for (let i = 1; i < entriesAtPauses.length; i++) expect(entriesAtPauses[i]! - entriesAtPauses[i - 1]!).toBeLessThanOrEqual(ARCHIVE_ENTRIES_PER_PAUSE);
  });

  it('a large file is walked in pieces: at least one pause per ARCHIVE_PIECE_CHARS characters', async () => {
    const padding = ' '.repeat(8 * 1024 * 1024);
    const file = har([entryOf(message('m1'))]).replace('"entries"', `${padding}"entries"`);
    const { result, pauses } = await readText(file, 1024 * 1024);
    expect(result.messages).toHaveLength(1);
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(file.length / ARCHIVE_PIECE_CHARS));
  });

  it('stops at ARCHIVE_MAX_FILE_BYTES, however large the file says it is', async () => {
    const chunk = new TextEncoder().encode(`${' '.repeat(1024 * 1024 - 1)}\n`);
    let pauses = 0;
    const result = await readArchive(
      async function* () {
        for (let i = 0; i < 100; i++) yield chunk;
      },
      { pause: async () => void pauses++ },
    );
    expect(result.stopped?.reason).toBe(`the file is larger than ${ARCHIVE_MAX_FILE_BYTES / 1024 / 1024} MiB; the rest was not read`);
    expect(pauses).toBeGreaterThan(0);
  });
});

describe('pieces', () => {
  it('reads the same whatever the chunk boundaries fall on (escapes, keys and entries split) (property)', async () => {
    const messages = [message('m1'), message('m2', { headers: { 'x-q': 'a"b\\c' } }), message('m3')];
    const harFile = exported(messages);
    const ndjsonFile = toNdjson(messages);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 97 }), async (chunkBytes) => {
        expect((await readText(harFile, chunkBytes)).result).toEqual({ format: 'har', messages, skippedCount: 0, skipped: [] });
        expect((await readText(ndjsonFile, chunkBytes)).result).toEqual({ format: 'ndjson', messages, skippedCount: 0, skipped: [] });
      }),
      { numRuns: 40 },
    );
  });

  it('a HAR cut short keeps the entries before the cut and says where it stopped', async () => {
    const whole = exported([message('m1'), message('m2')]);
    const { result } = await readText(whole.slice(0, whole.lastIndexOf('"startedDateTime"') + 40));
    expect(result.messages.map((m) => m.id)).toEqual(['m1']);
    expect(result.stopped).toEqual({ at: 'entry 1', reason: 'the file ends inside its entries (cut short?)' });
  });
});
