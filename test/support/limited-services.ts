/**
 * The fastify services with the connection limits of their choice (ConnectionLimits), for the tests of
 * those limits: slow-clients.test.ts (timeouts and the global cap) and address-limits.test.ts (per address).
 */
import { startCloud } from '../../services/cloud/cloud';
import { UserDirectory } from '../../services/cloud/users';
import { createWebhookStore } from '../../services/forwarder/webhook-store';
import { createDemoHome } from '../../services/hub/demo-home';
import { startHub } from '../../services/hub/hub';
import type { ConnectionLimits } from '../../services/shared/http-app';
import { startToolsPortal } from '../../services/tools/tools-portal';

export const USER = { _id: 'u1', email: 'ada@example.test', password: 'correct horse battery', firstname: 'Ada', lastname: 'Lovelace', hubs: [] };

export interface Running {
  url: string;
  close(): Promise<void>;
}

export interface ServiceUnderTest {
  name: string;
  start(limits: Partial<ConnectionLimits>): Promise<Running>;
  /** A POST whose body the service reads (path and content type). */
  post: { path: string; contentType: string };
  /** A GET it answers 200 without credentials. */
  get: string;
  /** The CA to trust, for a TLS listener. */
  ca?: string;
}

/** The hub (and the cloud it needs), serving over TLS too when given certificates; `secure` picks the URL. */
export async function startLimitedHub(connectionLimits: Partial<ConnectionLimits>, tls?: { key: string; cert: string }, secure = false): Promise<Running> {
  const cloud = await startCloud({ clients: [], users: [USER] });
  const hub = await startHub({
    id: 'h1',
    name: 'Home',
    cloudIssuer: cloud.issuer,
    cloudPublicJwk: cloud.publicJwk,
    home: createDemoHome('home'),
    connectionLimits,
    tls,
  });
  return { url: secure ? hub.secureUrl! : hub.url, close: async () => void (await Promise.all([hub.close(), cloud.close()])) };
}

export const HUB_REQUESTS = { post: { path: '/api/manager/users/login', contentType: 'application/json' }, get: '/api/manager/system/ping?id=h1' };

export const FASTIFY_SERVICES: ServiceUnderTest[] = [
  {
    name: 'cloud',
    start: (connectionLimits) => startCloud({ clients: [], users: [USER], connectionLimits }),
    post: { path: '/oauth2/token', contentType: 'application/x-www-form-urlencoded' },
    get: '/.well-known/jwks.json',
  },
  { name: 'hub', start: (limits) => startLimitedHub(limits), ...HUB_REQUESTS },
  {
    name: 'tools portal',
    start: async (connectionLimits) => startToolsPortal({ store: createWebhookStore(), users: await UserDirectory.create([USER]), connectionLimits }),
    post: { path: '/sign-in', contentType: 'application/x-www-form-urlencoded' },
    get: '/webhooks',
  },
];
