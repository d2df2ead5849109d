/**
 * `POST /webhook/:id` (docs/interface.md §4.7), the forwarder's one HTTP endpoint, as a plain node:http request
 * handler: the hot path of the service, so no framework pipeline sits in front of it, and accepted
 * requests are answered in batches (answer-batch.ts; docs/decisions.md, "The forwarder's intake").
 * Every accepted request is answered `202 {"id"}` whether or not a listener matched: the intake never
 * reveals registrations. Refusals, each in the services' JSON error shape: 404 unknown webhook or path,
 * 405 another method (before the body is read), 413 body over `bodyBytes` (Content-Length or chunked;
 * the read stops and the connection is closed), 400 malformed or too deeply nested JSON or
 * prototype-poisoning keys, 431 more than `headers` header fields (Node keeps at most one more, so the
 * excess is seen) or too many header bytes (Node's limit), 408 headers not complete within
 * `headersTimeoutMs` or the whole request not within `requestTimeoutMs` (Node's server timeouts,
 * answered by the forwarder's clientError handler), 429 (Retry-After) when the webhook's own queue for
 * its legacy function is full and 503 (Retry-After) when the forwarder's is (router.ts). A connection
 * over the forwarder's cap is answered 503 before any request (connection-limit.ts).
 * A refusal of a request for a known webhook is also sent to the webhook's open taps (with its status
 * and reason, headers, query and the body's first 64 KiB, refused-body.ts; for JSON that does not parse,
 * where it stops), so the owner's inspector shows it; an unknown webhook has no tap to tell.
 *
 * What a listener receives: headers lower-cased, repeated ones joined with ", " in order (every one:
 * `headersDistinct`, where Node's `headers` keeps only the first of some, e.g. User-Agent), without hop-by-hop
 * headers (RFC 9110 §7.6.1, plus those named in Connection) and without `cookie` (a browser's ambient
 * credential for the forwarder, never meant for the receiving hub); query as name → first value.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import type { Logger } from '../../common/logger';
import { pathOf, writeError } from '../shared/http-app';
import { HttpError } from '../shared/http-error';
import { lingerOnClose } from '../shared/lingering-close';
import { AnswerBatch } from './answer-batch';
import { firstValues, INTAKE_PATH } from '../../common/webhook-protocol';
import type { ForwarderMetrics } from './forwarder-metrics';
import { decodeBody, InvalidJsonBody } from './intake-body';
import { type BodyCapture, captureBody, keptOf } from './refused-body';
import type { Reservation } from './legacy/fair-queue';
import type { LegacyRunner } from './legacy/legacy-runner';
import type { ForwarderBackend } from './forwarder-backend';
import { legacyQueueFull, type Routed, route, routingOption } from './router';
import type { LegacyAdmission } from './spaced-while-behind';
import type { WebhookRecord } from './webhook-store';
import { errorMessage } from '../../common/error-message';

export interface IntakeLimits {
  bodyBytes: number;
  /** Nesting of JSON arrays and objects. */
  jsonDepth: number;
  /** Header fields per request. */
  headers: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface IntakeDeps {
  backend: ForwarderBackend;
  legacyRunner: LegacyRunner | undefined;
  limits: IntakeLimits;
  now: () => number;
  logger: Logger;
  metrics: Pick<ForwarderMetrics, 'intake' | 'routed'>;
  /** Whether a legacy request may come in while connections wait to be accepted (spaced-while-behind.ts). */
  legacyWhileBehind: LegacyAdmission;
}

const INTAKE_PREFIX = INTAKE_PATH;
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'cookie',
]);
/** Refusals answered before the body is read close the connection: the unread body must not be taken for the next request. */
const CLOSE = { connection: 'close' };

export type IntakeHandler = (request: IncomingMessage, response: ServerResponse) => void;

