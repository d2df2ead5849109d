/**
 * Replay (docs/webhooks-app.md, "Replay"): a kept message sent again from main, to the webhook's intake on the forwarder
 * or to a URL the user gives (a local development server), exactly as received — method, headers
 * without the hop-by-hop ones (curl-command.ts decides which, so a replay and "Copy as curl" send the
 * same), and the raw bytes — or with the user's edits of the headers and the body.
 *
 * Sent by raw-request.ts (no headers of its own, no redirects followed, the answer read up to
 * REPLAY_RESPONSE_MAX_BYTES, a deadline), as Forward to sends (webhook-forwarding.ts). Failures are
 * sentences, never exceptions.
 */
import { REPLAY_RESPONSE_MAX_BYTES, REPLAY_TIMEOUT_MS, type ReplayRequest, type ReplayResult } from '../../../common/ipc-contract';
import { strictUtf8 } from '../../../common/base64';
import { replayedHeaders } from '../../../common/curl-command';
import { intakeUrl } from '../../../common/webhook-protocol';
import { sendRawRequest } from '../shared';
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
    const answer = await sendRawRequest({ url, method: source.method ?? 'POST', headers, body, timeoutMs, maxAnswerBytes: REPLAY_RESPONSE_MAX_BYTES });
    if (answer.status === 'failed') return { status: 'failed', url, reason: answer.reason };
    const text = strictUtf8(answer.body);
    return {
      status: 'answered',
      url,
      statusCode: answer.statusCode,
      headers: answer.headers,
      body: text ?? answer.body.toString('base64'),
      bodyKind: text === undefined ? 'base64' : 'text',
      truncated: answer.truncated,
      durationMs: answer.durationMs,
    };
  };
}

/** The intake with the message's own query, or the user's URL as given. */
function targetUrl(replay: ReplayRequest, source: ReceivedMessage, webhookUrl: string | null): string | undefined {
  if (replay.target !== 'intake') return replay.target;
  if (webhookUrl === null) return undefined;
  const query = new URLSearchParams(source.query).toString();
  return `${intakeUrl(webhookUrl, replay.webhookId)}${query ? `?${query}` : ''}`;
}
