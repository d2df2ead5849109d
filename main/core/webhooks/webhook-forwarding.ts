/**
 * Forward to (docs/webhooks-app.md, "Forward to"): every message delivered to a registration is sent on,
 * as it arrives, to a local server, like `stripe listen --forward-to` and `smee -t`: the same method,
 * the headers without the hop-by-hop ones (replayedHeaders, as a replay and "Copy as curl"), the exact
 * bytes, to the URL with the message's query added. Sent by raw-request.ts, as a replay is: no redirect
 * followed, the answer read up to FORWARD_ANSWER_MAX_BYTES and dropped, a deadline.
 *
 * One message at a time per registration, in order of arrival. A failure (no answer, or 5xx or 429) is
 * tried again after a backoff (backoff.ts: 1 s, 2 s, 4 s … with equal jitter) up to FORWARD_MAX_ATTEMPTS
 * attempts; a message waiting for its retry leaves the way to the next. `forward` only queues and
 * returns: the listener acknowledges to the forwarder without waiting for the local server. The queue
 * is bounded in count and bytes; a full queue drops its oldest waiting message and counts it. A message
 * forwarded already (a re-delivery after a resume) is not sent twice unless asked (`again`: the user's
 * "Forward again"). Shared by the app (webhook-listener.ts) and the `listen` command (main/listen-cli.ts).
 */
import { replayedHeaders } from '../../../common/curl-command';
import type { ForwardQueue, ForwardState } from '../../../common/forward-target';
import { REPLAY_TIMEOUT_MS } from '../../../common/ipc-contract';
import { createBackoff, type Backoff } from '../shared';
import type { Clock, Schedule } from '../shared';
import { type RawAnswer, type RawRequest, sendRawRequest } from '../shared';
import { errorMessage } from '../../../common/error-message';

export const FORWARD_MAX_ATTEMPTS = 5;
export const FORWARD_RETRY_INITIAL_MS = 1_000;
export const FORWARD_RETRY_MAX_MS = 30_000;
/** How long one attempt waits for the local server's answer: a replay's deadline. */
export const FORWARD_TIMEOUT_MS = REPLAY_TIMEOUT_MS;
/** The answer is read up to this and dropped: only its status and time are shown. */
export const FORWARD_ANSWER_MAX_BYTES = 64 * 1024;
export const FORWARD_QUEUE_MAX_MESSAGES = 500;
/** 64 messages of the forwarder's largest (256 KiB) body. */
export const FORWARD_QUEUE_MAX_BYTES = 16 * 1024 * 1024;
/** Ids remembered to tell a re-delivery from a new message. */
export const FORWARD_SEEN_IDS = 1_000;

export interface ForwardableMessage {
  id: string;
  /** Deliveries are POSTs (the forwarder takes nothing else); absent or null: POST. */
  method?: string | null;
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Base64 of the bytes received. */
  rawBody: string;
}

export interface ForwardLimits {
  maxAttempts: number;
  maxMessages: number;
  maxBytes: number;
  timeoutMs: number;
  maxAnswerBytes: number;
}

/** One message's forwarding changed. `url`, `method` and `bytes` say what is sent where. */
export interface ForwardProgress {
  id: string;
  forward: ForwardState;
  queue: ForwardQueue;
  url: string;
  method: string;
  bytes: number;
}

export interface ForwardingDeps {
  /** Checked by the caller (forwardTargetProblem in common/forward-target.ts). */
  url: string;
  clock: Clock;
  schedule: Schedule;
  onProgress(progress: ForwardProgress): void;
  /** The retries' jitter (Math.random by default). */
  random?: () => number;
  /** raw-request.ts by default; a fake in unit tests of the queue. */
  send?: (request: RawRequest) => Promise<RawAnswer>;
  limits?: Partial<ForwardLimits>;
}

export interface Forwarding {
  /** Queues the message and returns at once; a message already forwarded is skipped unless `again`. */
  forward(message: ForwardableMessage, options?: { again?: boolean }): void;
  queue(): ForwardQueue;
  /** Drops what waits; an attempt under way ends at its deadline, unreported. */
  stop(): void;
}

interface Item {
  seq: number;
  id: string;
  url: string;
  method: string;
  headers: [string, string][];
  body: Buffer;
  /** What it holds while it waits: the body and the headers' text. */
  bytes: number;
  attempts: number;
  dueAt: number;
  backoff: Backoff;
}

/** The target with the message's query added to any the target has. */
export function forwardUrl(target: string, query: Record<string, string>): string {
  const url = new URL(target);
  for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
  return url.href;
}

const retried = (answer: RawAnswer) => answer.status === 'failed' || answer.statusCode >= 500 || answer.statusCode === 429;

