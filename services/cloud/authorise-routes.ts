/**
 * The authorisation endpoint (docs/interface.md §4.1) and its two form posts: sign-in, then consent.
 *
 * Until the client and its redirect URI are validated, every problem is shown as an HTML error page
 * and NEVER redirected (RFC 6749 §4.1.2.1: an unchecked redirect would make this an open redirector).
 * After that, request errors go back to the client as `error=` on its redirect URI, with `state`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../common/logger';
import { readCookie } from '../shared/cookies';
import { HttpError } from '../shared/http-error';
import { type LoginThrottle, throttledMessage } from '../shared/login-throttle';
import { Params } from '../shared/params';
import type { AuthorisationRequests, LoginSession, PendingRequest } from './authorisation-requests';
import { type Client, type ClientRegistry, redirectUriAllowed } from './clients';
import type { GrantStore } from './grants';
import { CONSENT_PATH, LOGIN_PATH, sendConsentPage, sendErrorPage, sendLoginPage } from './pages';
import { isValidPkceValue } from './pkce';
import type { UserDirectory } from './users';

export interface AuthoriseDeps {
  clients: ClientRegistry;
  users: UserDirectory;
  grants: GrantStore;
  requests: AuthorisationRequests;
  throttle: LoginThrottle;
  logger: Logger;
  demoHint: { email: string; password: string } | undefined;
}

const AUTHORISE_PATH = '/oauth2/authorise';
const COOKIE = 'hubdesk_login';
const MAX_STATE_LENGTH = 2048;
const MAX_CREDENTIAL_LENGTH = 1024;
const START_AGAIN = 'This sign-in page has expired or was opened in another browser. Please start signing in again from the app.';

export function registerAuthoriseRoutes(app: FastifyInstance, deps: AuthoriseDeps): void {
  const { clients, users, grants, requests, logger } = deps;

  app.get(AUTHORISE_PATH, async (request, reply) => {
    const params = Params.ofQuery(request);
    const target = validateTarget(params, clients);
    if ('problem' in target) {
      logger.warn('cloud: authorisation request refused without redirect', { reason: target.problem });
      return sendErrorPage(reply, 400, target.problem);
    }
    const { client, redirectUri, state } = target;
    let codeChallenge: string | undefined;
    try {
      codeChallenge = validateRequest(params, client);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      logger.info('cloud: authorisation request rejected', { clientId: client.id, error: error.error });
      return redirect(reply, redirectUri, { error: error.error, error_description: error.description, state });
    }
    const session = requests.session(cookie(request));
    const pending = requests.open({ clientId: client.id, redirectUri, state, codeChallenge, scopes: client.scopes }, session);
    setSessionCookie(reply, request, session);
    return sendLoginPage(reply, { requestId: pending.id, csrf: session.csrf, clientName: client.name, demoHint: deps.demoHint });
  });

  app.post(LOGIN_PATH, async (request, reply) => {
    const form = continued(request, requests);
    if (!form) return sendErrorPage(reply, 400, START_AGAIN);
    const { params, request: pending, session } = form;
    const client = clients.find(pending.clientId) as Client;
    const email = params.optional('email') ?? '';
    const password = params.optional('password') ?? '';
    const loginPage = {
      requestId: pending.id,
      csrf: session.csrf,
      clientName: client.name,
      email: email.slice(0, MAX_CREDENTIAL_LENGTH),
      demoHint: deps.demoHint,
    };
    const attempt = deps.throttle.begin(email, request.ip);
    if (!attempt.allowed) {
      // The password is not even checked: a guess made while backed off costs nothing and teaches nothing.
      logger.info('cloud: sign-in throttled', { clientId: client.id, reason: attempt.reason, retryAfterSec: attempt.retryAfterSec });
      reply.header('retry-after', String(attempt.retryAfterSec));
      return sendLoginPage(reply, { ...loginPage, error: throttledMessage(attempt) }, 429);
    }
    const plausible = email.length <= MAX_CREDENTIAL_LENGTH && password.length <= MAX_CREDENTIAL_LENGTH && email !== '' && password !== '';
    const userId = plausible ? await users.verify(email, password) : null;
    if (userId === null) {
      logger.info('cloud: sign-in failed', { clientId: client.id });
      if (!requests.failedLogin(pending)) return sendErrorPage(reply, 400, 'Too many failed sign-in attempts. Please start again from the app.');
      return sendLoginPage(reply, { ...loginPage, error: 'The e-mail address or password is incorrect.' });
    }
    attempt.succeeded();
    pending.userId = userId;
    logger.info('cloud: user signed in on the consent page', { clientId: client.id, userId });
    // The consent page is the answer to the sign-in itself: no redirect in between.
    return sendConsentPage(reply, {
      requestId: pending.id,
      csrf: session.csrf,
      clientName: client.name,
      userEmail: users.record(userId)?.email ?? '',
      scopes: pending.scopes,
      redirectUri: pending.redirectUri,
    });
  });

  app.post(CONSENT_PATH, async (request, reply) => {
    const form = continued(request, requests);
    if (!form || form.request.userId === undefined) return sendErrorPage(reply, 400, START_AGAIN);
    const { params, request: pending } = form;
    const decision = params.optional('decision');
    if (decision !== 'allow' && decision !== 'deny') return sendErrorPage(reply, 400, 'Please choose Allow or Deny.');
    requests.close(pending); // consent is answered once
    if (decision === 'deny') {
      logger.info('cloud: user denied consent', { clientId: pending.clientId });
      return redirect(reply, pending.redirectUri, { error: 'access_denied', error_description: 'The user declined.', state: pending.state });
    }
    const code = grants.issueCode({
      clientId: pending.clientId,
      userId: pending.userId as string,
      scopes: pending.scopes,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
    });
    logger.info('cloud: consent given, code issued', { clientId: pending.clientId });
    return redirect(reply, pending.redirectUri, { code, state: pending.state });
  });
}

type Target = { client: Client; redirectUri: string; state: string | undefined } | { problem: string };

/** Everything that must hold before a redirect to the client is allowed. */
function validateTarget(params: Params, clients: ClientRegistry): Target {
  for (const name of ['client_id', 'redirect_uri', 'state']) {
    if (params.isRepeated(name)) return { problem: `The request repeats the parameter ${name}.` };
  }
  const clientId = params.optional('client_id');
  if (clientId === undefined) return { problem: 'The request has no client_id.' };
  const client = clients.find(clientId);
  if (!client) return { problem: 'The application that sent you here is not registered.' };
  const redirectUri = params.optional('redirect_uri');
  if (redirectUri === undefined) return { problem: 'The request has no redirect_uri.' };
  if (!redirectUriAllowed(client, redirectUri)) return { problem: 'The redirect address is not registered for this application.' };
  const state = params.optional('state');
  if (state !== undefined && state.length > MAX_STATE_LENGTH) return { problem: 'The state parameter is too long.' };
  return { client, redirectUri, state };
}

