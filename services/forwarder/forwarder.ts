/**
 * The reference webhook forwarder (docs/interface.md §4.7, §6.1 and A.4, the listener channel): the intake
 * `POST /webhook/:id` and the listener channel at LISTEN_PATH on the same plain node:http server (no
 * framework: the intake is the service's hot path, see intake-handler.ts); `GET /healthz`, `/readyz` and
 * `/metrics` (forwarder-metrics.ts) for whoever runs it on an admin listener of their own, on loopback by
 * default (admin-listener.ts). `drain` stops it gracefully. See docs/services.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../common/logger';
import { type AddressLimits, DEFAULT_ADDRESS_LIMITS, limitAddresses } from '../shared/address-limits';
import { answerClientError, checkingInterval, listenServer, writeJson } from '../shared/http-app';
import { MemoryReplayGuard } from '../shared/delegation-token';
import { silentLogger } from '../shared/logger';
import type { LegacyRunner } from './legacy/legacy-runner';
import { type AdminListener, type AdminPath, startAdminListener } from './admin-listener';
import { watchAcceptBacklog } from '../shared/accept-backlog';
import { limitConnections, DEFAULT_MAX_CONNECTIONS } from './connection-limit';
import { spacedWhileBehind } from './spaced-while-behind';
import type { ForwarderBackend, TapLocally } from './forwarder-backend';
import { createListenerChannel } from './listener-channel';
import {
  DEFAULT_MAX_LISTENERS_PER_OWNER,
  DEFAULT_MAX_LISTENERS_PER_WEBHOOK,
  DEFAULT_RESUME_BUFFER_BYTES,
  DEFAULT_RESUME_BUFFER_SIZE,
  ListenerRegistry,
} from './listener-registry';
import { createMemoryBackend, logBudgetEvictions, type MemoryBackendOptions } from './memory-backend';
import { DEFAULT_RESUME_BUDGET_BYTES, ResumeBudget } from './resume-budget';
import { countLegacyOutcomes, createForwarderMetrics, readAtMostEvery } from './forwarder-metrics';
import { createIntakeHandler, type IntakeLimits } from './intake-handler';
import { createMessageIds, timeOf } from './message-ids';
import { createHubBinding, type HubIdPolicy } from './hub-binding';
import { createRedisBackend } from './redis/redis-backend';
import { redisReplayGuard } from './redis/redis-replay-guard';
import type { RedisState } from './redis/redis-state';
import { TurnWriter } from './socket-writer';
import type { WebhookStore } from './webhook-store';

export type { IntakeLimits } from './intake-handler';

export interface ForwarderOptions {
  /** The intake's and listener channel's address (default 127.0.0.1) and port (default 0: any free one). */
  host?: string;
  port?: number;
  /** `/healthz`, `/readyz` and `/metrics`: their own listener, on loopback by default (admin-listener.ts), any free port by default. */
  adminHost?: string;
  adminPort?: number;
  /** Milliseconds since the epoch (message times and ids). */
  now?: () => number;
  logger?: Logger;
  /** The webhooks, with state in memory; or `redis`. */
  store?: WebhookStore;
  /** State in Redis (redis/redis-state.ts), shared with other instances: its store is the webhooks. */
  redis?: RedisState;
  /** Without one, webhooks with a legacy function route nothing (the decision says so). */
  legacyRunner?: LegacyRunner;
  /**
   * While connections wait to be accepted, a legacy webhook is let in once per this many turns that accepted
   * one (spaced-while-behind.ts; default 16, 0 for never): its flood's bodies must not keep the others from being accepted.
   */
  legacySpacingWhileBehind?: number;
  limits?: Partial<IntakeLimits>;
  heartbeatMs?: number;
  /** Unacknowledged messages kept per listener (default 1,000). */
  resumeBufferSize?: number;
  /** Bytes of unacknowledged frames kept per listener (default DEFAULT_RESUME_BUFFER_BYTES, 32 MiB; memory-size.ts). */
  resumeBufferBytes?: number;
  /** Bytes of frames kept by all resume buffers together (default DEFAULT_RESUME_BUDGET_BYTES, 256 MiB); see resume-budget.ts. */
  resumeBudgetBytes?: number;
  /** Listener slots (connected or away) per webhook (default 100) and per webhook owner (default 200). */
  maxListenersPerWebhook?: number;
  maxListenersPerOwner?: number;
  /** Concurrent TCP connections, intake and listeners together (default DEFAULT_MAX_CONNECTIONS, 1,000); see connection-limit.ts. */
  maxConnections?: number;
  /**
   * What one client address may hold under that cap (DEFAULT_ADDRESS_LIMITS for what is not given;
   * address-limits.ts). Behind a reverse proxy, exempt its address (docs/services.md, "Behind a load balancer").
   */
  addressLimits?: Partial<AddressLimits>;
  /** How long a disconnected listener's buffer is kept. */
  forgetAfterMs?: number;
  /** How long a new connection has to register. */
  registerTimeoutMs?: number;
  /** How long `drain` waits for the requests under way and for listeners to close, each (default 10 s). */
  drainTimeoutMs?: number;
  /** Who is registered; given only by benchmarks that pre-load more registrations than sockets allow (the resume and slot options above then do not apply). Memory only. */
  registry?: ListenerRegistry;
  /** With Redis: how often this instance looks for listeners gone with their instance, and forgets those away too long (default 5 s). */
  sweepMs?: number;
  /**
   * What a listener registration naming a hub must prove (hub-binding.ts; docs/security.md, "A listener's hub
   * id is proven"): `{verify: {cloudUrl}}`, a fresh delegation token of that cloud for the hub; `refuse` (the
   * default), no hub ids at all; `trust`, none (any holder of the webhook secret may name any hub).
   */
  hubIds?: HubIdPolicy;
}

