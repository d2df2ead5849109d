/**
 * The fastify setup the reference services share: a 16 KiB body limit (a service may choose another),
 * JSON errors in one shape for every failure (fastify's own, ours, unknown routes, and the ones Node
 * answers before a request reaches fastify: slow clients, oversized headers), no stack traces, no
 * fastify logger (the service's Logger records notable events, never secrets), timeouts, a cap on
 * connections and per-address limits under it (ConnectionLimits: slow or idle clients are cut off, one
 * address gets its share, address-limits.ts), and connections closed on shutdown.
 * The same errors, listening and client-error answers serve a plain node:http service (the forwarder,
 * docs/decisions.md).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '../../common/logger';
import { type AddressGate, type AddressLimits, DEFAULT_ADDRESS_LIMITS, limitAddresses } from './address-limits';
import { HttpError } from './http-error';

export const BODY_LIMIT_BYTES = 16 * 1024;

/** Error codes for fastify's own failures (bad JSON, too large, wrong content type, ...). */
const STATUS_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * What one client may hold of a service, so a slow or idle client cannot keep a connection (and its
 * buffers) forever, many cannot exhaust memory or file descriptors, and one address cannot take the
 * slots of all (AddressLimits, under the global cap).
 */
export interface ConnectionLimits extends AddressLimits {
  /** Node's headersTimeout: a client that has not sent all headers by then (from connecting) gets 408. */
  headersTimeoutMs: number;
  /** Node's requestTimeout: a client that has not sent the whole request by then (body trickled) gets 408. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Connections open at once per listener (WebSockets included); more are closed as they arrive (Node's maxConnections). */
  maxConnections: number;
}

/**
 * The defaults of every fastify service (the forwarder has its own, docs/services.md). Bodies here are
 * at most 16 KiB: 10 s is ample even on a slow link. The keep-alive timeout is Node's default: these
 * services sit behind no load balancer, and a short one frees slots under the connection cap.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  ...DEFAULT_ADDRESS_LIMITS,
};

/** Told of every request a service receives (method and path, never a query or header): how tests and benches count calls. */
export type RequestLog = (request: { method: string; path: string }) => void;

export interface ServiceAppOptions extends Partial<ConnectionLimits> {
  /** Bytes; default BODY_LIMIT_BYTES. */
  bodyLimit?: number;
  requestLog?: RequestLog;
}

export function createServiceApp(logger: Logger, options: ServiceAppOptions = {}): FastifyInstance {
  const { bodyLimit = BODY_LIMIT_BYTES, requestLog, ...connectionOptions } = options;
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...definedOnly(connectionOptions) };
  const app = Fastify({
    logger: false,
    bodyLimit,
    forceCloseConnections: true,
    trustProxy: false,
    // Node checks both timeouts on this interval (default 30 s); short timeouts need a finer one.
    serverFactory: (handler) => limitedServer(createHttpServer({ connectionsCheckingInterval: checkingInterval(limits) }), handler, limits),
    clientErrorHandler: answerClientError,
  });
  if (requestLog) app.addHook('onRequest', async (request) => requestLog({ method: request.method, path: routePath(request) }));
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, new HttpError(status, STATUS_ERRORS[status] ?? 'invalid_request', clientMessage(error, bodyLimit)));
    }
    logger.error('unexpected error while handling a request', { method: request.method, path: routePath(request), error: error.message });
    return sendError(reply, new HttpError(500, 'server_error', 'The server could not handle this request.'));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new HttpError(404, 'not_found', `No such endpoint: ${request.method} ${routePath(request)}`)));
  return app;
}

/** The limits and the per-address gate of each service server (listenSecure applies the same to its own). */
const limitsOf = new WeakMap<Server | HttpsServer, { limits: ConnectionLimits; gate: AddressGate }>();

/** `server` with the limits applied and `handler` as its request listener behind the per-address gate. */
function limitedServer<S extends Server | HttpsServer>(
  server: S,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  limits: ConnectionLimits,
): S {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // The global cap: Node refuses a connection beyond it before any listener sees it, so the per-address counts never include it.
  server.maxConnections = limits.maxConnections;
  const gate = limitAddresses(server, limits);
  server.on('request', gate.requests(handler));
  limitsOf.set(server, { limits, gate });
  return server;
}

/** Serves WebSocket upgrades on a service server (createServiceApp's, or listenSecure's) behind its per-address gate. */
export function onUpgrade(server: Server | HttpsServer, handler: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): void {
  const gate = limitsOf.get(server)?.gate;
  if (!gate) throw new Error('onUpgrade needs a server made by createServiceApp or listenSecure');
  server.on('upgrade', gate.upgrades(handler));
}

