/**
 * Reading and decoding an intake body. The bytes are read by us, not by fastify, so that the size
 * limit holds for chunked bodies too: reading stops at the first byte over the limit (nothing more is
 * buffered) and the connection is closed after the 413. The raw bytes are kept so a receiver can still
 * verify a signature over them.
 *
 * Decoding by Content-Type: `application/json` and `*+json` (any charset parameter; JSON is UTF-8,
 * RFC 8259 §8.1) are parsed with depth and prototype checks; `application/x-www-form-urlencoded` becomes
 * an object of strings (first value of a repeated name); anything else is kept as UTF-8 text. An empty
 * body is `null`.
 */
import type { Readable } from 'node:stream';
import { HttpError } from '../shared/http-error';
import { parseJsonSafely } from './safe-json';

export interface IntakeBody {
  raw: Buffer;
  body: unknown;
}

/** Error answers that must also end the connection: the rest of the request is not read. */
const CLOSE = { connection: 'close' };

export function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`, CLOSE);
}

/** Resolves with the whole body, or rejects with a 413 HttpError as soon as it exceeds `limit`. */
export function readBody(stream: Readable, declaredLength: string | undefined, limit: number): Promise<Buffer> {
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    stream.pause();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | undefined) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) {
        stream.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(tooLarge(limit));
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = (error: Error) => finish(error);
    // A client that goes away (or is timed out by the server) mid-body.
    const onClose = () => finish(new HttpError(400, 'invalid_request', 'The request body was not completed.', CLOSE));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8');

export function decodeBody(raw: Buffer, contentType: string | undefined, maxDepth: number): unknown {
  if (raw.length === 0) return null;
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      throw new HttpError(400, 'invalid_request', 'The JSON body is not valid UTF-8.');
    }
    const parsed = parseJsonSafely(text, maxDepth);
    if (!parsed.ok) throw new HttpError(400, 'invalid_request', parsed.problem);
    return parsed.value;
  }
  if (mediaType === 'application/x-www-form-urlencoded') return firstValues(new URLSearchParams(lenientUtf8.decode(raw)));
  return lenientUtf8.decode(raw);
}

/** Name → first value. Object.fromEntries defines own properties, so a `__proto__` name stays plain data. */
export function firstValues(params: URLSearchParams): Record<string, string> {
  const seen = new Map<string, string>();
  for (const [name, value] of params) if (!seen.has(name)) seen.set(name, value);
  return Object.fromEntries(seen);
}
