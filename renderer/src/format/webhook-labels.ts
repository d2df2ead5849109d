/** Words and numbers the webhooks view shows: pure functions, so they are tested without a DOM. */
import { oneLine } from '../../../common/one-line';
import type { SignatureScheme, SignatureVerdict, WebhookConnection, WebhookEntry, WebhookRouting, WebhookView } from '../../../common/ipc-contract';
import { base64Bytes, strictUtf8 } from '../../../common/base64';
import { type OutcomeKind, outcomeKind } from '../../../common/message-filter';
import { secondsSince, secondsUntil } from '../../../common/countdown';

/**
 * "lamp-1, 5, 007" → ["lamp-1", 5, "007"]: a value that reads as a plain decimal number (no leading
 * zero, no sign but "-", no exponent) is kept as a number, since JSON bodies carry ids as numbers too;
 * the forwarder compares 5 and "5" alike anyway. Empty items are dropped, duplicates kept once.
 */
export function parseKeyValues(text: string): (string | number)[] {
  const values: (string | number)[] = [];
  for (const item of text.split(',')) {
    const trimmed = item.trim();
    if (trimmed === '') continue;
    const value = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
    if (!values.includes(value)) values.push(value);
  }
  return values;
}

type Named = Pick<WebhookView, 'id' | 'label' | 'webhookName'>;

/** What a registration is called: the user's label, else the forwarder's name for the webhook, else its id. */
export function webhookTitle(view: Named): string {
  return view.label ?? view.webhookName ?? view.id;
}

/** What the title leaves out: the forwarder's name when a label hides it, and the id when there is a title. */
export function webhookSubtitle(view: Named): string | null {
  const title = webhookTitle(view);
  if (title === view.id) return null;
  const hiddenName = view.webhookName !== undefined && view.webhookName !== title ? `${view.webhookName} · ` : '';
  return `${hiddenName}${view.id}`;
}

/** A hub by its name; one no list has named yet (signed out since the app started) is not shown by its raw id. */
export function routingLabel(routing: WebhookRouting, hubName?: string): string {
  if (routing.kind === 'hub') return hubName === undefined ? 'A hub of your account (sign in to see which)' : `Hub ${hubName}`;
  return `Key ${routing.values.length === 1 ? 'value' : 'values'} ${routing.values.map(String).join(', ')}`;
}

