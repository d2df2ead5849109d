/**
 * The cloud API called with an access token (docs/interface.md §4.3, §4.4) and the public key set hubs verify
 * delegation tokens with. A missing, unknown, expired or revoked token is a 401 with an RFC 6750
 * `WWW-Authenticate` challenge.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '../../common/logger';
import { bearerToken, sendJsonString } from '../shared/http-app';
import { HttpError, invalidRequest } from '../shared/http-error';
import { Params } from '../shared/params';
import type { DelegationSigner } from './delegation-signer';
import type { Authorisation, GrantStore } from './grants';
import type { UserDirectory } from './users';

export interface ApiDeps {
  grants: GrantStore;
  users: UserDirectory;
  signer: DelegationSigner;
  logger: Logger;
}

const HUB_AUDIENCES = new Set(['hub', 'homey']);

export function registerApiRoutes(app: FastifyInstance, { grants, users, signer, logger }: ApiDeps): void {
  const authorised = (request: FastifyRequest): Authorisation => {
    const token = bearerToken(request);
    if (token === undefined) {
      // RFC 6750 §3.1: no error code when the request carried no credential at all.
      throw new HttpError(401, 'invalid_token', 'An access token is required (Authorization: Bearer).', { 'www-authenticate': 'Bearer realm="hubdesk"' });
    }
    const authorisation = grants.authorise(token);
    if (!authorisation || !users.record(authorisation.userId)) {
      throw new HttpError(401, 'invalid_token', 'The access token is invalid, expired or revoked.', {
        'www-authenticate': 'Bearer realm="hubdesk", error="invalid_token"',
      });
    }
    return authorisation;
  };

  app.get('/user/me', async (request, reply) => {
    const { userId } = authorised(request);
    return reply
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(users.publicRecord(userId)));
  });

  app.post('/delegation/token', async (request, reply) => {
    const { userId, clientId, scopes } = authorised(request);
    const params = Params.ofQuery(request);
    params.assertNoRepeats();
    // `homey` is the official client's name for the same audience; the token says `hub` either way.
    if (!HUB_AUDIENCES.has(params.optional('audience') ?? '')) throw invalidRequest('audience must be hub (or its synonym homey).');
    const hub = params.optional('hub');
    if (hub !== undefined && !users.ownsHub(userId, hub)) throw new HttpError(404, 'not_found', 'No such hub in this account.');
    const token = await signer.sign({ sub: userId, scope: scopes.join(' '), hubs: hub === undefined ? users.hubIds(userId) : [hub], client_id: clientId });
    logger.info('cloud: delegation token issued', { clientId, userId, hub: hub ?? '(all)' });
    return sendJsonString(reply, token);
  });

  app.get('/.well-known/jwks.json', async (_request, reply) => reply.header('cache-control', 'max-age=300').send({ keys: [signer.publicJwk] }));
}
