/**
 * The `message` frame a listener receives (docs/interface.md §2.7), written around the request's own text.
 *
 * A large body is most of what an accepted request costs the event loop every other request shares
 * (docs/benchmarks.md, "Many senders"): serialised as the parsed value it is scanned and escaped again for
 * each frame and for the legacy sandbox. Its JSON text is already at hand — the request's own text, which
 * parsed — and the raw body's base64 needs no escaping, so both are copied into the frame as they are. A
 * listener parses the same message either way (whitespace aside, the text is the value's JSON). `rawBody` is
 * the intake's `toString('base64')`, whose alphabet JSON never escapes.
 */
import type { WebhookMessage } from '../../common/webhook-protocol';

/** An accepted intake before its id is taken: the message, and its body as JSON text. */
export interface Received {
  message: Omit<WebhookMessage, 'id'>;
  /** JSON text of `message.body`: the request's own text when it was parsed as JSON, else the value's JSON.stringify. */
  bodyJson: string;
}

/** Everything of a frame before its id's JSON, and everything after it. */
export type FrameAround = readonly [before: string, after: string];

/** Every message frame's start, up to its id's JSON (the Redis scripts read a dropped frame's id after it). */
export const FRAME_BEFORE_ID = '{"type":"message","message":{"id":';

/**
 * The frame of `received` split where the id's JSON goes; `withBody` false for a `rawBodyOnly` listener
 * (the frame without `body`). The id is taken later (after routing, so that ids reach listeners in order).
 */
export function frameAround({ message, bodyJson }: Received, withBody: boolean): FrameAround {
  const { receivedAt, headers, query, rawBody } = message;
  // JSON.stringify of a plain object always ends in `}`: the fields that follow are appended before it.
  const small = JSON.stringify({ receivedAt, headers, query });
  const body = withBody ? `,"body":${bodyJson}` : '';
  return [FRAME_BEFORE_ID, `,${small.slice(1, -1)}${body},"rawBody":"${rawBody}"}}`];
}

/** The whole frame, for `id`. */
export function frameOf(around: FrameAround, id: string): string {
  return `${around[0]}${JSON.stringify(id)}${around[1]}`;
}

/** JSON text of `{headers, query, body}`, the webhook data a legacy function is given, around the body's text. */
export function webhookDataJson(headers: Record<string, string>, query: Record<string, string>, bodyJson: string): string {
  return `${JSON.stringify({ headers, query }).slice(0, -1)},"body":${bodyJson}}`;
}
