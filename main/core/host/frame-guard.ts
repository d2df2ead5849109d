/**
 * Every frame main sends to the renderer (an invoke's answer or an event), on either host, passes
 * through here: it is serialised inside a try (JSON.stringify throws `RangeError: Invalid string
 * length` past V8's string limit, and TypeError on cycles or BigInt) and checked against a byte
 * bound. A failure never escapes as an exception or an unhandled rejection: an answer becomes an
 * `internal` error envelope, an event is dropped, and both are logged.
 */
import type { Envelope } from '../../../common/app-error';
import type { Logger } from '../shared';

/**
 * Largest frame from main to the renderer. The inspector's answers are designed to stay far below it
 * (a snapshot page ≤ 512 Ki characters, a full message ≤ 900 Ki characters, an entry event a few KiB);
 * the bound is for everything else, e.g. a device list of a very large home.
 */
export const MAX_OUTGOING_FRAME_BYTES = 8 * 1024 * 1024;

export const UNSENDABLE_ANSWER: Envelope<never> = {
  ok: false,
  error: {
    code: 'internal',
    message: 'Hubdesk could not send this answer to the window (it was too large or could not be serialised). Details are in the log.',
  },
};

export type Serialised = { ok: true; text: string } | { ok: false; reason: string };

/** JSON text of `value` within `maxBytes` UTF-8 bytes, or why not. Never throws. */
export function serialiseBounded(value: unknown, maxBytes = MAX_OUTGOING_FRAME_BYTES): Serialised {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { ok: false, reason: `not serialisable: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
  }
  if (text === undefined) return { ok: false, reason: 'not serialisable: no JSON value' };
  // A UTF-16 unit is at least one UTF-8 byte: the cheap length check first, the exact count only when needed.
  const bytes = text.length > maxBytes ? text.length : Buffer.byteLength(text);
  if (bytes > maxBytes) return { ok: false, reason: `${text.length > maxBytes ? 'over' : ''} ${bytes} bytes, over the ${maxBytes}-byte frame bound`.trim() };
  return { ok: true, text };
}

/** The envelope itself when it can be sent, else UNSENDABLE_ANSWER (logged). For transports that serialise it themselves (Electron IPC). */
export function sendableEnvelope(envelope: Envelope<unknown>, channel: string, logger: Logger, maxBytes = MAX_OUTGOING_FRAME_BYTES): Envelope<unknown> {
  const frame = serialiseBounded(envelope, maxBytes);
  if (frame.ok) return envelope;
  logger.error('ipc: an answer could not be sent', { channel, reason: frame.reason });
  return UNSENDABLE_ANSWER;
}
