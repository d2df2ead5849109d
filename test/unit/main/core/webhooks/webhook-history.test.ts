import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_HISTORY_SETTINGS, invokeContract } from '../../../../../common/ipc-contract';
import { readCheckpoint } from '../../../../../main/core/webhooks/history-checkpoint';
import { openJournal } from '../../../../../main/core/webhooks/history-journal';
import type { SecretCipher } from '../../../../../main/core/shared/ports';
import { ALLOW_PLAINTEXT_KEY, createSecretStore } from '../../../../../main/core/shared/secret-store';
import { createWebhookHistory, HISTORY_KEY_SECRET, HISTORY_SETTINGS_KEY } from '../../../../../main/core/webhooks/webhook-history';
import type { WebhookInspector } from '../../../../../main/core/webhooks/webhook-inspector';
import { fakeCipher, memoryStore, recordingLogger } from '../../../../support/core-fakes';
import { tempDir } from '../../../../support/temp-dir';
import { listed, tapEvent, webhookMessage } from '../fake-listen-server';

const DAY = 24 * 60 * 60 * 1000;
const MiB = 1024 * 1024;

/** A fake clock and timers: `advance` runs what is due. */
function fakeTime(start = Date.parse('2026-11-01T00:00:00Z')) {
  let now = start;
  let timers: Array<{ at: number; run: () => void }> = [];
  return {
    clock: { now: () => now },
    schedule: (run: () => void, ms: number) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => void (timers = timers.filter((candidate) => candidate !== timer));
    },
    advance(ms: number) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.run();
    },
  };
}

/** One run of the app: the same folder and settings store make a restart. */
function run(dir: string | null, store = memoryStore(), options: { backend?: SecretCipher['backend']; time?: ReturnType<typeof fakeTime> } = {}) {
  const time = options.time ?? fakeTime();
  const logger = recordingLogger();
  const secrets = createSecretStore({ cipher: fakeCipher(options.backend ?? 'aes-256-gcm'), store, logger });
  const history = createWebhookHistory({ dir, secrets, store, logger, clock: time.clock, schedule: time.schedule });
  return { history, store, time, logger, secrets };
}

const ids = (inspector: WebhookInspector) => listed(inspector).map((entry) => `${entry.webhookId}/${entry.id}`);
/** The key of a history's files, from its secret store. */
async function savedKey({ secrets }: ReturnType<typeof run>): Promise<Buffer> {
  const key = await secrets.get(HISTORY_KEY_SECRET);
  if (key.status !== 'found') throw new Error('no history key');
  return Buffer.from(key.value, 'base64');
}
/** The checkpoint a history that has been closed wrote. */
async function savedCheckpoint(dir: string, app: ReturnType<typeof run>) {
  const read = await readCheckpoint(dir, await savedKey(app));
  if (read.status !== 'read') throw new Error(`checkpoint ${read.status}`);
  return read;
}
/** The journal of a history that has been closed, opened with its key and read after its checkpoint, as the history opens it. */
async function openSavedJournal(dir: string, app: ReturnType<typeof run>) {
  const journal = openJournal({ dir, key: await savedKey(app), boundBytes: DEFAULT_HISTORY_SETTINGS.boundBytes, logger: app.logger });
  const records: unknown[] = [];
  await journal.load((record) => records.push(record), (await savedCheckpoint(dir, app)).through);
  return { journal, records };
}
const fileBytes = (dir: string) => Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));

