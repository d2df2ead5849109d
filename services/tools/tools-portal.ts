/**
 * The developer portal (`{tools_url}/webhooks`, docs/interface.md §2.6): sign in with a cloud account, list your
 * webhooks, "New Webhook" (id + secret, the secret shown once), set or clear a webhook's key path, and
 * create ("New tap credential", shown once) or revoke the owner's tap credentials (webhook-store.ts).
 * Server-rendered forms only; every POST needs the session cookie and its CSRF token, and acts only on
 * a webhook of the signed-in user (another's is answered like an unknown one, 404). With a cloud
 * (`cloudUrl`), the same under `/api` as JSON for an app holding the user's access token (portal-api.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KeyPathError } from '../../common/key-path';
import { MAX_WEBHOOK_NAME_LENGTH } from '../../common/webhook-protocol';
import type { Logger } from '../../common/logger';
import type { UserDirectory } from '../cloud/users';
import { sendErrorPage } from '../cloud/pages';
import { TapCredentialLimitError, type WebhookRecord, type WebhookStore } from '../forwarder/webhook-store';
import { readCookie } from '../shared/cookies';
import { type ConnectionLimits, createServiceApp, listen } from '../shared/http-app';
import { LoginThrottle, throttledMessage } from '../shared/login-throttle';
import { silentLogger } from '../shared/logger';
import { Params, parseFormBody } from '../shared/params';
import { cloudIdentityVerifier } from './cloud-identity';
import { registerPortalApi } from './portal-api';
import { SIGN_IN_PATH, SIGN_OUT_PATH, WEBHOOKS_PATH, sendSignInPage, sendWebhooksPage, type WebhooksPage } from './portal-pages';
import { MAX_FAILED_SIGN_INS, type PortalSession, PortalSessions } from './portal-sessions';

export interface ToolsPortalOptions {
  host?: string;
  port?: number;
  store: WebhookStore;
  users: UserDirectory;
  /** Shown on the sign-in page (the embedded demo's account). */
  demoHint?: { email: string; password: string };
  /** The cloud whose access tokens the JSON API takes (verified at `{cloudUrl}/user/me`); without it the API answers 404. */
  cloudUrl?: string;
  now?: () => number;
  logger?: Logger;
  /** Timeouts and connection cap; DEFAULT_CONNECTION_LIMITS for what is not given. Tests shorten them. */
  connectionLimits?: Partial<ConnectionLimits>;
}

export interface RunningToolsPortal {
  url: string;
  close(): Promise<void>;
}

const COOKIE = 'hubdesk_tools';
const MAX_CREDENTIAL_LENGTH = 1024;
const START_AGAIN = 'This page has expired. Please open the portal again.';

