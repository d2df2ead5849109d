/**
 * The forwarder's admin listener: `GET /healthz`, `/readyz` and `/metrics` on a port of their own, on
 * loopback unless told otherwise, and nowhere on the intake port (docs/security.md, "The forwarder's
 * admin listener"). On the intake port, `forwarder_routing_total` told an anonymous sender of
 * `?hub=X` whether hub X had a listener; there the paths are unknown (404) like any other.
 *
 * It stays open while the forwarder drains, so the orchestrator reads `/readyz` 503 (draining) until the
 * process is gone, and closes last. A small connection cap of its own keeps a flood of scrapes from
 * holding more than a few sockets; the gauges a scrape reads from Redis are shared between scrapes
 * (forwarder.ts, `PENDING_MAX_AGE_MS`).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { Logger } from '../../common/logger';
import { answerClientError, checkingInterval, listenServer, pathOf, writeError } from '../shared/http-app';
import { HttpError } from '../shared/http-error';
import { limitConnections } from './connection-limit';
import { errorMessage } from '../../common/error-message';

export const ADMIN_PATHS = ['/healthz', '/readyz', '/metrics'] as const;
export type AdminPath = (typeof ADMIN_PATHS)[number];

/** A scraper, a container's health check and an orchestrator's probes need a handful; a flood beyond is answered 503. */
const ADMIN_MAX_CONNECTIONS = 32;
const ADMIN_TIMEOUT_MS = 10_000;

export interface AdminListenerOptions {
  /** Default 127.0.0.1: only this host reaches it. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  logger: Logger;
  answer(path: AdminPath, response: ServerResponse): void | Promise<void>;
}

export interface AdminListener {
  url: string;
  close(): Promise<void>;
}

export async function startAdminListener(options: AdminListenerOptions): Promise<AdminListener> {
  const timeouts = { headersTimeoutMs: ADMIN_TIMEOUT_MS, requestTimeoutMs: ADMIN_TIMEOUT_MS };
  const server = createServer({ headersTimeout: ADMIN_TIMEOUT_MS, requestTimeout: ADMIN_TIMEOUT_MS, connectionsCheckingInterval: checkingInterval(timeouts) });
  const connections = limitConnections(server, ADMIN_MAX_CONNECTIONS);
  server.on('clientError', answerClientError);
  server.on('request', (request, response) => {
    if (!connections.admits(request.socket)) return;
    const path = pathOf(request.url);
    const known = (ADMIN_PATHS as readonly string[]).includes(path);
    if (!known) return writeError(response, new HttpError(404, 'not_found', `No such endpoint: ${request.method} ${path}`));
    if (request.method !== 'GET') return writeError(response, new HttpError(405, 'method_not_allowed', 'Only GET is allowed here.', { allow: 'GET' }));
    Promise.resolve(options.answer(path as AdminPath, response)).catch((error: unknown) => {
      options.logger.error('forwarder: admin answer could not be made', { path, error: errorMessage(error) });
      writeError(response, new HttpError(500, 'server_error', 'The answer could not be made.'));
    });
  });
  const url = await listenServer(server, 'http', options.host ?? '127.0.0.1', options.port ?? 0);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
