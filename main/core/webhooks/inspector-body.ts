/**
 * A webhook message's body as the inspector keeps it (webhook-inspector.ts): its text when its bytes are
 * UTF-8, else its bytes; what that costs the inspector's budget, its preview, and its parsed value,
 * decoded as the forwarder decodes it.
 */
import { INSPECTOR_PREVIEW_BYTES, type WebhookEntry } from '../../../common/ipc-contract';
import { bodyEncoding, firstValues } from '../../../common/webhook-protocol';

/**
 * A kept body: its text when its bytes are UTF-8 (searched as it is, and one byte a character in V8
 * when it is ASCII), else its bytes. Either gives back exactly the bytes received.
 */
export type KeptBody = { text: string; bytes: number; escaped: boolean; unplainNumber?: boolean } | { raw: Buffer; bytes: number };

/** The bytes of a base64 body, kept as text when they are UTF-8 (a BOM included: it is a character of the text). */
export function keptBody(rawBody: string): KeptBody {
  const raw = Buffer.from(rawBody, 'base64');
  try {
    const text = exactUtf8.decode(raw);
    return { text, bytes: raw.length, escaped: text.includes('\\') };
  } catch {
    return { raw, bytes: raw.length };
  }
}

/** What a kept body is accounted: V8 keeps an ASCII string one byte a character, any other text two. */
export function bodyCost(body: KeptBody): number {
  if ('raw' in body) return body.bytes + BUFFER_OVERHEAD_BYTES;
  return body.text.length === body.bytes ? body.bytes : body.text.length * 2;
}

export function base64Of(body: KeptBody): string {
  return ('text' in body ? Buffer.from(body.text, 'utf8') : body.raw).toString('base64');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
export const lenientUtf8 = new TextDecoder('utf-8');
/** Keeps a leading BOM as a character, so the text encodes back to exactly the bytes received. */
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What a Buffer costs besides its bytes. */
const BUFFER_OVERHEAD_BYTES = 96;

/**
 * The parsed body (docs/interface.md §2.7 `body`) of a raw body, decoded as the forwarder decodes it (bodyEncoding):
 * JSON, form fields (name → first value) or text; `null` when empty. JSON that does not parse (never
 * from the reference forwarder, which refuses it with 400) is shown as text.
 */
export function decodeRawBody(rawBody: string, contentType: string | undefined): unknown {
  return decodeBody(keptBody(rawBody), contentType);
}

export function decodeBody(kept: KeptBody, contentType: string | undefined): unknown {
  if (kept.bytes === 0) return null;
  const encoding = bodyEncoding(contentType);
  const text = 'text' in kept ? withoutBom(kept.text) : undefined;
  if (encoding === 'json' && text !== undefined) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // not JSON after all: the text below
    }
  }
  const shown = text ?? lenientUtf8.decode((kept as { raw: Buffer }).raw);
  return encoding === 'form' ? firstValues(new URLSearchParams(shown)) : shown;
}

/** A decoder drops a leading BOM; the kept text has it, so it is dropped here where the text is read. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * The first INSPECTOR_PREVIEW_BYTES of the body: UTF-8 text when those bytes decode (a character cut at
 * the end is dropped), else base64 of the first bytes (at most INSPECTOR_PREVIEW_BYTES characters).
 */
export function preview(body: KeptBody): Pick<WebhookEntry, 'preview' | 'previewKind'> {
  const whole = body.bytes <= INSPECTOR_PREVIEW_BYTES;
  // ASCII: a copy of the first characters (a slice would be a view that keeps the whole body alive once the body is dropped).
  if ('text' in body && body.text.length === body.bytes)
    return { preview: Buffer.from(body.text.slice(0, INSPECTOR_PREVIEW_BYTES), 'latin1').toString('latin1'), previewKind: 'text' };
  // Encode only a prefix of the text: the whole body is never copied.
  const head = ('text' in body ? Buffer.from(body.text.slice(0, INSPECTOR_PREVIEW_BYTES), 'utf8') : body.raw).subarray(0, INSPECTOR_PREVIEW_BYTES);
  for (let drop = 0; drop <= (whole ? 0 : 3) && drop < head.length + 1; drop++) {
    try {
      return { preview: strictUtf8.decode(head.subarray(0, head.length - drop)), previewKind: 'text' };
    } catch {
      // a character cut at the end: try one byte shorter
    }
  }
  const bytes = head.subarray(0, Math.floor((INSPECTOR_PREVIEW_BYTES * 3) / 4));
  return { preview: bytes.toString('base64'), previewKind: 'base64' };
}
