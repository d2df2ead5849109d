/**
 * Export and import of the inspector's messages from the window (issue 14 §3). The window holds
 * summaries only, so an export fetches each message in full from main (`inspector.message`) and
 * builds the file (common/webhook-archive.ts) in the window, which saves it as a download in both
 * hosts; an import reads the file here, checks it, and hands the messages to main in batches that fit
 * a bridge frame (`inspector.import`), which sends each new one back as an entry.
 */
import { IMPORT_BATCH_MAX_MESSAGES, type ArchivedMessage, type Bridge, type WebhookEntry, type WebhookView } from '../../../common/ipc-contract';
import { type ArchiveReadResult, readArchive, toHar, toNdjson } from '../../../common/webhook-archive';
import { intakeUrl } from '../../../common/webhook-protocol';
import { version } from '../../../package.json';
import { settle, type UiError } from './settle';
import { fileStamp } from '../format/file-stamp';

export type ArchiveFormat = 'har' | 'ndjson';

export interface ExportResult {
  fileName: string;
  mimeType: string;
  text: string;
  exported: number;
  /** Messages whose body main no longer keeps: left out. */
  gone: number;
}

/** Keeps a batch's JSON well under the bridge's 1 MiB frame. */
const IMPORT_BATCH_MAX_CHARS = 768 * 1024;
/** Where an exported message says it was sent when its webhook is not registered here. */
const UNKNOWN_FORWARDER = 'http://forwarder.invalid';

/** Exports `entries` (any order; the file is oldest first). */
export async function exportMessages(bridge: Pick<Bridge, 'inspector'>, entries: readonly WebhookEntry[], views: readonly WebhookView[], format: ArchiveFormat, now = new Date()): Promise<{ ok: true; value: ExportResult } | { ok: false; error: UiError }> {
  const messages: ArchivedMessage[] = [];
  let gone = 0;
  const oldestFirst = [...entries].sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  for (const entry of oldestFirst) {
    const result = await settle(() => bridge.inspector.message(entry.webhookId, entry.id));
    if (!result.ok) return result;
    if (result.value.status !== 'kept' || result.value.message.rawTruncated) {
      gone++;
      continue;
    }
    const { message } = result.value;
    messages.push({ webhookId: message.webhookId, id: message.id, receivedAt: message.receivedAt, method: message.method ?? 'POST', headers: message.headers, query: message.query, rawBody: message.rawBody, routing: message.routing, delivered: message.delivered });
  }
  const urlOf = (webhookId: string) => views.find((view) => view.id === webhookId)?.intakeUrl ?? intakeUrl(UNKNOWN_FORWARDER, webhookId);
    const text = format === 'har' ? toHar(messages, { name: 'Hubdesk', version }, urlOf) : toNdjson(messages);
  return {
    ok: true,
    value: { fileName: `hubdesk-webhooks-${fileStamp(now)}.${format === 'har' ? 'har' : 'ndjson'}`, mimeType: format === 'har' ? 'application/json' : 'application/x-ndjson', text, exported: messages.length, gone },
  };
}

export type ImportResult = Pick<ArchiveReadResult, 'format' | 'skippedCount' | 'skipped'> & { added: number; duplicates: number };

/** Reads a file's text and adds its messages to the inspector. */
export async function importMessages(bridge: Pick<Bridge, 'inspector'>, text: string): Promise<{ ok: true; value: ImportResult } | { ok: false; error: UiError }> {
  const read = readArchive(text);
  let added = 0;
  let duplicates = 0;
  for (const batch of batches(read.messages)) {
    const result = await settle(() => bridge.inspector.import(batch));
    if (!result.ok) return result;
    added += result.value.added;
    duplicates += result.value.duplicates;
  }
  return { ok: true, value: { format: read.format, skippedCount: read.skippedCount, skipped: read.skipped, added, duplicates } };
}

function* batches(messages: readonly ArchivedMessage[]): Generator<ArchivedMessage[]> {
  let batch: ArchivedMessage[] = [];
  let chars = 0;
  for (const message of messages) {
    const size = JSON.stringify(message).length;
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH_MAX_MESSAGES || chars + size > IMPORT_BATCH_MAX_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(message);
    chars += size;
  }
  if (batch.length > 0) yield batch;
}
