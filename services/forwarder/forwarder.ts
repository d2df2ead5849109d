/**
 * The reference webhook forwarder (spec 4.7, 6.1; DESIGN.md "Webhook listener channel"): the intake
 * `POST /webhook/:id` and the listener channel at LISTEN_PATH on the same server. See docs/services.md.
 */
import type { Logger } from '../../main/core/ports';
import { createServiceApp, listen } from '../shared/http-app';
import { silentLogger } from '../shared/logger';
import type { LegacyRunner } from './legacy/legacy-runner';
import { createListenerChannel } from './listener-channel';
import { ListenerRegistry } from './listener-registry';
import { type IntakeLimits, registerIntakeRoute } from './intake-route';
import { createMessageIds } from './message-ids';
import type { WebhookStore } from './webhook-store';

export type { IntakeLimits } from './intake-route';

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

export async function startForwarder(options: ForwarderOptions): Promise<RunningForwarder> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const limits: IntakeLimits = { ...DEFAULT_INTAKE_LIMITS, ...options.limits };
  const registry = options.registry ?? new ListenerRegistry(options.resumeBufferSize ?? 1000);
  const channel = createListenerChannel({
    store: options.store,
    registry,
    logger,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    registerTimeoutMs: options.registerTimeoutMs ?? 10_000,
    forgetAfterMs: options.forgetAfterMs ?? 10 * 60_000,
  });

  const app = createServiceApp(logger, { bodyLimit: limits.bodyBytes, headersTimeoutMs: limits.headersTimeoutMs, requestTimeoutMs: limits.requestTimeoutMs });
  registerIntakeRoute(app, { store: options.store, registry, channel, legacyRunner: options.legacyRunner, limits, ids: createMessageIds(now), now, logger });
  app.server.on('upgrade', channel.handleUpgrade);

  let url: string;
  try {
    url = await listen(app, options.host ?? '127.0.0.1', options.port ?? 0);
  } catch (error) {
    channel.close();
    throw error;
  }
  logger.info('forwarder: listening', { url });
  return {
    url,
    close: async () => {
      channel.close();
      await app.close();
    },
  };
}
