/**
 * Decoding an intake body. The intake handler reads the bytes (raw-body: its limit holds for chunked
 * bodies too, reading stops at the first chunk over the limit and the answer is 413); the raw bytes are
 * kept so a receiver can still verify a signature over them.
 *
 * Decoding by Content-Type (`bodyEncoding`, shared with listeners that decode `rawBody` themselves):
 * `application/json` and `*+json` (any charset parameter; JSON is UTF-8, RFC 8259 §8.1) are parsed with
 * depth and prototype checks; `application/x-www-form-urlencoded` becomes an object of strings (first
 * value of a repeated name); anything else is kept as UTF-8 text. An empty body is `null`.
 */
import { bodyEncoding, firstValues } from '../../common/webhook-protocol';
import { HttpError } from '../shared/http-error';
import { type JsonErrorPosition, parseJsonSafely } from './safe-json';

/** A 400 for a JSON body that does not parse, with where it stops (the owner's tap shows it). */
export class InvalidJsonBody extends HttpError {
  constructor(
    description: string,
    readonly at: JsonErrorPosition | undefined,
  ) {
    super(400, 'invalid_request', description);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8');

/** A decoded body, and its JSON text (message-frame.ts): for a JSON body the request's own text. */
export interface DecodedBody {
  value: unknown;
  json: string;
}

const EMPTY: DecodedBody = { value: null, json: 'null' };

export function decodeBody(raw: Buffer, contentType: string | undefined, maxDepth: number): DecodedBody {
  if (raw.length === 0) return EMPTY;
  const encoding = bodyEncoding(contentType);
  if (encoding === 'json') {
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      throw new HttpError(400, 'invalid_request', 'The JSON body is not valid UTF-8.');
    }
    const parsed = parseJsonSafely(text, maxDepth);
    if (!parsed.ok) throw new InvalidJsonBody(parsed.problem, parsed.at);
    return { value: parsed.value, json: text };
  }
  const value = encoding === 'form' ? firstValues(new URLSearchParams(lenientUtf8.decode(raw))) : lenientUtf8.decode(raw);
  return { value, json: JSON.stringify(value) };
}
