/**
 * `POST /webhook/:id` (spec 4.7). Every accepted request is answered `202 {"id"}` whether or not a
 * listener matched: the intake never reveals registrations. Refusals, each in the services' JSON error
 * shape: 404 unknown webhook (before the body is read), 413 body over `bodyBytes` (Content-Length or
 * chunked; the connection is closed), 400 malformed or too deeply nested JSON or prototype-poisoning
 * keys, 431 more than `headers` header fields (Node keeps at most one more, so the excess is seen) or
 * too many header bytes (Node's limit), 408 headers not complete within `headersTimeoutMs` or the whole
 * request not within `requestTimeoutMs` (answered by Node's server timeouts, see shared/http-app.ts).
 *
 * What a listener receives: headers lower-cased, repeated ones joined with ", ", without hop-by-hop
 * headers (RFC 9110 §7.6.1, plus those named in Connection) and without `cookie` (a browser's ambient
 * credential for the forwarder, never meant for the receiving hub); query as name → first value.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../../main/core/ports';
import { sendError } from '../shared/http-app';
import { HttpError } from '../shared/http-error';
import { decodeBody, firstValues } from './intake-body';
import type { LegacyRunner } from './legacy/legacy-runner';
import type { ListenerChannel } from './listener-channel';
import type { ListenerRegistry } from './listener-registry';
import type { MessageIds } from './message-ids';
import { type Routed, route } from './router';
import type { WebhookStore } from './webhook-store';

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
  store: WebhookStore;
  registry: ListenerRegistry;
  channel: ListenerChannel;
  legacyRunner: LegacyRunner | undefined;
  limits: IntakeLimits;
  ids: MessageIds;
  now: () => number;
  logger: Logger;
}

const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'cookie']);

export function registerIntakeRoute(app: FastifyInstance, deps: IntakeDeps): void {
  const { store, registry, channel, limits, ids } = deps;
  // Node silently ignores fields beyond maxHeadersCount; one more than allowed lets the hook see the excess.
  app.server.maxHeadersCount = limits.headers + 1;
  // Callback-style hooks: an async hook costs a promise per request on the hottest path.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.rawHeaders.length / 2 > limits.headers) {
      sendError(reply, new HttpError(431, 'request_header_fields_too_large', `A request may have at most ${limits.headers} header fields.`, { connection: 'close' }));
      return;
    }
    done();
  });

  // Every body is read as bytes by fastify, which enforces the body limit while reading (Content-Length
  // and chunked alike, answering 413); decoding happens in the handler, so the raw bytes are kept.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request: FastifyRequest, raw: Buffer, done: (error: Error | null, body?: Buffer) => void) => done(null, raw));

  app.post<{ Params: { id: string } }>(
    '/webhook/:id',
    {
      // Unknown webhooks are refused before their body is read.
      onRequest: (request, reply, done) => {
        if (!store.get(request.params.id)) {
          sendError(reply, new HttpError(404, 'not_found', 'No such webhook.', { connection: 'close' }));
          return;
        }
        done();
      },
    },
    (request, reply) => {
      const webhook = store.get(request.params.id);
      if (!webhook) throw new HttpError(404, 'not_found', 'No such webhook.');
      const receivedAt = new Date(deps.now()).toISOString();
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const body = decodeBody(raw, request.headers['content-type'], limits.jsonDepth);
      const headers = forwardedHeaders(request.headers);
      const query = queryOf(request.raw.url ?? '');
      const accept = ({ decision, targets }: Routed): void => {
        // The id is taken after routing (which may wait for the sandbox), so ids reach listeners in order.
        const { id, sequence } = ids.next();
        const message = { id, receivedAt, headers, query, body, rawBody: raw.toString('base64') };
        channel.deliver(message, sequence, targets);
        channel.tap(webhook.id, { message, method: request.method, size: raw.length, routing: decision });
        void reply.code(202).header('cache-control', 'no-store').send({ id });
      };
      const routed = route(
        { webhook, keyPath: store.compiledKeyPath(webhook.id), listeners: registry.of(webhook.id), legacyRunner: deps.legacyRunner },
        { headers, query, body },
      );
      // Only legacy functions wait (for the sandbox); every other request is answered synchronously.
      if (routed instanceof Promise) return routed.then(accept);
      accept(routed);
    },
  );
}

const NONE_NAMED: ReadonlySet<string> = new Set();

function forwardedHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const connection = incoming.connection;
  const named = connection === undefined ? NONE_NAMED : new Set(connection.toLowerCase().split(',').map((name) => name.trim()));
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NOT_FORWARDED.has(name) || named.has(name)) continue;
    kept.push([name, Array.isArray(value) ? value.join(', ') : value]);
  }
  return Object.fromEntries(kept);
}

function queryOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  return at < 0 ? {} : firstValues(new URLSearchParams(url.slice(at + 1)));
}
