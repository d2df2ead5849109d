/**
 * Replay (issue 14 §3): a kept message sent again from main, to the webhook's intake on the forwarder
 * or to a URL the user gives (a local development server), exactly as received — method, headers
 * without the hop-by-hop ones (curl-command.ts decides which, so a replay and "Copy as curl" send the
 * same), and the raw bytes — or with the user's edits of the headers and the body.
 *
 * Sent with undici's `request`, which adds only what HTTP needs (`host`, `content-length`,
 * `connection`), never a user-agent or accept header of its own as `fetch` would. Redirects are not
 * followed; the answer's body is read up to REPLAY_RESPONSE_MAX_BYTES and the rest dropped; there is a
 * deadline. Failures are sentences, never exceptions.
 */
import { performance } from 'node:perf_hooks';
import { type Dispatcher, request } from 'undici';
import { REPLAY_RESPONSE_MAX_BYTES, REPLAY_TIMEOUT_MS, type ReplayRequest, type ReplayResult } from '../../common/ipc-contract';
import { strictUtf8 } from '../../common/base64';
import { replayedHeaders } from '../../common/curl-command';
import { intakeUrl } from '../../common/webhook-protocol';
import { describeFailure } from './http';
import type { ReceivedMessage } from './webhook-inspector';

export const REPLAY_GONE = 'Hubdesk no longer keeps this message’s body, so it cannot be sent again.';
export const REPLAY_NO_FORWARDER = 'No webhook forwarder is configured, so there is no intake to send it to; give a URL instead.';

export interface ReplayDeps {
  webhookUrl: string | null;
  source: (webhookId: string, id: string) => ReceivedMessage | undefined;
  timeoutMs?: number;
}

export function createReplayer(deps: ReplayDeps): (replay: ReplayRequest) => Promise<ReplayResult> {
  const timeoutMs = deps.timeoutMs ?? REPLAY_TIMEOUT_MS;
  return async (replay) => {
    const source = deps.source(replay.webhookId, replay.id);
    if (!source) return { status: 'failed', url: null, reason: REPLAY_GONE };
    const url = targetUrl(replay, source, deps.webhookUrl);
    if (url === undefined) return { status: 'failed', url: null, reason: REPLAY_NO_FORWARDER };

    const headers = replayedHeaders(replay.headers ?? Object.entries(source.headers));
    const body = Buffer.from(replay.body ?? source.rawBody, 'base64');
    const method = source.method ?? 'POST';
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, { method: method as Dispatcher.HttpMethod, headers: headers.flat(), body: body.length > 0 || method !== 'GET' ? body : undefined, signal, maxRedirections: 0 });
      const { bytes, truncated } = await readBounded(response.body, REPLAY_RESPONSE_MAX_BYTES);
      const text = strictUtf8(bytes);
      return {
        status: 'answered',
        url,
        statusCode: response.statusCode,
        headers: Object.entries(response.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((one) => [name, one] as [string, string]) : value === undefined ? [] : [[name, value] as [string, string]])),
        body: text ?? bytes.toString('base64'),
        bodyKind: text === undefined ? 'base64' : 'text',
        truncated,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
    } catch (error) {
      return { status: 'failed', url, reason: signal.aborted ? `No answer from ${url} within ${timeoutMs / 1000} s.` : `Couldn't send it to ${url}: ${describeFailure(error)}.` };
    }
  };
}

/** The intake with the message's own query, or the user's URL as given. */
function targetUrl(replay: ReplayRequest, source: ReceivedMessage, webhookUrl: string | null): string | undefined {
  if (replay.target !== 'intake') return replay.target;
  if (webhookUrl === null) return undefined;
  const query = new URLSearchParams(source.query).toString();
  return `${intakeUrl(webhookUrl, replay.webhookId)}${query ? `?${query}` : ''}`;
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