export function createIntakeHandler(deps: IntakeDeps): IntakeHandler {
  const { backend, limits } = deps;
  const { store } = backend;
  const answers = new AnswerBatch((error) => deps.logger.error('forwarder: an intake answer could not be written', { error: String(error) }));

  const accept = (
    request: IncomingMessage,
    response: ServerResponse,
    webhook: WebhookRecord,
    raw: Buffer,
    reservation: Reservation | undefined,
    refuse: (error: unknown) => void,
  ): void => {
    const receivedAt = new Date(deps.now()).toISOString();
    const body = decodeBody(raw, request.headers['content-type'], limits.jsonDepth);
    const headers = forwardedHeaders(request);
    const query = queryOf(request.url ?? '');
    const received = { message: { receivedAt, headers, query, body: body.value, rawBody: raw.toString('base64') }, bodyJson: body.json };
    const answer = ({ decision, targets }: Routed): void => {
      const accepted = (id: string) => {
        answers.write(response, 202, JSON.stringify({ id }));
        deps.metrics.intake(202);
        deps.metrics.routed(decision.option, decision.matched.length > 0);
      };
      // The id is taken after routing (which may wait for the sandbox), so ids reach listeners in order.
      const stored = backend.accept(webhook.id, received, targets, { method: 'POST', size: raw.length, routing: decision });
      // In memory it is stored at once; in Redis the 202 waits for it, and a failure is a 503 (never a 202 it cannot keep).
      if (typeof stored === 'string') accepted(stored);
      else stored.then(accepted, (error: unknown) => refuse(storeUnavailable(deps.logger, error)));
    };
    const routed = route(
      { webhook, keyPath: store.compiledKeyPath(webhook.id), listeners: backend.registry.of(webhook.id), legacyRunner: deps.legacyRunner, reservation },
      { headers, query, body: body.value, bodyJson: body.json },
    );
    // Only legacy functions wait (for the sandbox); every other request is answered synchronously.
    if (routed instanceof Promise) routed.then(answer).catch(refuse);
    else answer(routed);
  };

  /**
   * Answers a refusal, and tells the webhook's taps (when it is known and one is open) with the body's
   * first bytes: `body` (what was read, or is being captured), else captured from now on.
   */
  const refuse = (request: IncomingMessage, response: ServerResponse, webhook: WebhookRecord | undefined, error: unknown, body?: BodyCapture): void => {
    const refusal = error instanceof HttpError ? error : new HttpError(500, 'server_error', 'The server could not handle this request.');
    if (!(error instanceof HttpError)) deps.logger.error('forwarder: unexpected error while handling an intake', { error: errorMessage(error) });
    // A body still on its way is read and dropped for a while after the answer, so the client reads the answer rather than a reset.
    if (!request.complete) lingerOnClose(request);
    writeError(response, refusal);
    deps.metrics.intake(refusal.status);
    if (!webhook || !backend.tapped(webhook.id)) return;
    const webhookId = webhook.id;
    const seen = { receivedAt: new Date(deps.now()).toISOString(), headers: forwardedHeaders(request), query: queryOf(request.url ?? '') };
    const method = request.method ?? '';
    (body ?? captureBody(request)).whenSettled(({ bytes, size }) => {
      const rejected = {
        status: refusal.status,
        error: refusal.error,
        reason: refusal.description,
        ...(bytes.length < size && { bodyTruncated: true }),
        ...(refusal instanceof InvalidJsonBody && refusal.at && { jsonError: refusal.at }),
      };
      backend.refused(
        webhookId,
        { ...seen, rawBody: bytes.toString('base64') },
        { method, size, routing: { option: 'none', matched: [], reason: refusal.description }, rejected },
      );
    });
  };

  return (request, response) => {
    let webhook: WebhookRecord | undefined;
    let body: BodyCapture | undefined;
    let read: Buffer | undefined;
    const refused = (error: unknown) => refuse(request, response, webhook, error, read ? settled(keptOf(read)) : body);
    try {
      // Without its store (Redis unreachable) the forwarder can neither know the webhook nor keep the request.
      if (!backend.ready()) throw unavailable(CLOSE);
      const path = pathOf(request.url);
      const webhookId = webhookIdOf(path);
      webhook = webhookId === undefined ? undefined : store.get(webhookId);
      admit(request, path, webhookId, webhook, limits);
      const known = webhook;
      const reservation = reserveLegacyRoom(request, known, deps);
      // However the request ends (routed, refused, abandoned), the room held for it is given back.
      if (reservation) response.once('close', () => reservation.release());
      // Only while a tap is open: a refused body's first bytes are shown to it (refused-body.ts).
      if (backend.tapped(known.id)) body = captureBody(request);
      getRawBody(request, { length: request.headers['content-length'], limit: limits.bodyBytes }, (error, raw) => {
        if (error) {
          // A client that went away gets no answer; the socket is already gone.
          if (error.type !== 'request.aborted') refused(bodyRefusal(error, limits.bodyBytes));
          return;
        }
        read = raw;
        try {
          accept(request, response, known, raw, reservation, refused);
        } catch (caught) {
          refused(caught);
        }
      });
    } catch (error) {
      refused(error);
    }
  };
}

