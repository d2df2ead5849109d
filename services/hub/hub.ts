/**
 * The reference hub (docs/interface.md §4.5, §4.6 and the ping of A.1): session login with a delegation
 * token from the cloud, the device list, the ping the app uses to choose an address, device control
 * and flows (control-routes), the realtime channel (realtime) and the official client's (official-realtime) on every listener, and, with
 * `simulate`, a home that lives on its own (simulation).
 */
import type { KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import { z } from 'zod';
import type { CapabilityValue } from '../../common/hub-control';
import { PING_NONCE_PARAM, PingNonceSchema, signPing } from '../../common/hub-identity';
import { parseJson } from '../../common/json-message';
import type { Logger } from '../../common/logger';
import {
  bearerToken,
  type ConnectionLimits,
  createServiceApp,
  type RequestLog,
  listen,
  listenSecure,
  onUpgrade,
  type SecureListener,
  sendJsonString,
} from '../shared/http-app';
import { HttpError, invalidRequest } from '../shared/http-error';
import { Params } from '../shared/params';
import { silentLogger } from '../shared/logger';
import type { ReplayGuard } from '../shared/delegation-token';
import { createDelegationVerifier } from './delegation-verifier';
import { createDemoFlows } from './demo-flows';
import type { DemoHome } from './demo-home';
import { authorise } from './hub-access';
import { type HubSession, HubSessionStore } from './hub-sessions';
import { registerControlRoutes } from './control-routes';
import { registerHomeRoutes } from './home-routes';
import { InsightsReadLimiter, type InsightsReadStats } from './insights/read-limiter';
import { createInsightsRecorder } from './insights/recorder';
import { registerInsightsRoutes } from './insights/insights-routes';
import { createOfficialRealtime, type RouteCaller } from './official-realtime';
import { createRealtimeChannel, type RealtimeOptions } from './realtime';
import { createSimulation } from './simulation';

export interface HubOptions {
  id: string;
  name: string;
  cloudIssuer: string;
  cloudPublicJwk: JWK;
  home: DemoHome;
  host?: string;
  port?: number;
  /** Also serve the same API over HTTPS (on its own port) with this key and certificate, PEM. */
  tls?: { key: string; cert: string };
  /** The HTTPS listener's port (0 or absent: any free one). */
  securePort?: number;
  /**
   * The hub's identity key (Ed25519, private): the ping signs the client's nonce with it, so a client
   * that knows the public half (the cloud's hub record) can tell this hub from an impostor. Without
   * one the hub answers a ping with its bare id, as hubs that predate identity keys do.
   */
  identityKey?: KeyObject;
  sessionTtlSec?: number;
  /** Timeouts and the connection cap of its listeners (docs/security.md); the shared defaults otherwise. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** The accepted delegation tokens; pass the same one when the hub restarts or moves. */
  replayGuard?: ReplayGuard;
  now?: () => number;
  logger?: Logger;
  /** Run the living-home simulation while the hub runs (default false: a still home for tests). */
  simulate?: boolean;
  /** Told of every HTTP request (tests count calls). */
  requestLog?: RequestLog;
  /** Realtime timings and bounds (authTimeoutMs and maxBufferedBytes also the official client's); tests shorten them. */
  realtime?: Pick<RealtimeOptions, 'authTimeoutMs' | 'heartbeatMs' | 'maxBufferedBytes' | 'closeGraceMs'>;
}

export interface RunningHub {
  id: string;
  url: string;
  /** The HTTPS base URL when started with `tls`, else null. */
  secureUrl: string | null;
  /** Ends every session: the next call with an old session token gets a 401; realtime sockets close with CLOSE_SESSION_EXPIRED. */
  expireSessions(): void;
  /**
   * What a device itself reports, as a sensor tripping (any capability, setable or not), reaching
   * realtime subscribers like any change; false when the hub refused it (unknown device or capability, wrong type).
   */
  report(deviceId: string, capabilityId: string, value: CapabilityValue): boolean;
  /** Insights entries reads under way and their peaks per session (docs/security.md, "Insights reads"). */
  insightsReads(): InsightsReadStats;
  close(): Promise<void>;
}

/** What the ping reports as the hub's software version (X-Homey-Version): the reference hub's own, not a real hub's. */
export const HUB_SOFTWARE_VERSION = '1.0.0-reference';

const LoginBodySchema = z.object({ token: z.string().min(1).max(8192) });

export async function startHub(options: HubOptions): Promise<RunningHub> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const verifier = await createDelegationVerifier({
    hubId: options.id,
    issuer: options.cloudIssuer,
    publicJwk: options.cloudPublicJwk,
    now,
    replayGuard: options.replayGuard,
  });
  const sessions = new HubSessionStore(options.sessionTtlSec ?? 86_400, now);

  const app = createServiceApp(logger, { ...options.connectionLimits, requestLog: options.requestLog });
  acceptJsonOnly(app);

  app.post('/api/manager/users/login', async (request, reply) => {
    const body = LoginBodySchema.safeParse(request.body);
    if (!body.success) throw invalidRequest('The body must be a JSON object with a string field token.');
    const result = await verifier.verify(body.data.token);
    if (!result.ok) {
      logger.warn('hub: delegation token refused', { hubId: options.id, reason: result.reason });
      throw new HttpError(401, 'invalid_token', 'The delegation token is not valid for this hub.');
    }
    logger.info('hub: session opened', { hubId: options.id, userId: result.delegation.userId, clientId: result.delegation.clientId });
    return sendJsonString(reply, sessions.open(result.delegation));
  });

  app.get('/api/manager/devices/device', async (request, reply) => {
    authorise(sessions, request, 'devices.readonly');
    return reply.header('cache-control', 'no-store').send(options.home.devices());
  });
  registerControlRoutes(app, { hubId: options.id, home: options.home, flows: createDemoFlows(options.home, now), sessions, logger });
  registerHomeRoutes(app, { home: options.home, sessions });
  const insights = createInsightsRecorder(options.home, { now });
  const insightsReads = new InsightsReadLimiter<HubSession>();
  registerInsightsRoutes(app, { insights, sessions, reads: insightsReads });

  // Ends the caller's session at once (the app signs out): its token and its realtime sockets stop working.
  app.post('/api/manager/users/logout', async (request, reply) => {
    authorise(sessions, request);
    const token = bearerToken(request)!; // authorise refused a request without one
    sessions.end(token);
    realtime.endSession(token);
    officialRealtime.endSession(token);
    logger.info('hub: session closed', { hubId: options.id });
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  // No authentication: it tells the caller which hub answers at this address and, given a nonce,
  // proves it with a signature over the nonce and the hub's id.
  app.get('/api/manager/system/ping', async (request, reply) => {
    // The official client's discovery reads these: an X-Homey-ID other than the hub it looks for rejects the address.
    reply.headers({ 'x-homey-id': options.id, 'x-homey-version': HUB_SOFTWARE_VERSION });
    const nonce = Params.ofQuery(request).optional(PING_NONCE_PARAM);
    if (nonce === undefined || options.identityKey === undefined) return sendJsonString(reply, options.id);
    if (!PingNonceSchema.safeParse(nonce).success) throw invalidRequest('nonce must be 16 to 128 base64url characters.');
    return reply.header('cache-control', 'no-store').send(signPing(options.identityKey, options.id, nonce));
  });

  const realtime = createRealtimeChannel({ hubId: options.id, home: options.home, sessions, now, logger, ...options.realtime });
  const officialRealtime = createOfficialRealtime({
    hubId: options.id,
    home: options.home,
    sessions,
    callRoute: injectedRoute(app),
    now,
    logger,
    authTimeoutMs: options.realtime?.authTimeoutMs,
    maxBufferedBytes: options.realtime?.maxBufferedBytes,
  });
  const upgrade: Parameters<typeof onUpgrade>[1] = (request, socket, head) =>
    (officialRealtime.accepts(request) ? officialRealtime : realtime).handleUpgrade(request, socket, head);
  onUpgrade(app.server, upgrade);
  const host = options.host ?? '127.0.0.1';
  let url: string;
  let secure: SecureListener | undefined;
  try {
    url = await listen(app, host, options.port ?? 0);
    if (options.tls) {
      secure = await listenSecure(app, host, options.securePort ?? 0, options.tls);
      onUpgrade(secure.server, upgrade);
    }
  } catch (error) {
    insights.stop();
    realtime.close();
    officialRealtime.close();
    await app.close();
    throw error;
  }
  const simulation = options.simulate ? createSimulation(options.home) : undefined;
  simulation?.start();
  logger.info('hub: listening', { hubId: options.id, name: options.name, url, secureUrl: secure?.url });
  return {
    id: options.id,
    url,
    secureUrl: secure?.url ?? null,
    expireSessions: () => {
      sessions.clear();
      realtime.expireAll();
      officialRealtime.expireAll();
    },
    report: (deviceId, capabilityId, value) => options.home.setCapability(deviceId, capabilityId, value, null).ok,
    insightsReads: () => insightsReads.stats(),
    close: async () => {
      simulation?.stop();
      insights.stop();
      realtime.close();
      officialRealtime.close();
      await Promise.all([secure?.close(), app.close()]);
    },
  };
}

/** The official client's `api` calls, answered by the hub's own routes with the caller's session (official-api.ts). */
function injectedRoute(app: FastifyInstance): RouteCaller {
  return async ({ method, url, token, body }) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.body === '' ? undefined : parseJson(response.body) };
  };
}

/** The hub reads JSON bodies only: anything else is a 415 before a handler runs. */
function acceptJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
}
