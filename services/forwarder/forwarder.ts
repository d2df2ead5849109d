/**
 * The reference webhook forwarder (spec 4.7, 6.1; DESIGN.md "Webhook listener channel"): the intake
 * `POST /webhook/:id` and the listener channel at LISTEN_PATH on the same plain node:http server (no
 * framework: the intake is the service's hot path, see intake-handler.ts). See docs/services.md.
 */
import { createServer } from 'node:http';
import type { Logger } from '../../main/core/ports';
import { answerClientError, checkingInterval, listenServer } from '../shared/http-app';
import { silentLogger } from '../shared/logger';
import type { LegacyRunner } from './legacy/legacy-runner';
import { createListenerChannel } from './listener-channel';
import { ListenerRegistry } from './listener-registry';
import { createIntakeHandler, type IntakeLimits } from './intake-handler';
import { createMessageIds } from './message-ids';
import type { WebhookStore } from './webhook-store';

export type { IntakeLimits } from './intake-handler';

export interface ForwarderOptions {
  host?: string;
  port?: number;
  /** Milliseconds since the epoch (message times and ids). */
  now?: () => number;
  logger?: Logger;
  store: WebhookStore;
  /** Without one, webhooks with a legacy function route nothing (the decision says so). */
  legacyRunner?: LegacyRunner;
  limits?: Partial<IntakeLimits>;
  heartbeatMs?: number;
  /** Unacknowledged messages kept per listener. */
  resumeBufferSize?: number;
  /** Characters of unacknowledged frames kept per listener (default DEFAULT_RESUME_BUFFER_CHARS). */
  resumeBufferChars?: number;
  /** How long a disconnected listener's buffer is kept. */
  forgetAfterMs?: number;
  /** How long a new connection has to register. */
  registerTimeoutMs?: number;
  /** Who is registered; given only by benchmarks that pre-load more registrations than sockets allow. */
  registry?: ListenerRegistry;
}

export interface RunningForwarder {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  bodyBytes: 256 * 1024,
  jsonDepth: 64,
  headers: 100,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
};

/** Longer than the idle timeout of common load balancers (60 s), so one never reuses a connection the forwarder is closing (fastify's default too). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export async function startForwarder(options: ForwarderOptions): Promise<RunningForwarder> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const limits: IntakeLimits = { ...DEFAULT_INTAKE_LIMITS, ...options.limits };
  const registry = options.registry ?? new ListenerRegistry(options.resumeBufferSize ?? 1000, options.resumeBufferChars);
  const channel = createListenerChannel({
    store: options.store,
    registry,
    logger,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    registerTimeoutMs: options.registerTimeoutMs ?? 10_000,
    forgetAfterMs: options.forgetAfterMs ?? 10 * 60_000,
  });

  const handleIntake = createIntakeHandler({ store: options.store, registry, channel, legacyRunner: options.legacyRunner, limits, ids: createMessageIds(now), now, logger });
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(limits),
    },
    handleIntake,
  );
  // Node silently ignores fields beyond maxHeadersCount; one more than allowed lets the intake see the excess.
  server.maxHeadersCount = limits.headers + 1;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  server.on('upgrade', channel.handleUpgrade);

  let url: string;
  try {
    url = await listenServer(server, 'http', options.host ?? '127.0.0.1', options.port ?? 0);
  } catch (error) {
    channel.close();
    throw error;
  }
  logger.info('forwarder: listening', { url });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        channel.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
