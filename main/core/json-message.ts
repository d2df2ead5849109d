/** Parses one text frame from a peer as JSON and then with its protocol's schema; anything else is undefined. */
import type { z } from 'zod';

export function parseJsonMessage<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