/** What the forwarder holds now: for monitoring, and for the flood tests to check the budgets. */
export interface ForwarderStats {
  connections: number;
  /** Intake requests received and not yet answered (what a drain waits for). */
  intakeUnderWay: number;
  /** Listener slots, connected or away. */
  listeners: number;
  /** Bytes of the distinct frames in all resume buffers (memory-size.ts); 0 with Redis (they are there). */
  resumeBufferBytes: number;
  /** Legacy-function requests waiting for the sandbox, by webhook id (only webhooks with some waiting). */
  legacyWaiting: Record<string, number>;
}

export interface RunningForwarder {
  /** The intake and the listener channel (public). */
  url: string;
  /** `/healthz`, `/readyz` and `/metrics` (for the monitoring and the orchestrator only). */
  adminUrl: string;
  stats(): ForwarderStats;
  /**
   * Stops gracefully, for a restart or a scale-down: no new connection is accepted (a load balancer
   * sends them to another instance) and idle ones are closed; the requests under way are answered, and
   * anything that follows them on their connections gets 503 with Retry-After and `Connection: close`
   * (`/readyz` too); then listeners and taps are closed with CLOSE_GOING_AWAY, so they reconnect to
   * another instance. Each wait is bounded by `drainTimeoutMs`; then it closes.
   */
  drain(): Promise<void>;
  /** Stops at once: connections are cut. */
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
const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
/**
 * How long what a scrape reads from Redis (the pending messages and bytes: a script that visits every
 * queue) is shared by the scrapes that follow: a flood of scrapes runs one script a second, and a
 * scraper's own interval (15 s or more) never sees the difference (docs/services.md, "Forwarder endpoints").
 */
export const PENDING_MAX_AGE_MS = 1_000;

/**
 * Connections the kernel holds until they are accepted. Past Node's 511 a burst's connection attempts were
 * dropped, and each sender waited a SYN retransmission (1 s, then 3 s) before the forwarder even saw it;
 * the kernel caps this at net.core.somaxconn (docs/services.md, "Production checklist").
 */
const LISTEN_BACKLOG = 4096;
const DRAINING_BODY = JSON.stringify({ error: 'draining', error_description: 'This forwarder is shutting down; send the request again (Retry-After).' });

/** Resolves when `promise` does or after `ms`, whichever is first. */
async function within(ms: number, promise: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export async function startForwarder(options: ForwarderOptions): Promise<RunningForwarder> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const limits: IntakeLimits = { ...DEFAULT_INTAKE_LIMITS, ...options.limits };
  const writer = new TurnWriter();
  // The backends show intakes to this instance's taps through the channel, made below (only called once it is).
  const tapLocally: TapLocally = (webhookId, message, summary) => channel.tap(webhookId, message, summary);
  const backend = options.redis
    ? createRedisBackend(options.redis, {
        ...redisCaps(options),
        tapLocally,
        writer,
        logger,
        now,
        forgetAfterMs: forgetAfterMs(options),
        sweepMs: options.sweepMs ?? 5_000,
      })
    : memoryBackend(options, { writer, tapLocally, logger, now });
  // In memory the count is this process's own and cheap: read as it is at each scrape.
  const pending = options.redis ? readAtMostEvery(PENDING_MAX_AGE_MS, async () => backend.pending()) : () => backend.pending();
  const metrics = createForwarderMetrics({
    pending,
    listenersConnected: () => backend.registry.allSlots().filter((slot) => slot.socket !== undefined).length,
    legacyWaiting: () => Object.values(options.legacyRunner?.waiting() ?? {}).reduce((sum, waiting) => sum + waiting, 0),
    ready: () => !draining && backend.ready(),
  });
  const channel = createListenerChannel({
    backend,
    writer,
    logger,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    registerTimeoutMs: options.registerTimeoutMs ?? 10_000,
    // With Redis the used tokens are shared: a token accepted by one instance is refused by every other.
    hubBinding: createHubBinding(options.hubIds ?? 'refuse', {
      replays: options.redis ? redisReplayGuard(options.redis.redis) : new MemoryReplayGuard(),
      now,
      logger,
    }),
    onAcknowledged: (id) => {
      const at = timeOf(id);
      if (at !== undefined) metrics.acknowledged(now() - at);
    },
  });

  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: checkingInterval(limits),
  });
  const legacyRunner = options.legacyRunner && countLegacyOutcomes(options.legacyRunner, metrics);
  const legacyWhileBehind = spacedWhileBehind(watchAcceptBacklog(server), options.legacySpacingWhileBehind);
  const handleIntake = createIntakeHandler({ backend, legacyRunner, limits, now, logger, metrics, legacyWhileBehind });
  let draining = false;
  /** Intake requests not yet answered and closed; `drain` waits for none. */
  let underWay = 0;
  let settled: (() => void) | undefined;
  // One function for every response (no closure made per request): a response closes once.
  const answered = () => {
    if (--underWay === 0) settled?.();
  };
  // Made before the global cap, whose listener then runs first: a connection it refuses is not counted here (address-limits.ts).
  const addresses = limitAddresses(server, { ...DEFAULT_ADDRESS_LIMITS, ...options.addressLimits });
  server.on(
    'request',
    addresses.requests((request, response) => {
      if (!connections.admits(request.socket)) return;
      // A connection busy when the drain began stays open until its request is answered; what follows on it goes elsewhere.
      if (draining) {
        metrics.intake(503);
        return writeJson(response, 503, DRAINING_BODY, { 'retry-after': '1', connection: 'close' });
      }
      underWay++;
      response.on('close', answered);
      handleIntake(request, response);
    }),
  );
  const answerAdmin = async (path: AdminPath, response: ServerResponse) => {
    if (path === '/healthz') return writeJson(response, 200, '{"status":"alive"}');
    if (path === '/readyz') {
      if (draining) return writeJson(response, 503, '{"status":"draining"}', { 'retry-after': '1' });
      return backend.ready()
        ? writeJson(response, 200, '{"status":"ready"}')
        : writeJson(response, 503, '{"status":"store unavailable"}', { 'retry-after': '1' });
    }
    const text = await metrics.registry.metrics();
    response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text);
  };
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  let refusedConnections = 0;
  // Logged the first time, then once per thousand: a flood of connections must not flood the log too.
  const connections = limitConnections(server, maxConnections, () => {
    if (refusedConnections++ % 1000 === 0) logger.warn('forwarder: connection refused, too many open', { maxConnections, refused: refusedConnections });
  });
  // Node silently ignores fields beyond maxHeadersCount; one more than allowed lets the intake see the excess.
  server.maxHeadersCount = limits.headers + 1;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  server.on(
    'upgrade',
    addresses.upgrades((request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (connections.admits(request.socket)) channel.handleUpgrade(request, socket, head);
    }),
  );

  let url: string;
  let admin: AdminListener;
  try {
    url = await listenServer(server, 'http', options.host ?? '127.0.0.1', options.port ?? 0, LISTEN_BACKLOG);
    admin = await startAdminListener({ host: options.adminHost, port: options.adminPort, logger, answer: answerAdmin });
  } catch (error) {
    channel.close();
    if (server.listening) server.close();
    await backend.close();
    throw error;
  }
  logger.info('forwarder: listening', { url, adminUrl: admin.url });
  const close = async () => {
    channel.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    // Last: through a drain the orchestrator reads /readyz 503 (draining) here.
    await admin.close();
    await backend.close();
  };
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  return {
    url,
    adminUrl: admin.url,
    stats: () => ({
      connections: connections.open,
      intakeUnderWay: underWay,
      listeners: backend.registry.size,
      resumeBufferBytes: backend.bytesInMemory(),
      legacyWaiting: options.legacyRunner?.waiting() ?? {},
    }),
    async drain() {
      if (draining) return close();
      draining = true;
      logger.info('forwarder: draining', { underWay });
      // No new connection; idle kept-alive ones close now (Node closes idle connections on close()).
      server.close();
      if (underWay > 0) await within(drainTimeoutMs, new Promise<void>((resolve) => (settled = resolve)));
      await within(drainTimeoutMs, channel.goAway());
      await close();
    },
    close,
  };
}

