/**
 * The token endpoint (docs/interface.md §4.2): code exchange and refresh, HTTP Basic client authentication, and
 * RFC 6749 §5.1/§5.2 responses. Any content type other than a form is a 400 invalid_request (the
 * error format of this endpoint is RFC 6749's, which has no 415).
 */
import type { FastifyInstance } from 'fastify';
import type { TokenObject } from '../../common/wire';
import type { Logger } from '../../common/logger';
import { HttpError, invalidRequest } from '../shared/http-error';
import { Params } from '../shared/params';
import type { ClientRegistry } from './clients';
import type { GrantResult, GrantStore } from './grants';

export interface TokenDeps {
  clients: ClientRegistry;
  grants: GrantStore;
  accessTokenTtlSec: number;
  logger: Logger;
}

export function registerTokenRoutes(app: FastifyInstance, { clients, grants, accessTokenTtlSec, logger }: TokenDeps): void {
  app.post('/oauth2/token', async (request, reply) => {
    const client = clients.authenticate(request.headers.authorization);
    const params = Params.ofForm(request.body);
    params.assertNoRepeats();
    const grantType = params.required('grant_type');
    let result: GrantResult;
    switch (grantType) {
      case 'authorization_code':
        // `code` is RFC 6749's name (the official client sends it), `authorization_code` the interface's.
        result = grants.redeemCode(params.requiredEither('authorization_code', 'code'), client.id, params.optional('code_verifier'), redirectUriParam(params));
        break;
      case 'refresh_token':
        result = grants.refresh(params.required('refresh_token'), client.id);
        break;
      default:
        throw new HttpError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
    if (!result.ok) {
      (result.revokedGrant ? logger.warn : logger.info)('cloud: token request refused', { clientId: client.id, grantType, reason: result.reason });
      throw new HttpError(400, 'invalid_grant', result.reason);
    }
    logger.info('cloud: tokens issued', { clientId: client.id, grantType });
    const body: TokenObject = {
      token_type: 'bearer',
      grant_type: 'authorization_code', // docs/interface.md §2.1: the refresh response carries this value too
      access_token: result.tokens.accessToken,
      refresh_token: result.tokens.refreshToken,
      expires_in: String(accessTokenTtlSec),
    };
    return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).type('application/json; charset=utf-8').send(JSON.stringify(body));
  });
}

/** The longest redirect_uri read; registered ones are far shorter. */
const MAX_REDIRECT_URI_LENGTH = 2048;

/**
 * The optional redirect_uri of a code exchange (RFC 6749 §4.1.3), compared with the authorisation's by
 * GrantStore.redeemCode. One that is not an absolute URI is a malformed request (invalid_request): it
 * is refused before the code is looked at, so the code stays usable.
 */
function redirectUriParam(params: Params): string | undefined {
  const value = params.optional('redirect_uri');
  if (value !== undefined && (value.length > MAX_REDIRECT_URI_LENGTH || !URL.canParse(value))) throw invalidRequest('redirect_uri must be an absolute URI.');
  return value;
}
