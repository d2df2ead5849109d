/**
 * What a refused intake keeps of its body for the owner's tap (docs/services.md, "Refused intakes keep
 * their first bytes"): its first REFUSED_BODY_KEPT_BYTES, and how many bytes it had. A body read whole
 * and then refused (400 not valid JSON) gives its own first bytes; a body refused while it arrives (413,
 * or refused before it was read) is captured as the request streams, alongside the body reader and the
 * lingering close that drops the rest (services/shared/lingering-close.ts). A capture never holds more
 * than REFUSED_BODY_KEPT_BYTES, and it ends when it is full, when the request ends, or when its
 * connection closes (at most LINGER_MS after the answer).
 */
import type { IncomingMessage } from 'node:http';
import { REFUSED_BODY_KEPT_BYTES } from '../../common/webhook-protocol';

export interface KeptBody {
  /** The first bytes of the body (at most REFUSED_BODY_KEPT_BYTES). */
  bytes: Buffer;
  /** The body's whole size as far as known: its Content-Length, or what arrived when more did. */
  size: number;
}

export interface BodyCapture {
  /** Calls `done` once with what was kept, as soon as no more will be. */
  whenSettled(done: (kept: KeptBody) => void): void;
}

/** The first bytes of a body already read whole. */
export function keptOf(raw: Buffer): KeptBody {
  return { bytes: raw.subarray(0, REFUSED_BODY_KEPT_BYTES), size: raw.length };
}

/** Starts keeping the first bytes of the request's body as it arrives. */
export function captureBody(request: IncomingMessage, limit = REFUSED_BODY_KEPT_BYTES): BodyCapture {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  const socket = request.socket;
  let settled = request.complete || request.readableEnded || request.destroyed;
  const waiting: ((kept: KeptBody) => void)[] = [];
  const result = (): KeptBody => ({ bytes: Buffer.concat(chunks, kept), size: Math.max(seen, declaredLength(request)) });
  const settle = () => {
    settled = true;
    request.off('data', onData);
    request.off('end', settle);
    request.off('close', settle);
    socket.off('close', settle);
    if (waiting.length === 0) return;
    const body = result();
    for (const done of waiting.splice(0)) done(body);
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (kept < limit) {
      const part = chunk.subarray(0, limit - kept);
      chunks.push(part);
      kept += part.length;
    }
    // Full while someone waits: the rest is not needed.
    if (kept >= limit && waiting.length > 0) settle();
  };
  if (!settled) {
    request.on('data', onData);
    request.once('end', settle);
    request.once('close', settle);
    socket.once('close', settle);
  }
  return {
    whenSettled(done) {
      if (settled) return done(result());
      waiting.push(done);
      if (kept >= limit) settle();
    },
  };
}

function declaredLength(request: IncomingMessage): number {
  const declared = Number(request.headers['content-length']);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : 0;
}