export function createForwarding(deps: ForwardingDeps): Forwarding {
  const limits: ForwardLimits = {
    maxAttempts: FORWARD_MAX_ATTEMPTS,
    maxMessages: FORWARD_QUEUE_MAX_MESSAGES,
    maxBytes: FORWARD_QUEUE_MAX_BYTES,
    timeoutMs: FORWARD_TIMEOUT_MS,
    maxAnswerBytes: FORWARD_ANSWER_MAX_BYTES,
    ...deps.limits,
  };
  const send = deps.send ?? sendRawRequest;
  const { clock, schedule } = deps;
  /** Waiting (queued or retrying), oldest first. */
  let waiting: Item[] = [];
  let inFlight: Item | undefined;
  let dropped = 0;
  let seq = 0;
  let stopped = false;
  let cancelWake = () => {};
  const seen = new Set<string>();

  const queue = (): ForwardQueue => ({ queued: waiting.length + (inFlight ? 1 : 0), dropped });
  const heldBytes = () => waiting.reduce((sum, item) => sum + item.bytes, inFlight?.bytes ?? 0);
  const report = (item: Item, forward: ForwardState) =>
    deps.onProgress({ id: item.id, forward, queue: queue(), url: item.url, method: item.method, bytes: item.body.length });

  const remember = (id: string) => {
    seen.delete(id);
    seen.add(id);
    if (seen.size > FORWARD_SEEN_IDS) seen.delete(seen.values().next().value as string);
  };

  const pump = () => {
    if (stopped || inFlight) return;
    cancelWake();
    const now = clock.now();
    const next = waiting.find((item) => item.dueAt <= now);
    if (!next) {
      const soonest = Math.min(...waiting.map((item) => item.dueAt));
      if (Number.isFinite(soonest)) cancelWake = schedule(pump, soonest - now);
      return;
    }
    waiting = waiting.filter((item) => item !== next);
    inFlight = next;
    next.attempts++;
    report(next, { state: 'sending', attempt: next.attempts });
    void send({
      url: next.url,
      method: next.method,
      headers: next.headers,
      body: next.body,
      timeoutMs: limits.timeoutMs,
      maxAnswerBytes: limits.maxAnswerBytes,
    }).then(
      (answer) => settle(next, answer),
      (error: unknown) => settle(next, { status: 'failed', reason: `Couldn't send it to ${next.url}: ${errorMessage(error)}.`, durationMs: 0 }),
    );
  };

  const settle = (item: Item, answer: RawAnswer) => {
    if (stopped || inFlight !== item) return;
    inFlight = undefined;
    const last = answer.status === 'answered' ? `${answer.statusCode}` : answer.reason;
    if (retried(answer) && item.attempts < limits.maxAttempts) {
      item.dueAt = clock.now() + item.backoff.next();
      waiting = [...waiting, item].sort((a, b) => a.seq - b.seq);
      report(item, { state: 'retrying', attempt: item.attempts, nextAt: item.dueAt, last: last.slice(0, 500) });
    } else if (answer.status === 'answered' && !retried(answer)) {
      report(item, { state: 'answered', statusCode: answer.statusCode, durationMs: answer.durationMs, attempts: item.attempts, at: clock.now() });
    } else {
      const reason = answer.status === 'answered' ? `The local server answered ${answer.statusCode} to each of ${item.attempts} attempts.` : answer.reason;
      report(item, {
        state: 'failed',
        reason: reason.slice(0, 500),
        ...(answer.status === 'answered' && { statusCode: answer.statusCode }),
        attempts: item.attempts,
        at: clock.now(),
      });
    }
    pump();
  };

  /** The oldest waiting messages leave until the queue is within its bounds again. */
  const bound = () => {
    while (waiting.length > 0 && (queue().queued > limits.maxMessages || heldBytes() > limits.maxBytes)) {
      const oldest = waiting[0]!;
      waiting = waiting.slice(1);
      dropped++;
      report(oldest, { state: 'dropped' });
    }
  };

  return {
    forward(message, options) {
      if (stopped || (seen.has(message.id) && !options?.again)) return;
      remember(message.id);
      const headers = replayedHeaders(Object.entries(message.headers));
      const body = Buffer.from(message.rawBody, 'base64');
      const item: Item = {
        seq: seq++,
        id: message.id,
        url: forwardUrl(deps.url, message.query),
        method: message.method ?? 'POST',
        headers,
        body,
        bytes: body.length + headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0),
        attempts: 0,
        dueAt: clock.now(),
        backoff: createBackoff(deps.random, FORWARD_RETRY_INITIAL_MS, FORWARD_RETRY_MAX_MS),
      };
      // Another attempt of the same message replaces any still waiting.
      waiting = [...waiting.filter((other) => other.id !== message.id), item];
      report(item, { state: 'queued' });
      bound();
      pump();
    },
    queue,
    stop() {
      stopped = true;
      cancelWake();
      waiting = [];
      inFlight = undefined;
    },
  };
}