/** The options a caller set: `{headersTimeoutMs: undefined}` must not replace a default with nothing. */
function definedOnly(options: Partial<ConnectionLimits>): Partial<ConnectionLimits> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply
    .code(error.status)
    .headers({ 'cache-control': 'no-store', ...error.headers })
    .type('application/json; charset=utf-8')
    .send(errorBody(error));
}

/** sendError for a plain node:http response (a service that answers without fastify). */
export function writeError(response: ServerResponse, error: HttpError): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  writeJson(response, error.status, errorBody(error), error.headers);
}

/** A JSON answer on a plain node:http response, never cached; one write for head and body. */
export function writeJson(response: ServerResponse, status: number, json: string, headers: Record<string, string> = {}): void {
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(json),
      ...headers,
    })
    .end(json);
}

function errorBody(error: HttpError): string {
  return JSON.stringify({ error: error.error, error_description: error.description });
}

/** The "JSON string" answers of docs/interface.md §2.3, §2.4 and A.1 (tokens, hub id): fastify would send a bare string as text/plain. */
export function sendJsonString(reply: FastifyReply, value: string): FastifyReply {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(value));
}

/** Starts listening and returns the base URL (no trailing slash). */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  return baseUrl('http', app.server.address() as AddressInfo);
}

export interface SecureListener {
  /** The base URL (`https://host:port`, no trailing slash). */
  url: string;
  /** The TLS server, for what fastify does not route (a WebSocket 'upgrade'). */
  server: HttpsServer;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/**
 * Serves a started app over TLS too, on a second port: the same routes, handlers and state (one
 * fastify instance routes both listeners) and the same answers to malformed or slow requests.
 */
export async function listenSecure(app: FastifyInstance, host: string, port: number, tls: { key: string; cert: string }): Promise<SecureListener> {
  await app.ready(); // app.routing needs the routes registered
  // The same limits and checking interval as the plain listener, so short timeouts hold here too.
  const { limits } = limitsOf.get(app.server)!;
  const server = limitedServer(createHttpsServer({ key: tls.key, cert: tls.cert, connectionsCheckingInterval: checkingInterval(limits) }), app.routing, limits);
  server.on('clientError', answerClientError);
  return {
    url: await listenServer(server, 'https', host, port),
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Starts a plain node server listening and returns its base URL (no trailing slash). `backlog`: connections
 * the kernel may hold for accepting (capped by net.core.somaxconn; Node's default is 511).
 */
export async function listenServer(server: Server | HttpsServer, scheme: 'http' | 'https', host: string, port: number, backlog?: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ...(backlog !== undefined && { backlog }) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return baseUrl(scheme, server.address() as AddressInfo);
}

function baseUrl(scheme: 'http' | 'https', address: AddressInfo): string {
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${hostPart}:${address.port}`;
}

/** The bearer credential of `Authorization: Bearer <token>` (RFC 6750 §2.1), or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** The path only: query strings may carry codes or tokens and must not reach a log. */
function routePath(request: FastifyRequest): string {
  return pathOf(request.raw.url);
}

/** The path of a request target, without its query, shortened for messages and logs. */
export function pathOf(url: string | undefined): string {
  return (url ?? '').split('?')[0]!.slice(0, 200);
}

/** Fastify's messages for client errors are safe to show; they never include request data beyond sizes and types. */
function clientMessage(error: FastifyError, bodyLimit: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than ${bodyLimit} bytes.`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The JSON body is empty.';
    default:
      return error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'The body is not valid JSON.' : error.message;
  }
}

/** How often Node checks the request and headers timeouts: often enough for the shortest one. */
export function checkingInterval(options: { headersTimeoutMs?: number; requestTimeoutMs?: number }): number {
  const shortest = Math.min(options.headersTimeoutMs ?? Infinity, options.requestTimeoutMs || Infinity);
  return Number.isFinite(shortest) ? Math.max(10, Math.min(1_000, Math.floor(shortest / 4))) : 1_000;
}

const CLIENT_ERRORS: Record<string, { status: number; error: string; description: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'request_timeout', description: 'The request was not received in time.' },
  HPE_HEADER_OVERFLOW: { status: 431, error: 'request_header_fields_too_large', description: 'The request headers are too large.' },
};

/** Errors Node reports before fastify sees a request (bad framing, slow clients): answered in the same JSON shape, then closed. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, error: 'invalid_request', description: 'The request is not valid HTTP.' };
  const body = JSON.stringify({ error: known.error, error_description: known.description });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // Closes once the answer is flushed (destroy() could drop it).
  socket.destroySoon();
}
