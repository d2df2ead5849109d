/**
 * The inspector's history (docs/webhooks-app.md, "History"): every message the inspector keeps is kept across restarts,
 * with the protection of the tokens, within a byte bound and an age the user sets.
 *
 * - What is saved: the inspector's inputs (a tap event, a delivery, an imported message, a removed
 *   registration, the forwarder's notice of dropped messages), each but the notice only when it changed the inspector, in an encrypted journal
 *   (history-journal.ts). At start they are read back through the same inspector functions, so the
 *   restored inspector is the one that was saved, merges included, with no second code for it.
 * - Protection: the journal's AES-256-GCM key is a secret of the secret store (secret-store.ts), so it
 *   is encrypted by what encrypts the tokens (the OS keychain; the browser host's key file) and under
 *   the same policy: where the tokens are kept in memory only, so is the history (`storage` says so).
 *   Without the key the files are noise; files of a key that is gone are deleted when read.
 * - Bounds: `boundBytes` bounds the files and the inspector's memory alike (oldest first), and
 *   `maxAgeDays` drops what is older, at start and every hour. Both are settings (HISTORY_BOUNDS and
 *   HISTORY_AGES are the choices; docs/security.md gives the figures).
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { z } from 'zod';
import {
  ArchivedMessageSchema,
  DEFAULT_HISTORY_SETTINGS,
  WebhookIdSchema,
  type HistorySettings,
  HistorySettingsSchema,
  type HistoryView,
} from '../../../common/ipc-contract';
import { DroppedNoticeSchema, RawWebhookMessageSchema, TapEventSchema } from '../../../common/webhook-protocol';
import { AES_KEY_BYTES } from '../shared';
import { checkpointBytes, decodeEntryParts, readCheckpoint, removeCheckpoint, writeCheckpoint } from './history-checkpoint';
import { type Journal, journalBytesOnDisk, openJournal } from './history-journal';
import { type Clock, type KeyValueStore, type Logger, realSchedule, type Schedule } from '../shared';
import type { SecretStore } from '../shared';
import { createWebhookInspector, type WebhookInspector } from './webhook-inspector';
import { errorMessage } from '../../../common/error-message';

export const HISTORY_KEY_SECRET = 'webhooks:historyKey';
export const HISTORY_SETTINGS_KEY = 'webhooks:history';
/** The most messages kept, whatever their size (the byte bound is the one that counts). */
const HISTORY_MAX_MESSAGES = 250_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Segments are folded into a checkpoint past a quarter of the bound, and never below this. */
const MIN_SEGMENTS_BEFORE_CHECKPOINT = 16 * 1024 * 1024;
/** Checkpoints written while running are at least this far apart. */
const CHECKPOINT_SPACING_MS = 60 * 1000;
/** Restored entries whose parts are read per turn of the event loop after the start (about 10 ms of work). */
const RESTORED_PER_TURN = 2_000;

/** A body's facts (`BodyFacts`), saved with its message since they were; absent in older records (then read again). */
const facts = { u: z.boolean().optional() };
const HistoryRecordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('tap'), w: WebhookIdSchema, e: TapEventSchema, ...facts }),
  z.object({ t: z.literal('delivery'), w: WebhookIdSchema, m: RawWebhookMessageSchema, ...facts }),
  z.object({ t: z.literal('import'), m: ArchivedMessageSchema, ...facts }),
  z.object({ t: z.literal('forget'), w: WebhookIdSchema }),
  z.object({ t: z.literal('dropped'), w: WebhookIdSchema, n: DroppedNoticeSchema }),
]);
type HistoryRecord = z.infer<typeof HistoryRecordSchema>;

export interface WebhookHistory {
  /** The inspector to use: it is the history, and records what changes it. */
  inspector: WebhookInspector;
  /** Settles once the saved history is in the inspector (at once where nothing is saved). Never rejects. */
  ready: Promise<void>;
  view(): HistoryView;
  set(settings: HistorySettings): Promise<HistoryView>;
  /** Everything, from memory and from disk. */
  clear(): Promise<void>;
  /** Writes what waits and stops the hourly pruning. */
  close(): Promise<void>;
}

export interface WebhookHistoryDeps {
  /** The folder of the journal; null: the history is kept in memory only (tests, a host without storage). */
  dir: string | null;
  secrets: SecretStore;
  store: KeyValueStore;
  logger: Logger;
  clock: Clock;
  schedule?: Schedule;
}

