/**
 * The developer portal's JSON API (docs/services.md, "The portal's JSON API"): what the portal's pages do, for
 * an app acting for its signed-in user. Authenticated by the user's cloud access token (`Authorization:
 * Bearer`), which the cloud itself verifies (cloud-identity.ts); no cookie is read, so no CSRF token is needed
 * (docs/security.md, "The portal's JSON API"), and no CORS header is sent, so no web page can call it.
 *
 *   POST /api/webhooks {name}                         → 201 {id, name, secret, keyPath, createdAt}
 *   PUT  /api/webhooks/:id/key-path {keyPath|null}    → 200 {id, keyPath}
 *   POST /api/webhooks/:id/tap-credentials            → 201 {webhookId, tapCredential}
 *
 * A user manages only their own webhooks: another's is answered like an unknown one (404), as on the pages.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { KeyPathError } from '../../common/key-path';
import type { Logger } from '../../common/logger';
import { MAX_WEBHOOK_NAME_LENGTH, formatTapCredential } from '../../common/webhook-protocol';
import { TapCredentialLimitError, type WebhookRecord, type WebhookStore } from '../forwarder/webhook-store';
import { bearerToken } from '../shared/http-app';
import { HttpError, invalidRequest } from '../shared/http-error';
import type { VerifyAccessToken } from './cloud-identity';

export const PORTAL_API_PREFIX = '/api';
export const MAX_KEY_PATH_LENGTH = 512;

const CreateWebhookSchema = z.object({ name: z.string().trim().min(1).max(MAX_WEBHOOK_NAME_LENGTH) }).strict();
const KeyPathSchema = z.object({ keyPath: z.string().trim().min(1).max(MAX_KEY_PATH_LENGTH).nullable() }).strict();
const WebhookIdParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/) });

export interface PortalApiDeps {
  store: WebhookStore;
  /** Undefined when the portal knows no cloud: every call is then answered 404 with why. */
  verifyAccessToken: VerifyAccessToken | undefined;
  logger: Logger;
}

/** Registers the API under PORTAL_API_PREFIX, in its own context: JSON bodies here only, forms stay the pages'. */
export function registerPortalApi(app: FastifyInstance, deps: PortalApiDeps): void {
  void app.register(
    async (api) => {
      api.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        try {
          done(null, body === '' ? undefined : JSON.parse(body as string));
        } catch {
          done(invalidRequest('The body is not JSON.'));
        }
      });
      api.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      routes(api, deps);
    },
    { prefix: PORTAL_API_PREFIX },
  );
}

function routes(api: FastifyInstance, { store, verifyAccessToken, logger }: PortalApiDeps): void {
  const userOf = async (request: FastifyRequest): Promise<string> => {
    if (!verifyAccessToken) throw new HttpError(404, 'not_found', 'This portal knows no cloud, so it has no API; use its web pages.');
    const token = bearerToken(request);
    if (token === undefined) {
      throw new HttpError(401, 'invalid_token', 'A cloud access token is required (Authorization: Bearer).', {
        'www-authenticate': 'Bearer realm="hubdesk-portal"',
      });
    }
    const identity = await verifyAccessToken(token);
    if (identity.kind === 'user') return identity.userId;
    if (identity.kind === 'invalid') {
      throw new HttpError(401, 'invalid_token', 'The cloud says this access token is invalid, expired or revoked.', {
        'www-authenticate': 'Bearer realm="hubdesk-portal", error="invalid_token"',
      });
    }
    logger.warn('tools api: cannot verify an access token', { reason: identity.reason });
    throw new HttpError(503, 'temporarily_unavailable', 'The portal cannot reach the cloud to check the access token; try again shortly.', {
      'retry-after': '5',
    });
  };

  /** The caller's own webhook named by the path, or 404 (another user's is not told apart from none). */
  const ownWebhook = async (request: FastifyRequest): Promise<{ userId: string; webhook: WebhookRecord }> => {
    const userId = await userOf(request);
    const params = WebhookIdParams.safeParse(request.params);
    const webhook = params.success ? store.get(params.data.id) : undefined;
    if (!webhook || webhook.ownerId !== userId) throw new HttpError(404, 'not_found', 'No such webhook.');
    return { userId, webhook };
  };

  api.post('/webhooks', async (request, reply) => {
    const userId = await userOf(request);
    const { name } = parsed(CreateWebhookSchema, request.body, `{"name": "…"} with 1 to ${MAX_WEBHOOK_NAME_LENGTH} characters`);
    const created = await store.create({ name, ownerId: userId });
    logger.info('tools api: webhook created', { webhookId: created.id, ownerId: userId });
    const { id, secret, keyPath, createdAt } = created;
    return reply.code(201).send({ id, name: created.name, secret, keyPath, createdAt });
  });

  api.put('/webhooks/:id/key-path', async (request, reply) => {
    const { webhook } = await ownWebhook(request);
    const { keyPath } = parsed(KeyPathSchema, request.body, `{"keyPath": "body.device.id"} (at most ${MAX_KEY_PATH_LENGTH} characters), or {"keyPath": null}`);
    try {
      await store.setKeyPath(webhook.id, keyPath);
    } catch (error) {
      if (!(error instanceof KeyPathError)) throw error;
      throw invalidRequest(`The key path does not parse: ${error.message} (position ${error.position}).`);
    }
    logger.info('tools api: key path set', { webhookId: webhook.id });
    return reply.send({ id: webhook.id, keyPath });
  });

  api.post('/webhooks/:id/tap-credentials', async (request, reply) => {
    const { webhook } = await ownWebhook(request);
    try {
      const credential = await store.createTapCredential(webhook.id);
      logger.info('tools api: tap credential created', { webhookId: webhook.id, credentialId: credential.id });
      return await reply.code(201).send({ webhookId: webhook.id, tapCredential: formatTapCredential(credential) });
    } catch (error) {
      if (!(error instanceof TapCredentialLimitError)) throw error;
      throw new HttpError(409, 'conflict', `Not created: ${error.message}.`);
    }
  });
}

function parsed<T>(schema: z.ZodType<T>, body: unknown, expected: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw invalidRequest(`Expected a JSON body ${expected}.`);
  return result.data;
}
