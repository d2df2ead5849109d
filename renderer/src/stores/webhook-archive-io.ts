/**
 * Export and import of the inspector's messages from the window (docs/webhooks-app.md, "Export and import"). The window holds
 * summaries only, so an export fetches each message in full from main (`inspector.message`) and
 * builds the file (common/webhook-archive.ts) in the window, which saves it as a download in both
 * hosts; an import reads the file here, checks it, and hands the messages to main in batches that fit
 * a bridge frame (`inspector.import`), which sends each new one back as an entry.
 */
import {
  IMPORT_BATCH_MAX_BYTES,
  IMPORT_BATCH_MAX_MESSAGES,
  type ArchivedMessage,
  type Bridge,
  type SignatureVerdict,
  type WebhookEntry,
  type WebhookFullMessage,
  type WebhookView,
} from '../../../common/ipc-contract';
import { type ArchiveFormat, type ArchiveReadResult, messageBytes, readArchive, type ReadPacing } from '../../../common/archive-reader';
import { isArchivable, toHar, toNdjson } from '../../../common/webhook-archive';
import { base64ByteLength } from '../../../common/base64';
import { intakeUrl } from '../../../common/webhook-protocol';
import { intakeOrder } from '../../../common/intake-order';
import { version } from '../../../package.json';
import { settle, type UiError } from './settle';
import { fileStamp } from '../format/file-stamp';

export type { ArchiveFormat };

export interface ExportResult {
  fileName: string;
  mimeType: string;
  text: string;
  exported: number;
  /** Messages whose body main no longer keeps: left out. */
  gone: number;
}

/** Where an exported message says it was sent when its webhook is not registered here. */
const UNKNOWN_FORWARDER = 'http://forwarder.invalid';

/** Exports `entries` (any order; the file is oldest first). */
export async function exportMessages(
  bridge: Pick<Bridge, 'inspector'>,
  entries: readonly WebhookEntry[],
  views: readonly WebhookView[],
  format: ArchiveFormat,
  now = new Date(),
): Promise<{ ok: true; value: ExportResult } | { ok: false; error: UiError }> {
  const messages: ArchivedMessage[] = [];
  let gone = 0;
  // In intake order: the forwarder's sequence where both ids have one, else the time (ties by id), so every export has the same order.
  const oldestFirst = [...entries].sort((a, b) => intakeOrder(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const entry of oldestFirst) {
    const result = await settle(() => bridge.inspector.message(entry.webhookId, entry.id));
    if (!result.ok) return result;
    if (result.value.status !== 'kept' || result.value.message.rawTruncated) {
      gone++;
      continue;
    }
    const archived = archivedOf(result.value.message, result.value.signature);
    if (isArchivable(archived)) messages.push(archived);
    else gone++;
  }
  const urlOf = (webhookId: string) => views.find((view) => view.id === webhookId)?.intakeUrl ?? intakeUrl(UNKNOWN_FORWARDER, webhookId);
  const text = format === 'har' ? toHar(messages, { name: 'Hubdesk', version }, urlOf) : toNdjson(messages);
  return {
    ok: true,
    value: {
      fileName: `hubdesk-webhooks-${fileStamp(now)}.${format === 'har' ? 'har' : 'ndjson'}`,
      mimeType: format === 'har' ? 'application/json' : 'application/x-ndjson',
      text,
      exported: messages.length,
      gone,
    },
  };
}

/**
 * What a file keeps of a message: what it was (the forwarder's refusal, the whole size of a body cut to
 * its first bytes, the signature check: an imported message's as its file said, so it exports as it was
 * read) as well as what it held.
 */
function archivedOf(message: WebhookFullMessage, signature: SignatureVerdict): ArchivedMessage {
  const { webhookId, id, receivedAt, headers, query, rawBody, routing, delivered, rejected, size } = message;
  return {
    webhookId,
    id,
    receivedAt,
    method: message.method ?? 'POST',
    headers,
    query,
    rawBody,
    routing,
    delivered,
    ...(rejected && { rejected }),
    ...(size !== base64ByteLength(rawBody) && { size }),
    signature: message.archivedSignature ?? signature,
  };
}

export type ImportResult = Pick<ArchiveReadResult, 'format' | 'skippedCount' | 'skipped' | 'stopped'> & { added: number; duplicates: number };

/** Reads a file (`open` gives its bytes, as often as asked) and adds its messages to the inspector. */
export async function importMessages(
  bridge: Pick<Bridge, 'inspector'>,
  open: () => AsyncIterable<Uint8Array>,
  pacing: ReadPacing,
): Promise<{ ok: true; value: ImportResult } | { ok: false; error: UiError }> {
  const read = await readArchive(open, pacing);
  let added = 0;
  let duplicates = 0;
  for (const batch of batches(read.messages)) {
    const result = await settle(() => bridge.inspector.import(batch));
    if (!result.ok) return result;
    added += result.value.added;
    duplicates += result.value.duplicates;
  }
  return { ok: true, value: { format: read.format, skippedCount: read.skippedCount, skipped: read.skipped, stopped: read.stopped, added, duplicates } };
}

function* batches(messages: readonly ArchivedMessage[]): Generator<ArchivedMessage[]> {
  let batch: ArchivedMessage[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = messageBytes(message);
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH_MAX_MESSAGES || bytes + size > IMPORT_BATCH_MAX_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(message);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}
