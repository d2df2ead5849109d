/**
 * Text from a peer (a socket frame, a stored record, a response body) as JSON, then with its schema:
 * the one place that turns JSON.parse's exception into "not a message". Anything else is undefined.
 */
import type { z } from 'zod';

/** The JSON value of `text`, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `text` as JSON that `schema` accepts, or undefined. */
export function parseJsonMessage<T>(schema: z.ZodType<T>, text: string): T | undefined {
  const parsed = schema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}
