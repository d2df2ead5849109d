/**
 * The reference cloud (docs/interface.md §4.1–§4.4): OAuth 2.0 authorisation server with consent pages, the user
 * record, and delegation tokens for hubs. State is in memory; the stack can keep the signing key and the
 * grants in its state directory (docs/services.md, "Keeping state across a restart").
 */
import type { JWK } from 'jose';
import type { Logger } from '../../common/logger';
import { type ConnectionLimits, createServiceApp, listen, type RequestLog } from '../shared/http-app';
import { LoginThrottle } from '../shared/login-throttle';
import { silentLogger } from '../shared/logger';
import { parseFormBody } from '../shared/params';
import { registerApiRoutes } from './api-routes';
import { AuthorisationRequests } from './authorisation-requests';
import { registerAuthoriseRoutes } from './authorise-routes';
import { type ClientRegistration, ClientRegistry } from './clients';
import { createDelegationSigner, type SigningKey } from './delegation-signer';
import { type GrantPersistence, GrantStore } from './grants';
import { registerTokenRoutes } from './token-routes';
import { type HubAddresses, UserDirectory, type UserSeed } from './users';

export type { ClientRegistration } from './clients';
export type { HubAddresses, HubSeed, UserSeed } from './users';

export interface CloudOptions {
  host?: string;
  port?: number;
  clients: ClientRegistration[];
  users: UserSeed[];
  accessTokenTtlSec?: number;
  codeTtlSec?: number;
  delegationTtlSec?: number;
  refreshInactivitySec?: number;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  now?: () => number;
  /** Shown on the sign-in page (the embedded demo's account). */
  demoHint?: { email: string; password: string };
  logger?: Logger;
  /** Timeouts and connection cap; DEFAULT_CONNECTION_LIMITS for what is not given. Tests shorten them. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Told of every request (tests count calls). */
  requestLog?: RequestLog;
  /** scrypt's cost for the users' password hashes (users.ts DEFAULT_SCRYPT_COST unless given). */
  scryptCost?: number;
  /** The delegation tokens' signing key, when one is kept; a new one otherwise. */
  signingKey?: SigningKey;
  /** Grants and tokens kept across restarts; in memory only without. */
  grantPersistence?: GrantPersistence;
}

export interface RunningCloud {
  url: string;
  /** The `iss` of delegation tokens. */
  issuer: string;
  publicJwk: JWK;
  setHubAddresses(hubId: string, addresses: HubAddresses): void;
  close(): Promise<void>;
}

const SIX_MONTHS_SEC = 180 * 24 * 3600;

export async function startCloud(options: CloudOptions): Promise<RunningCloud> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const clients = new ClientRegistry(options.clients);
  const users = await UserDirectory.create(options.users, options.scryptCost);
  const grants = new GrantStore(
    {
      accessTokenTtlSec: options.accessTokenTtlSec ?? 3600,
      codeTtlSec: options.codeTtlSec ?? 30,
      refreshInactivitySec: options.refreshInactivitySec ?? SIX_MONTHS_SEC,
    },
    now,
    options.grantPersistence,
  );

  const app = createServiceApp(logger, { ...options.connectionLimits, requestLog: options.requestLog });
  // Forms are the only bodies the cloud reads; anything else is read (within the size limit) and
  // then refused by the endpoint with its own error format.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, parseFormBody);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  let url = '';
  const signer = await createDelegationSigner(() => url, options.delegationTtlSec ?? 60, now, options.signingKey);
  const requests = new AuthorisationRequests(now);
  registerAuthoriseRoutes(app, { clients, users, grants, requests, throttle: new LoginThrottle(now), logger, demoHint: options.demoHint });
  registerTokenRoutes(app, { clients, grants, accessTokenTtlSec: options.accessTokenTtlSec ?? 3600, logger });
  registerApiRoutes(app, { grants, users, signer, logger });

  url = await listen(app, options.host ?? '127.0.0.1', options.port ?? 0);
  logger.info('cloud: listening', { url });
  return {
    url,
    issuer: url,
    publicJwk: signer.publicJwk,
    setHubAddresses: (hubId, addresses) => users.setHubAddresses(hubId, addresses),
    close: async () => {
      await app.close();
    },
  };
}
