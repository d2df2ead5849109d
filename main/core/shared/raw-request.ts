/**
 * One request sent exactly as given, for replays and Forward to (docs/webhooks-app.md, "Replay" and
 * "Forward to"; docs/security.md, "The inspector's signing secrets and replays"): undici's `request`,
 * which adds only what HTTP needs (`host`, `content-length`, `connection`), never a user-agent or
 * accept header of its own as `fetch` would. Redirects are not followed (a 3xx is an answer like any
 * other); the answer's body is read up to `maxAnswerBytes` and the rest dropped; there is a deadline.
 * Failures are sentences, never exceptions.
 */
import { performance } from 'node:perf_hooks';
import { type Dispatcher, request } from 'undici';
import { describeFailure } from './http';

export interface RawRequest {
  url: string;
  method: string;
  /** In order, as sent; the caller leaves out what must not be sent (replayedHeaders). */
  headers: readonly (readonly [string, string])[];
  body: Buffer;
  timeoutMs: number;
  maxAnswerBytes: number;
}

export type RawAnswer =
  | { status: 'answered'; statusCode: number; headers: [string, string][]; body: Buffer; truncated: boolean; durationMs: number }
  | { status: 'failed'; reason: string; durationMs: number };

export async function sendRawRequest(raw: RawRequest): Promise<RawAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const signal = AbortSignal.timeout(raw.timeoutMs);
  try {
    const response = await request(raw.url, {
      method: raw.method as Dispatcher.HttpMethod,
      headers: raw.headers.flat(),
      body: raw.body.length > 0 || raw.method !== 'GET' ? raw.body : undefined,
      signal,
      maxRedirections: 0,
    });
    const { bytes, truncated } = await readBounded(response.body, raw.maxAnswerBytes);
    return { status: 'answered', statusCode: response.statusCode, headers: headerPairs(response.headers), body: bytes, truncated, durationMs: elapsed() };
  } catch (error) {
    const reason = signal.aborted
      ? `No answer from ${raw.url} within ${raw.timeoutMs / 1000} s.`
      : `Couldn't send it to ${raw.url}: ${describeFailure(error)}.`;
    return { status: 'failed', reason, durationMs: elapsed() };
  }
}

function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  return Object.entries(headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((one) => [name, one] as [string, string]) : value === undefined ? [] : [[name, value] as [string, string]],
  );
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const room = max - length;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    length += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}