describe('webhook history', () => {
  it('comes back after a restart as it was: entries, merges, bodies, imports and removals', async () => {
    const dir = tempDir('history-restart');
    const first = run(dir);
    await first.history.ready;
    const { inspector } = first.history;
    inspector.tapped('wh1', tapEvent('m1', 'l1', { request: false })); // routed here: the delivery brings the body
    inspector.delivered('wh1', webhookMessage('m1', { device: { id: 'lamp-1' }, on: true }));
    inspector.tapped('wh1', tapEvent('m2')); // another hub's, with its request
    inspector.delivered('wh2', webhookMessage('m3'));
    inspector.imported({ ...webhookMessage('m4'), webhookId: 'wh1', method: 'PUT', routing: null, delivered: false });
    inspector.delivered('gone', webhookMessage('m5'));
    inspector.forget('gone');
    const before = listed(inspector);
    const body = inspector.message('wh1', 'm1');
    await first.history.close();

    const second = run(dir, first.store);
    await second.history.ready;
    expect(listed(second.history.inspector)).toEqual(before);
    expect(second.history.inspector.message('wh1', 'm1')).toEqual(body);
    expect(body).toMatchObject({ status: 'kept', message: { body: { device: { id: 'lamp-1' }, on: true } } });
    expect(second.history.view()).toMatchObject({ storage: 'encrypted', messages: 4, error: null });
  });

  it("comes back with the forwarder's dropped notice applied: the entries it marked, and a tap event after it", async () => {
    const dir = tempDir('history-dropped');
    const first = run(dir);
    await first.history.ready;
    const id = (sequence: number) => `evt_000000001_${String(sequence).padStart(10, '0')}`;
    first.history.inspector.tapped('wh', tapEvent(id(1), 'l1', { request: false }));
    expect(first.history.inspector.dropped('wh', { type: 'dropped', through: id(2), count: 2 })).toHaveLength(1);
    await first.history.close();

    const second = run(dir, first.store);
    await second.history.ready;
    expect(listed(second.history.inspector)).toEqual([expect.objectContaining({ id: id(1), droppedByForwarder: true, awaitingDelivery: false })]);
    const late = second.history.inspector.tapped('wh', tapEvent(id(2), 'l1', { request: false }));
    expect(late?.kind === 'entry' && late.entry).toMatchObject({ droppedByForwarder: true });
  });

  it('saves what it read of each body, so a restart reads no body again; records saved without it are read as before', async () => {
    const dir = tempDir('history-facts');
    const first = run(dir);
    await first.history.ready;
    const exponent = { ...webhookMessage('exponent'), rawBody: Buffer.from('{"n":1e3}').toString('base64') };
    first.history.inspector.delivered('wh1', exponent);
    first.history.inspector.delivered('wh1', webhookMessage('plain', { n: 5 }));
    await first.history.close();
    const { entries } = (await savedCheckpoint(dir, first)).state;
    expect(entries.map(({ id, body }) => [id, body && 'text' in body && body.unplainNumber])).toEqual([
      ['exponent', true],
      ['plain', false],
    ]);
    const { journal, records } = await openSavedJournal(dir, first);
    expect(records).toEqual([]); // the checkpoint holds them

    // Trusted as saved (the frames are authenticated): a fact saved false is not read again, so this
    // record's 1e3 cannot be found as 1000; one saved without facts is read, and is.
    journal.append({ t: 'delivery', w: 'wh1', m: { ...exponent, id: 'trusted' }, u: false }, first.time.clock.now());
    journal.append({ t: 'delivery', w: 'wh1', m: { ...exponent, id: 'older' } }, first.time.clock.now());
    await journal.close();
    const second = run(dir, first.store, { time: first.time });
    await second.history.ready;
    const found = second.history.inspector.snapshot({ limit: 10, filter: { keyPath: 'body.n == 1000' } }).entries.map((entry) => entry.id);
    expect(found).toEqual(['older', 'exponent']);
  });

  it('keeps nothing readable on disk, and its key only encrypted in the settings', async () => {
    const dir = tempDir('history-sealed');
    const { history, store } = run(dir);
    await history.ready;
    const marker = 'lamp-in-the-attic-0xC0FFEE';
    history.inspector.delivered('wh1', webhookMessage('m1', { device: { id: marker } }));
    await history.close();
    const onDisk = fileBytes(dir);
    expect(onDisk.length).toBeGreaterThan(0);
    for (const form of [marker, Buffer.from(JSON.stringify({ device: { id: marker } })).toString('base64')]) expect(onDisk.includes(form)).toBe(false);
    expect(store.data.get(HISTORY_KEY_SECRET)).toEqual({ v: 1, backend: 'aes-256-gcm', data: expect.any(String) });
  });

  it('without its key (the settings lost), the old files are deleted and a new history starts', async () => {
    const dir = tempDir('history-no-key');
    const first = run(dir);
    await first.history.ready;
    first.history.inspector.delivered('wh1', webhookMessage('m1'));
    await first.history.close();
    const second = run(dir); // a new settings store: no key
    await second.history.ready;
    expect(ids(second.history.inspector)).toEqual([]);
    second.history.inspector.delivered('wh1', webhookMessage('m2'));
    await second.history.close();
    const third = run(dir, second.store);
    await third.history.ready;
    expect(ids(third.history.inspector)).toEqual(['wh1/m2']);
  });

  it('is kept in memory only where the tokens are (basic_text without permission), and writes nothing', async () => {
    const dir = tempDir('history-memory');
    const { history } = run(dir, memoryStore(), { backend: 'basic_text' });
    await history.ready;
    history.inspector.delivered('wh1', webhookMessage('m1'));
    await history.close();
    expect(readdirSync(dir)).toEqual([]);
    expect(history.view()).toMatchObject({ storage: 'memory-only', messages: 1 });

    const allowed = run(dir, memoryStore({ [ALLOW_PLAINTEXT_KEY]: true }), { backend: 'basic_text' });
    await allowed.history.ready;
    expect(allowed.history.view().storage).toBe('obfuscated');
  });

  it('drops what is older than the age setting: at start (from the checkpoint too), and every hour while running', async () => {
    const dir = tempDir('history-age');
    const time = fakeTime();
    const first = run(dir, memoryStore(), { time });
    await first.history.ready;
    await first.history.set({ ...DEFAULT_HISTORY_SETTINGS, maxAgeDays: 1 });
    first.history.inspector.delivered('wh1', webhookMessage('old'));
    time.advance(DAY / 2);
    first.history.inspector.delivered('wh1', webhookMessage('newer'));
    await first.history.close();
    const checkpointed = async () => (await savedCheckpoint(dir, first)).state.entries.map((entry) => entry.id);
    expect(await checkpointed()).toEqual(['old', 'newer']);

    // Read again a day later: "old" is over a day old, "newer" is not yet; it leaves the disk too.
    time.advance(DAY / 2 + 1000);
    const second = run(dir, first.store, { time });
    await second.history.ready;
    expect(ids(second.history.inspector)).toEqual(['wh1/newer']);
    expect(await checkpointed()).toEqual(['newer']);
    time.advance(DAY / 2); // the hourly pruning while running
    await Promise.resolve();
    expect(ids(second.history.inspector)).toEqual([]);
  });

  it('applies a smaller bound at once, oldest first, and keeps the setting', async () => {
    const dir = tempDir('history-bound');
    const { history, store } = run(dir);
    await history.ready;
    const big = (n: number) => webhookMessage(`m${n}`, { pad: 'x'.repeat(MiB) });
    for (let n = 0; n < 40; n++) history.inspector.delivered('wh1', big(n));
    await history.set({ boundBytes: 32 * MiB, maxAgeDays: 30 });
    const view = history.view();
    expect(view.boundBytes).toBe(32 * MiB);
    expect(view.bytes).toBeLessThanOrEqual(32 * MiB);
    expect(store.data.get(HISTORY_SETTINGS_KEY)).toEqual({ boundBytes: 32 * MiB, maxAgeDays: 30 });
    const kept = listed(history.inspector).filter((entry) => history.inspector.message('wh1', entry.id).status === 'kept');
    expect(kept.map((entry) => entry.id)).toContain('m39');
    expect(kept.map((entry) => entry.id)).not.toContain('m0');
    await history.close();
  });

  it('clears memory and disk', async () => {
    const dir = tempDir('history-clear');
    const first = run(dir);
    await first.history.ready;
    first.history.inspector.delivered('wh1', webhookMessage('m1'));
    await first.history.clear();
    first.history.inspector.delivered('wh1', webhookMessage('m2'));
    await first.history.close();
    const second = run(dir, first.store);
    await second.history.ready;
    expect(ids(second.history.inspector)).toEqual(['wh1/m2']);
  });

  it('a restart reads the checkpoint written at close, then only the records written after it', async () => {
    const dir = tempDir('history-checkpoint');
    const first = run(dir);
    await first.history.ready;
    first.history.inspector.tapped('wh', tapEvent('m1', 'l1', { request: false }));
    first.history.inspector.delivered('wh', webhookMessage('m1'));
    first.history.inspector.delivered('wh', webhookMessage('m2'));
    const before = listed(first.history.inspector);
    await first.history.close();
    expect(readdirSync(dir)).toEqual(['checkpoint']); // the segments it holds are gone
    expect(first.history.view().bytes).toBe(statSync(join(dir, 'checkpoint')).size);

    // A run that crashed after the checkpoint: its records are in a segment after it.
    const { journal } = await openSavedJournal(dir, first);
    journal.append({ t: 'delivery', w: 'wh', m: webhookMessage('m3') }, first.time.clock.now());
    journal.append({ t: 'forget', w: 'gone' }, first.time.clock.now());
    await journal.close();
    const second = run(dir, first.store, { time: first.time });
    await second.history.ready;
    expect(listed(second.history.inspector).slice(1)).toEqual(before);
    expect(ids(second.history.inspector)).toEqual(['wh/m3', 'wh/m2', 'wh/m1']);
    await second.history.close();
    expect(readdirSync(dir)).toEqual(['checkpoint']);
    const written = readFileSync(join(dir, 'checkpoint'));
    const third = run(dir, first.store, { time: first.time });
    await third.history.ready;
    expect(ids(third.history.inspector)).toEqual(['wh/m3', 'wh/m2', 'wh/m1']);
    // Nothing new since it was read: quitting keeps it as it is (a new write would seal it with new IVs).
    await third.history.close();
    expect(readFileSync(join(dir, 'checkpoint')).equals(written)).toBe(true);
  });

  it('a checkpoint that does not open is set aside: the segments after it are read, and the log says so', async () => {
    const dir = tempDir('history-checkpoint-damaged');
    const first = run(dir);
    await first.history.ready;
    first.history.inspector.delivered('wh', webhookMessage('m1'));
    await first.history.close();
    const { journal } = await openSavedJournal(dir, first);
    journal.append({ t: 'delivery', w: 'wh', m: webhookMessage('m2') }, first.time.clock.now());
    await journal.close();
    const file = join(dir, 'checkpoint');
    writeFileSync(file, readFileSync(file).subarray(0, 40));
    const second = run(dir, first.store);
    await second.history.ready;
    expect(ids(second.history.inspector)).toEqual(['wh/m2']);
    expect(second.logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringContaining('checkpoint could not be read') }));
  });

  it('folds the segments into a checkpoint while running once they pass their room, and stays within the bound', async () => {
    const dir = tempDir('history-fold');
    const { history, store, time } = run(dir);
    await history.ready;
    await history.set({ boundBytes: 32 * MiB, maxAgeDays: 30 });
    // Each 1 MiB message lands in a segment as its frame is written; the room is 16 MiB of segments.
    let n = 0;
    const deliver = () => history.inspector.delivered('wh', webhookMessage(`m${n++}`, { pad: `${n}`.padEnd(MiB, 'x') }));
    for (let i = 0; i < 12; i++) deliver();
    await vi.waitFor(
      () => {
        deliver();
        expect(readdirSync(dir)).toContain('checkpoint');
      },
      { timeout: 60_000, interval: 20 },
    );
    const kept = ids(history.inspector);
    await history.close();
    expect(readdirSync(dir)).toEqual(['checkpoint']);
    expect(history.view().bytes).toBe(statSync(join(dir, 'checkpoint')).size);
    expect(history.view().bytes).toBeLessThanOrEqual(32 * MiB);
    const again = run(dir, store, { time });
    await again.history.ready;
    expect(ids(again.history.inspector)).toEqual(kept);
  });

  it('clearing deletes the checkpoint as well', async () => {
    const dir = tempDir('history-clear-checkpoint');
    const first = run(dir);
    await first.history.ready;
    first.history.inspector.delivered('wh1', webhookMessage('m1'));
    await first.history.close();
    const second = run(dir, first.store);
    await second.history.ready;
    expect(ids(second.history.inspector)).toEqual(['wh1/m1']);
    await second.history.clear();
    expect(readdirSync(dir)).toEqual([]);
    expect(second.history.view()).toMatchObject({ messages: 0, bytes: 0 });
    const third = run(dir, first.store);
    await third.history.ready;
    expect(ids(third.history.inspector)).toEqual([]);
  });

  it('the settings channel takes only the offered choices, and nothing else', () => {
    const args = invokeContract['inspector.setHistory'].args;
    expect(args.safeParse([{ boundBytes: 128 * MiB, maxAgeDays: 30 }]).success).toBe(true);
    for (const bad of [
      [{ boundBytes: 100 * MiB, maxAgeDays: 30 }],
      [{ boundBytes: 128 * MiB, maxAgeDays: 2 }],
      [{ boundBytes: 128 * MiB }],
      [{ boundBytes: 128 * MiB, maxAgeDays: 30, extra: 1 }],
      [],
      ['128'],
    ]) {
      expect(args.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(invokeContract['inspector.history'].args.safeParse([1]).success).toBe(false);
  });

  it('a saved setting that is not one of the choices is not used', () => {
    const { history } = run(null, memoryStore({ [HISTORY_SETTINGS_KEY]: { boundBytes: 1, maxAgeDays: 100000 } }));
    expect(history.view()).toMatchObject({ ...DEFAULT_HISTORY_SETTINGS, storage: 'memory-only' });
  });
});