/** The checks made before any of the body is read (`webhookId`: what the path names; `webhook`: that one, when known). */
function admit(
  request: IncomingMessage,
  path: string,
  webhookId: string | undefined,
  webhook: WebhookRecord | undefined,
  limits: IntakeLimits,
): asserts webhook is WebhookRecord {
  if (request.rawHeaders.length / 2 > limits.headers) {
    throw new HttpError(431, 'seenheader_fields_too_large', `A request may have at most ${limits.headers} header fields.`, CLOSE);
  }
  if (webhookId === undefined) throw new HttpError(404, 'not_found', `No such endpoint: ${request.method} ${path}`, CLOSE);
  if (request.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'A webhook accepts POST requests only.', { ...CLOSE, allow: 'POST' });
  if (!webhook) throw new HttpError(404, 'not_found', 'No such webhook.', CLOSE);
}

/**
 * A request for a legacy function holds its place in its webhook's sandbox queue before its body is
 * read, or is refused then (429 when that webhook's queue is full, 503 when the forwarder's is): a
 * flood's bodies would otherwise all be read and parsed at once on the event loop every other webhook's
 * requests share, only to be refused. Bodies being read count as waiting (fair-queue.ts), so a flooded
 * webhook has at most its queue's worth of bodies in hand (docs/legacy-functions.md, "Limits"); while
 * connections wait to be accepted, its requests are spaced out too (spaced-while-behind.ts). Requests that
 * route otherwise (`?hub=`, key path) pass with no reservation.
 */
function reserveLegacyRoom(request: IncomingMessage, webhook: WebhookRecord, deps: IntakeDeps): Reservation | undefined {
  // The hot path (webhooks without a legacy function) pays one comparison.
  if (!deps.legacyRunner || webhook.legacyFunction === null) return undefined;
  if (routingOption(webhook, deps.backend.store.compiledKeyPath(webhook.id), queryOf(request.url ?? '')) !== 'legacy') return undefined;
  // A chunked body says nothing of its size: it may be as large as allowed.
  const declared = Number(request.headers['content-length']);
  if (!deps.legacyWhileBehind(webhook.id)) throw legacyQueueFull(BEHIND, CLOSE);
  const held = deps.legacyRunner.reserve(webhook.id, Number.isSafeInteger(declared) && declared >= 0 ? declared : deps.limits.bodyBytes);
  if (!('error' in held)) return held;
  throw held.error === 'queue-full' ? legacyQueueFull(held.message, CLOSE) : unavailable(CLOSE, held.message);
}

const BEHIND =
  'The forwarder is behind on accepting connections: until it catches up, each webhook’s legacy requests are spaced out; send it again (Retry-After).';

function unavailable(
  headers: Record<string, string> = {},
  description = 'The forwarder cannot store requests just now; send it again (Retry-After).',
): HttpError {
  return new HttpError(503, 'temporarily_unavailable', description, { 'retry-after': '1', ...headers });
}

function storeUnavailable(logger: Logger, error: unknown): HttpError {
  logger.warn('forwarder: an intake could not be stored; answered 503', { error: errorMessage(error) });
  return unavailable();
}

/** `/webhook/<id>` → the id (percent-decoded), or undefined for any other path. */
function webhookIdOf(path: string): string | undefined {
  if (!path.startsWith(INTAKE_PREFIX)) return undefined;
  const encoded = path.slice(INTAKE_PREFIX.length);
  if (encoded === '' || encoded.includes('/')) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

function bodyRefusal(error: getRawBody.RawBodyError, bodyBytes: number): HttpError {
  if (error.type === 'entity.too.large') return new HttpError(413, 'payload_too_large', `The request body is larger than ${bodyBytes} bytes.`, CLOSE);
  if (error.type === 'request.size.invalid') return new HttpError(400, 'invalid_request', 'The body does not match its Content-Length.', CLOSE);
  return new HttpError(400, 'invalid_request', 'The request body could not be read.', CLOSE);
}

const settled = (kept: ReturnType<typeof keptOf>): BodyCapture => ({ whenSettled: (done) => done(kept) });

const NONE_NAMED: ReadonlySet<string> = new Set();

function forwardedHeaders(request: IncomingMessage): Record<string, string> {
  const connection = request.headers.connection;
  const named =
    connection === undefined
      ? NONE_NAMED
      : new Set(
          connection
            .toLowerCase()
            .split(',')
            .map((name) => name.trim()),
        );
  const incoming = request.headersDistinct;
  const kept: Record<string, string> = {};
  for (const name in incoming) {
    const values = incoming[name];
    if (values === undefined || NOT_FORWARDED.has(name) || named.has(name)) continue;
    // Defined, not assigned: a `__proto__` header stays plain data.
    Object.defineProperty(kept, name, { value: values.join(', '), enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

function queryOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  return at < 0 ? {} : firstValues(new URLSearchParams(url.slice(at + 1)));
}
