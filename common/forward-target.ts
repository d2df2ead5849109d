/**
 * Forward to (docs/webhooks-app.md, "Forward to"): the local server each delivered message is sent on
 * to, and what became of each forwarding. The URL rule is the configured forwarder's: https anywhere,
 * plain http only on loopback (a forwarded message carries its headers, signatures included, and
 * must not cross a network in the clear); no credentials or fragment. Shared by the contract (the
 * window's input), main's forwarding and the `listen` command's arguments.
 */
import { z } from 'zod';

/** The same bound as a replay's URL (ReplayRequestSchema). */
export const FORWARD_TO_MAX_LENGTH = 2048;

export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost';
}

/** Why `text` cannot be a Forward-to URL, or undefined when it can. */
export function forwardTargetProblem(text: string): string | undefined {
  if (text.length > FORWARD_TO_MAX_LENGTH) return `The URL is at most ${FORWARD_TO_MAX_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter a full URL, such as http://127.0.0.1:3000/hook.';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return 'Forward to https://…, or to http:// on this computer only (127.0.0.1, [::1] or localhost).';
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') return 'The URL may not hold a user name, a password or a #fragment.';
  return undefined;
}

export const ForwardToSchema = z.string().superRefine((text, context) => {
  const problem = forwardTargetProblem(text);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

/**
 * One message's forwarding. `queued`: waiting its turn; `sending`: attempt N under way; `retrying`: the
 * last attempt failed (`last`: the status code or the reason), the next at `nextAt` (ms since the
 * epoch); `answered`: the local server answered with a status that is not retried (`at`, when);
 * `failed`: no more attempts (`reason` a sentence; `statusCode` when the last attempt was answered);
 * `dropped`: pushed out of the full queue before it was sent.
 */
export const ForwardStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('queued') }),
  z.object({ state: z.literal('sending'), attempt: z.number().int().positive() }),
  z.object({ state: z.literal('retrying'), attempt: z.number().int().positive(), nextAt: z.number(), last: z.string().max(500) }),
  z.object({
    state: z.literal('answered'),
    statusCode: z.number().int(),
    durationMs: z.number().nonnegative(),
    attempts: z.number().int().positive(),
    at: z.number(),
  }),
  z.object({
    state: z.literal('failed'),
    reason: z.string().max(500),
    statusCode: z.number().int().optional(),
    attempts: z.number().int().nonnegative(),
    at: z.number(),
  }),
  z.object({ state: z.literal('dropped') }),
]);
export type ForwardState = z.infer<typeof ForwardStateSchema>;

/** A registration's forwarding queue: messages waiting or retrying, and how many a full queue has dropped. */
export const ForwardQueueSchema = z.object({ queued: z.number().int().nonnegative(), dropped: z.number().int().nonnegative() });
export type ForwardQueue = z.infer<typeof ForwardQueueSchema>;

/** The `webhooks.forward` event: one message's forwarding changed. */
export const ForwardReportSchema = z.object({ webhookId: z.string(), id: z.string(), forward: ForwardStateSchema, queue: ForwardQueueSchema });
export type ForwardReport = z.infer<typeof ForwardReportSchema>;
