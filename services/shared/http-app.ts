/**
 * The fastify setup both reference services share: a 16 KiB body limit, JSON errors in one shape for
 * every failure (fastify's own, ours, and unknown routes), no stack traces, no fastify logger (the
 * service's Logger records notable events, never secrets), and connections closed on shutdown.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '../../main/core/ports';
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

export function createServiceApp(logger: Logger): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true, trustProxy: false });
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, new HttpError(status, STATUS_ERRORS[status] ?? 'invalid_request', clientMessage(error)));
    }
    logger.error('unexpected error while handling a request', { method: request.method, path: routePath(request), error: error.message });
    return sendError(reply, new HttpError(500, 'server_error', 'The server could not handle this request.'));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new HttpError(404, 'not_found', `No such endpoint: ${request.method} ${routePath(request)}`)));
  return app;
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply
    .code(error.status)
    .headers({ 'cache-control': 'no-store', ...error.headers })
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: error.error, error_description: error.description }));
}

/** The spec's "JSON string" answers (tokens, hub id): fastify would send a bare string as text/plain. */
export function sendJsonString(reply: FastifyReply, value: string): FastifyReply {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(value));
}

/** Starts listening and returns the base URL (no trailing slash). */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${hostPart}:${address.port}`;
}

/** The bearer credential of `Authorization: Bearer <token>` (RFC 6750 §2.1), or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** The path only: query strings may carry codes or tokens and must not reach a log. */
function routePath(request: FastifyRequest): string {
  return (request.raw.url ?? '').split('?')[0]!.slice(0, 200);
}

/** Fastify's messages for client errors are safe to show; they never include request data beyond sizes and types. */
function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The JSON body is empty.';
    default:
      return error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'The body is not valid JSON.' : error.message;
  }
}