/** The rest of the request (after the redirect is trusted); returns the PKCE challenge. Throws HttpError. */
function validateRequest(params: Params, client: Client): string | undefined {
  params.assertNoRepeats();
  // The interface names it authorization_type; OAuth 2.0 clients (the official one among them) send response_type.
  const type = params.requiredEither('authorization_type', 'response_type');
  if (type !== 'code') throw new HttpError(400, 'unsupported_response_type', 'authorization_type (response_type) must be code.');
  const challenge = params.optional('code_challenge');
  const method = params.optional('code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined) throw new HttpError(400, 'invalid_request', 'code_challenge_method without code_challenge.');
    if (client.native) throw new HttpError(400, 'invalid_request', 'code_challenge (PKCE, S256) is required for this client.');
    return undefined;
  }
  // RFC 7636 §4.3: a missing method means plain, which this server refuses.
  if (method !== 'S256') throw new HttpError(400, 'invalid_request', 'code_challenge_method must be S256.');
  if (!isValidPkceValue(challenge)) throw new HttpError(400, 'invalid_request', 'code_challenge must be 43 to 128 unreserved characters.');
  return challenge;
}

/** The pending request a form POST continues, when its form, cookie and CSRF token all check out. */
function continued(request: FastifyRequest, requests: AuthorisationRequests): { params: Params; request: PendingRequest; session: LoginSession } | undefined {
  const params = Params.ofSingleValuedForm(request.body);
  if (!params) return undefined;
  const found = requests.continue(params.optional('request'), cookie(request), params.optional('csrf'));
  return found && { params, ...found };
}

function redirect(reply: FastifyReply, redirectUri: string, query: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return reply.code(303).headers({ location: url.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).send();
}

const cookie = (request: FastifyRequest) => readCookie(request, COOKIE);

function setSessionCookie(reply: FastifyReply, request: FastifyRequest, session: LoginSession): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${COOKIE}=${session.id}; Path=${AUTHORISE_PATH}; HttpOnly; SameSite=Lax${secure}`);
}