export async function startToolsPortal(options: ToolsPortalOptions): Promise<RunningToolsPortal> {
  const { store, users } = options;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const sessions = new PortalSessions(now);
  const throttle = new LoginThrottle(now);
  const app = createServiceApp(logger, options.connectionLimits);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, parseFormBody);
  registerPortalApi(app, { store, verifyAccessToken: options.cloudUrl === undefined ? undefined : cloudIdentityVerifier(options.cloudUrl), logger });

  const listPage = (session: SignedIn, extra: Partial<WebhooksPage> = {}): WebhooksPage => {
    const webhooks = store.list(session.userId);
    return {
      csrf: session.csrf,
      email: users.record(session.userId)?.email ?? '',
      webhooks,
      tapCredentials: new Map(webhooks.map((webhook) => [webhook.id, store.tapCredentials(webhook.id)])),
      ...extra,
    };
  };

  /** A signed-in form POST about one of the user's own webhooks; otherwise the answer has been sent. */
  const ownWebhookForm = (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
  ): { params: Params; session: SignedIn; webhook: WebhookRecord } | undefined => {
    const form = signedInForm(request, sessions);
    if (!form) {
      sendErrorPage(reply, 400, START_AGAIN);
      return undefined;
    }
    const webhook = store.get(request.params.id);
    if (webhook && webhook.ownerId === form.session.userId) return { ...form, webhook };
    sendWebhooksPage(reply, 404, listPage(form.session, { error: 'No such webhook.' }));
    return undefined;
  };

  app.get('/', async (_request, reply) => reply.code(303).header('location', WEBHOOKS_PATH).send());

  app.get(WEBHOOKS_PATH, async (request, reply) => {
    const session = sessions.find(cookie(request));
    if (session && isSignedIn(session)) return sendWebhooksPage(reply, 200, listPage(session));
    const anonymous = session ?? sessions.open(undefined);
    setCookie(reply, anonymous);
    return sendSignInPage(reply, 200, { csrf: anonymous.csrf, demoHint: options.demoHint });
  });

  app.post(SIGN_IN_PATH, async (request, reply) => {
    const form = verifiedForm(request, sessions);
    if (!form) return sendErrorPage(reply, 400, START_AGAIN);
    const { params, session } = form;
    const email = params.optional('email') ?? '';
    const password = params.optional('password') ?? '';
    const signInPage = { csrf: session.csrf, email: email.slice(0, MAX_CREDENTIAL_LENGTH), demoHint: options.demoHint };
    const attempt = throttle.begin(email, request.ip);
    if (!attempt.allowed) {
      // The password is not even checked: a guess made while backed off costs nothing and teaches nothing.
      logger.info('tools: sign-in throttled', { reason: attempt.reason, retryAfterSec: attempt.retryAfterSec });
      reply.header('retry-after', String(attempt.retryAfterSec));
      return sendSignInPage(reply, 429, { ...signInPage, error: throttledMessage(attempt) });
    }
    const plausible = email !== '' && password !== '' && email.length <= MAX_CREDENTIAL_LENGTH && password.length <= MAX_CREDENTIAL_LENGTH;
    const userId = plausible ? await users.verify(email, password) : null;
    if (userId === null) {
      logger.info('tools: sign-in failed');
      if (++session.failedSignIns >= MAX_FAILED_SIGN_INS) {
        sessions.end(session);
        return sendErrorPage(reply, 400, 'Too many failed sign-in attempts. Please open the portal again.');
      }
      return sendSignInPage(reply, 401, { ...signInPage, error: 'The e-mail address or password is incorrect.' });
    }
    attempt.succeeded();
    sessions.end(session);
    setCookie(reply, sessions.open(userId));
    logger.info('tools: user signed in', { userId });
    return reply.code(303).header('location', WEBHOOKS_PATH).send();
  });

  app.post(SIGN_OUT_PATH, async (request, reply) => {
    const form = verifiedForm(request, sessions);
    if (form) sessions.end(form.session);
    return reply.code(303).header('location', WEBHOOKS_PATH).send();
  });

  app.post(WEBHOOKS_PATH, async (request, reply) => {
    const form = signedInForm(request, sessions);
    if (!form) return sendErrorPage(reply, 400, START_AGAIN);
    const { params, session } = form;
    const name = (params.optional('name') ?? '').trim();
    if (name === '' || name.length > MAX_WEBHOOK_NAME_LENGTH) {
      return sendWebhooksPage(reply, 400, listPage(session, { error: `A webhook name has 1 to ${MAX_WEBHOOK_NAME_LENGTH} characters.` }));
    }
    const created = await store.create({ name, ownerId: session.userId });
    logger.info('tools: webhook created', { webhookId: created.id, ownerId: session.userId });
    // The answer to the POST itself carries the secret: it never sits in a URL or a later page.
    return sendWebhooksPage(reply, 201, listPage(session, { created }));
  });

  app.post<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id/key-path`, async (request, reply) => {
    const form = ownWebhookForm(request, reply);
    if (!form) return reply;
    const { params, session, webhook } = form;
    const source = params.optional('keyPath')?.trim();
    try {
      await store.setKeyPath(webhook.id, source ?? null);
    } catch (error) {
      if (!(error instanceof KeyPathError)) throw error;
      const keyPathProblem = { webhookId: webhook.id, source: source ?? '', message: error.message, position: error.position };
      return sendWebhooksPage(reply, 400, listPage(session, { keyPathProblem }));
    }
    logger.info('tools: key path set', { webhookId: webhook.id });
    return reply.code(303).header('location', WEBHOOKS_PATH).send();
  });

  app.post<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id/tap-credentials`, async (request, reply) => {
    const form = ownWebhookForm(request, reply);
    if (!form) return reply;
    const { session, webhook } = form;
    let credential;
    try {
      credential = await store.createTapCredential(webhook.id);
    } catch (error) {
      if (!(error instanceof TapCredentialLimitError)) throw error;
      return sendWebhooksPage(reply, 400, listPage(session, { error: `Not created: ${error.message}.` }));
    }
    logger.info('tools: tap credential created', { webhookId: webhook.id, credentialId: credential.id });
    // Like a new webhook's secret: only in the answer to this POST, never in a URL or a later page.
    return sendWebhooksPage(reply, 201, listPage(session, { createdTap: { webhook, credential } }));
  });

  app.post<{ Params: { id: string; credentialId: string } }>(`${WEBHOOKS_PATH}/:id/tap-credentials/:credentialId/revoke`, async (request, reply) => {
    const form = ownWebhookForm(request, reply);
    if (!form) return reply;
    const { session, webhook } = form;
    if (!(await store.revokeTapCredential(webhook.id, request.params.credentialId))) {
      return sendWebhooksPage(reply, 404, listPage(session, { error: 'No such tap credential (it may have been revoked already).' }));
    }
    logger.info('tools: tap credential revoked', { webhookId: webhook.id, credentialId: request.params.credentialId });
    return reply.code(303).header('location', WEBHOOKS_PATH).send();
  });

  const url = await listen(app, options.host ?? '127.0.0.1', options.port ?? 0);
  logger.info('tools: listening', { url });
  return {
    url,
    close: async () => {
      await app.close();
    },
  };
}

type SignedIn = PortalSession & { userId: string };

const isSignedIn = (session: PortalSession): session is SignedIn => session.userId !== undefined;

/** A form POST whose cookie names a live session and whose CSRF token matches it. */
function verifiedForm(request: FastifyRequest, sessions: PortalSessions): { params: Params; session: PortalSession } | undefined {
  const params = Params.ofSingleValuedForm(request.body);
  if (!params) return undefined;
  const session = sessions.find(cookie(request));
  return session && sessions.csrfMatches(session, params.optional('csrf')) ? { params, session } : undefined;
}

function signedInForm(request: FastifyRequest, sessions: PortalSessions): { params: Params; session: SignedIn } | undefined {
  const form = verifiedForm(request, sessions);
  return form && isSignedIn(form.session) ? { params: form.params, session: form.session } : undefined;
}

const cookie = (request: FastifyRequest) => readCookie(request, COOKIE);

function setCookie(reply: FastifyReply, session: PortalSession): void {
  const secure = reply.request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax${secure}`);
}