export function connectionLabel(connection: WebhookConnection, now: number): string {
  switch (connection.state) {
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return 'Connected';
    case 'not-responding':
      return `Not responding: no answer from the forwarder for ${secondsSince(connection.since, now)} s; waiting for it on the open connection`;
    case 'reconnecting': {
      const seconds = secondsUntil(connection.nextRetryAt, now);
      const why = connection.reason === undefined ? '' : `: ${oneLine(connection.reason, 300)}`;
      return `Reconnecting (attempt ${connection.attempt}, next try in ${seconds} s)${why}`;
    }
    case 'refused':
      return `Refused: ${connection.reason}`;
    case 'unavailable':
      return `Not connected: ${connection.reason}`;
  }
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The intake's path and query as the sender asked for it: `/webhook/<id>?a=1` (the forwarder takes POSTs at that one path, docs/interface.md §4.7). */
export function requestPath(entry: Pick<WebhookEntry, 'webhookId' | 'query'>): string {
  const query = new URLSearchParams(entry.query).toString();
  return `/webhook/${entry.webhookId}${query === '' ? '' : `?${query}`}`;
}

/** The raw body as text when it is valid UTF-8, else as it came (base64). */
export function rawBodyText(rawBody: string): { kind: 'text' | 'base64'; text: string } {
  let text: string | undefined;
  try {
    text = strictUtf8(base64Bytes(rawBody));
  } catch {
    // not base64: shown as it came
  }
  return text === undefined ? { kind: 'base64', text: rawBody } : { kind: 'text', text };
}

const SIGNATURE_SCHEMES: Record<SignatureScheme, string> = { 'standard-webhooks': 'Standard Webhooks', github: 'GitHub', stripe: 'Stripe', slack: 'Slack' };

/** A signature verdict in words: a short label, and the sentence that explains it. */
export function signatureLabel(verdict: SignatureVerdict): { label: string; detail: string } {
  switch (verdict.status) {
    case 'unsigned':
      return { label: 'Unsigned', detail: 'No signature header of a scheme Hubdesk checks (Standard Webhooks, GitHub, Stripe, Slack).' };
    case 'no-secret':
      return {
        label: `Signed (${SIGNATURE_SCHEMES[verdict.scheme]}), not checked`,
        detail: 'Set its signing secret (Edit, under Your webhooks) to check the signature.',
      };
    case 'valid':
      return { label: `Valid signature (${SIGNATURE_SCHEMES[verdict.scheme]})`, detail: 'The signature matches the raw body and the signing secret.' };
    case 'invalid':
      return { label: `Invalid signature (${SIGNATURE_SCHEMES[verdict.scheme]})`, detail: verdict.detail };
  }
}

export const OUTCOME_LABELS: Readonly<Record<OutcomeKind, string>> = {
  rejected: 'Rejected',
  'this-app': 'This app',
  'on-its-way': 'On its way',
  dropped: 'Dropped',
  'other-hubs': 'Other hubs',
  'no-match': 'No match',
  'not-seen': 'Not seen',
};

/**
 * What became of an intake, as a chip (docs/webhooks-app.md, "Outcomes and refusals"): refused by the forwarder (with its status),
 * delivered to this app, routed here and on its way, routed here and dropped by the forwarder (its buffer for this app was full), delivered to other hubs only, matched nothing,
 * or not seen (no routing decision: the tap was not open).
 */
export function outcomeOf(entry: Pick<WebhookEntry, 'routing' | 'delivered' | 'awaitingDelivery' | 'droppedByForwarder' | 'rejected'>): {
  kind: OutcomeKind;
  label: string;
} {
  const kind = outcomeKind(entry);
  return { kind, label: kind === 'rejected' && entry.rejected ? `${entry.rejected.status} rejected` : OUTCOME_LABELS[kind] };
}

/** JSON text indented by two spaces, or undefined when the text is not JSON. */
export function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

export const HEX_DUMP_MAX_BYTES = 64 * 1024;

/** `offset  16 bytes in hex  |printable ASCII|` lines, as `hexdump -C` prints them; at most HEX_DUMP_MAX_BYTES. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  const shown = bytes.subarray(0, HEX_DUMP_MAX_BYTES);
  for (let offset = 0; offset < shown.length; offset += 16) {
    const row = shown.subarray(offset, offset + 16);
    const hex = [...row].map((byte) => byte.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const ascii = [...row].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
  }
  if (bytes.length > shown.length) lines.push(`… ${bytes.length - shown.length} more bytes`);
  return lines.join('\n');
}

const EXCERPT_CHARS = 120;

/**
 * Where a refused JSON body stops parsing, as ngrok shows it: its line (cut to EXCERPT_CHARS around
 * the column, "…" where cut) and a caret under the column.
 */
export function jsonErrorExcerpt(text: string, at: { line: number; column: number }): string {
  const line = text.split('\n')[at.line - 1] ?? '';
  const start = Math.max(0, Math.min(at.column - 1 - EXCERPT_CHARS / 2, line.length - EXCERPT_CHARS));
  // Control characters (a tab) become one space each, so the caret stays under its column.
  const shown = Array.from(line.slice(start, start + EXCERPT_CHARS), (c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('');
  const lead = start > 0 ? '…' : '';
  const tail = start + EXCERPT_CHARS < line.length ? '…' : '';
  return `${lead}${shown}${tail}\n${' '.repeat(lead.length + at.column - 1 - start)}^`;
}

/** What a refused message's raw body holds: its first bytes only when the forwarder kept no more. */
export function refusedBodyNote(rejected: { bodyTruncated?: boolean }, keptBytes: number, size: number): string {
  if (rejected.bodyTruncated) return `The forwarder refused it and kept its first ${formatSize(keptBytes)} of ${formatSize(size)} (truncated).`;
  return `The forwarder refused it; its body (${formatSize(size)}) is below as it arrived.`;
}