const forgetAfterMs = (options: ForwarderOptions) => options.forgetAfterMs ?? 10 * 60_000;

/** The caps and bounds, with their defaults: the same in memory and in Redis. */
function redisCaps(options: ForwarderOptions) {
  return {
    countCap: options.resumeBufferSize ?? DEFAULT_RESUME_BUFFER_SIZE,
    byteCap: options.resumeBufferBytes ?? DEFAULT_RESUME_BUFFER_BYTES,
    budget: options.resumeBudgetBytes ?? DEFAULT_RESUME_BUDGET_BYTES,
    maxListenersPerWebhook: options.maxListenersPerWebhook ?? DEFAULT_MAX_LISTENERS_PER_WEBHOOK,
    maxListenersPerOwner: options.maxListenersPerOwner ?? DEFAULT_MAX_LISTENERS_PER_OWNER,
  };
}

function memoryBackend(
  options: ForwarderOptions,
  context: Pick<MemoryBackendOptions, 'writer' | 'tapLocally' | 'logger'> & { now: () => number },
): ForwarderBackend {
  if (!options.store) throw new Error('startForwarder needs a store or redis');
  const budgetBytes = options.resumeBudgetBytes ?? DEFAULT_RESUME_BUDGET_BYTES;
  const budget = new ResumeBudget(budgetBytes, logBudgetEvictions(context.logger, budgetBytes));
  const registry =
    options.registry ??
    new ListenerRegistry({
      bufferCapacity: options.resumeBufferSize,
      bufferBytes: options.resumeBufferBytes,
      budget,
      maxListenersPerWebhook: options.maxListenersPerWebhook,
      maxListenersPerOwner: options.maxListenersPerOwner,
    });
  return createMemoryBackend({ ...context, store: options.store, registry, budget, ids: createMessageIds(context.now), forgetAfterMs: forgetAfterMs(options) });
}