export function createWebhookHistory(deps: WebhookHistoryDeps): WebhookHistory {
  const { secrets, store, logger, clock } = deps;
  const schedule = deps.schedule ?? realSchedule;
  const saved = HistorySettingsSchema.safeParse(store.get(HISTORY_SETTINGS_KEY));
  let settings: HistorySettings = saved.success ? saved.data : DEFAULT_HISTORY_SETTINGS;
  const inner = createWebhookInspector({ capacity: HISTORY_MAX_MESSAGES, budgetBytes: settings.boundBytes });
  const persisted = deps.dir !== null && secrets.storage() !== 'memory-only';
  let journal: Journal | null = null;
  let journalKey: Buffer | null = null;
  let loadError: string | null = null;
  const cutoff = () => clock.now() - settings.maxAgeDays * DAY_MS;

  /** When the oldest entry of the checkpoint on disk arrived (null: none, or it holds no entry). */
  let checkpointOldest: number | null = null;
  /** Whether a checkpoint is on disk, and whether anything was recorded since it was taken (a quit then need not write it again). */
  let checkpointOnDisk = false;
  let recordedSinceCheckpoint = false;
  let checkpointing: Promise<void> | null = null;
  let lastCheckpointAt = Number.NEGATIVE_INFINITY;
  /**
   * Writes the inspector's state as the checkpoint and deletes the journal's segments it holds: the
   * state and the cut are taken in the same turn, so what is appended after is in the later segments.
   */
  const saveCheckpoint = (): Promise<void> =>
    (checkpointing ??= (async () => {
      if (!journal || !journalKey) return;
      lastCheckpointAt = clock.now();
      recordedSinceCheckpoint = false;
      const state = inner.exportState();
      const through = await journal.cut();
      const written = await writeCheckpoint(deps.dir!, journalKey, { through, state });
      checkpointOldest = state.entries[0]?.arrivedAt ?? null;
      checkpointOnDisk = true;
      await journal.dropThrough(through);
      await journal.setReserved(written);
    })()
      .catch((error: unknown) => logger.error('history: the checkpoint could not be written', { error: errorMessage(error) }))
      .finally(() => (checkpointing = null)));
  /**
   * Whether the segments are to be folded into a new checkpoint while running: past their room (a
   * quarter of the bound, at least 16 MiB: what a start after a crash replays), or with the checkpoint
   * past the bound (the journal then deletes its oldest segments to stay within it). At most once per
   * CHECKPOINT_SPACING_MS, since each one writes the whole state: a flood at the bound would otherwise
   * write it again every few messages (docs/webhooks-app.md, "History").
   */
  const dueForCheckpoint = (open: Journal) =>
    checkpointing === null &&
    clock.now() - lastCheckpointAt >= CHECKPOINT_SPACING_MS &&
    (open.segmentBytes() > Math.max(MIN_SEGMENTS_BEFORE_CHECKPOINT, settings.boundBytes / 4) || open.status().bytes > settings.boundBytes);

  const record = (entry: HistoryRecord) => {
    if (!journal) return;
    journal.append(entry, clock.now());
    recordedSinceCheckpoint = true;
    if (dueForCheckpoint(journal)) void saveCheckpoint();
  };
  /** The facts of the body just kept, to save beside it. */
  const factsOf = (webhookId: string, id: string) => {
    const known = inner.bodyFacts(webhookId, id);
    return known && { u: known.unplainNumber };
  };
  const inspector: WebhookInspector = {
    ...inner,
    tapped(webhookId, event, at = clock.now()) {
      const change = inner.tapped(webhookId, event, at);
      if (change) record({ t: 'tap', w: webhookId, e: event, ...(event.request && factsOf(webhookId, event.id)) });
      return change;
    },
    delivered(webhookId, message, at = clock.now()) {
      const change = inner.delivered(webhookId, message, at);
      if (change) record({ t: 'delivery', w: webhookId, m: message, ...factsOf(webhookId, message.id) });
      return change;
    },
    imported(message, at = clock.now()) {
      const change = inner.imported(message, at);
      if (change) record({ t: 'import', m: message, ...factsOf(message.webhookId, message.id) });
      return change;
    },
    dropped(webhookId, notice) {
      const patches = inner.dropped(webhookId, notice);
      record({ t: 'dropped', w: webhookId, n: notice });
      return patches;
    },
    forget(webhookId) {
      inner.forget(webhookId);
      record({ t: 'forget', w: webhookId });
    },
    clear() {
      void clear();
    },
  };

  const replay = (raw: unknown, at: number) => {
    const parsed = HistoryRecordSchema.safeParse(raw);
    if (!parsed.success) return false;
    const entry = parsed.data;
    if (entry.t === 'forget') inner.forget(entry.w);
    else if (entry.t === 'dropped') inner.dropped(entry.w, entry.n);
    else if (at < cutoff()) return true;
    else {
      const known = entry.u === undefined ? undefined : { unplainNumber: entry.u };
      if (entry.t === 'tap') inner.tapped(entry.w, entry.e, at, known);
      else if (entry.t === 'delivery') inner.delivered(entry.w, entry.m, at, known);
      else inner.imported(entry.m, at, known);
    }
    return true;
  };

  const prune = async () => {
    const before = cutoff();
    inner.prune(before);
    await journal?.dropBefore(before);
    // What is older than the age kept leaves the disk too: the checkpoint is written again without it.
    if (checkpointOldest !== null && checkpointOldest < before) await saveCheckpoint();
  };
  let cancelPruning = () => {};
  const prunePeriodically = () => {
    cancelPruning = schedule(() => {
      void prune().finally(prunePeriodically);
    }, PRUNE_EVERY_MS);
  };

  /** Restored entries whose parts did not read (listed by id and time alone): logged once they are all read. */
  let unreadable = 0;
  const readParts = (text: Buffer) => {
    const parts = decodeEntryParts(text);
    if (!parts) unreadable++;
    return parts;
  };
  /** The restored entries' parts, read a few thousand a turn after the start, so the first search need not. */
  const readRestoredParts = async () => {
    while (inner.readRestored(RESTORED_PER_TURN) > 0) await yieldToEventLoop();
    if (unreadable > 0) logger.warn('history: entries of the checkpoint could not be read; they are listed by id and time alone', { unreadable });
  };

  const ready = (async () => {
    if (!persisted) return;
    try {
      const key = await historyKey(secrets);
      const opened = openJournal({ dir: deps.dir!, key, boundBytes: settings.boundBytes, logger, schedule });
      // The checkpoint first (the state as it was), then the records of the segments written after it.
      const checkpoint = await readCheckpoint(deps.dir!, key);
      if (checkpoint.status === 'read') {
        inner.restoreState(checkpoint.state, readParts);
        checkpointOldest = checkpoint.state.entries[0]?.arrivedAt ?? null;
        checkpointOnDisk = true;
        await opened.setReserved(checkpoint.bytes);
      } else if (checkpoint.status === 'damaged') {
        logger.warn('history: the checkpoint could not be read; the journal alone is read');
        await removeCheckpoint(deps.dir!);
      }
      let invalid = 0;
      const loaded = await opened.load(
        (raw, at) => {
          if (!replay(raw, at)) invalid++;
        },
        checkpoint.status === 'read' ? checkpoint.through : 0,
      );
      if (invalid > 0 || loaded.damaged > 0) logger.warn('history: parts of the saved history could not be read', { invalid, damaged: loaded.damaged });
      logger.info('history: read', { records: loaded.records, messages: inner.usage().entries });
      journal = opened;
      journalKey = key;
      await prune();
      void readRestoredParts();
    } catch (error) {
      loadError = `Hubdesk could not read the saved webhook history (${errorMessage(error)}); new messages are kept until Hubdesk quits.`;
      logger.error('history: could not be read', { error: errorMessage(error) });
    }
  })().finally(prunePeriodically);

  const clear = async () => {
    inner.clear();
    // A checkpoint being written would put back what is cleared: it ends first, then every file goes.
    await checkpointing;
    await journal?.clear();
    if (journal) {
      await removeCheckpoint(deps.dir!);
      checkpointOldest = null;
      checkpointOnDisk = false;
      await journal.setReserved(0);
    }
  };

  const view = (): HistoryView => {
    const usage = inner.usage();
    const status = journal?.status();
    return {
      ...settings,
      storage: !persisted || loadError !== null ? 'memory-only' : secrets.storage() === 'plaintext-opt-in' ? 'obfuscated' : 'encrypted',
      messages: usage.entries,
      bytes: status?.bytes ?? usage.bytes,
      error: loadError ?? status?.error ?? null,
    };
  };

  return {
    inspector,
    ready,
    view,
    async set(next) {
      settings = next;
      store.set(HISTORY_SETTINGS_KEY, next);
      inner.setBudget(next.boundBytes);
      await journal?.setBound(next.boundBytes);
      await prune();
      // A smaller bound: the checkpoint is written again from the state within it.
      if (checkpointOnDisk) await saveCheckpoint();
      return view();
    },
    clear,
    async close() {
      cancelPruning();
      await ready;
      // The next start reads this state rather than replaying every record (history-checkpoint.ts); one
      // already on disk, with nothing recorded since and no segment after it, is that state.
      await checkpointing;
      if (recordedSinceCheckpoint || !checkpointOnDisk || (journal?.segmentBytes() ?? 0) > 0) await saveCheckpoint();
      await journal?.close();
    },
  };
}

/** The bytes the history takes on disk now: its journal's segments and its checkpoint (what the tests hold to the bound). */
export async function historyBytesOnDisk(dir: string): Promise<number> {
  return (await journalBytesOnDisk(dir)) + (await checkpointBytes(dir));
}

/** The journal's key, from the secret store; a new one when there is none (the files of an older key are then deleted when read). */
async function historyKey(secrets: SecretStore): Promise<Buffer> {
  const saved = await secrets.get(HISTORY_KEY_SECRET);
  if (saved.status === 'found') {
    const key = Buffer.from(saved.value, 'base64');
    if (key.length === AES_KEY_BYTES) return key;
  }
  const key = randomBytes(AES_KEY_BYTES);
  await secrets.set(HISTORY_KEY_SECRET, key.toString('base64'));
  return key;
}
