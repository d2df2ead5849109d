/**
 * The first webhook in one step (docs/webhooks-app.md, "The first webhook"): "New webhook" creates it in the
 * developer portal for the signed-in user (its JSON API, docs/services.md "The portal's JSON API", with the
 * user's cloud access token: create, key path, tap credential) and registers it with its secret and tap
 * credential, which stay in main (the secret store) and never reach the window; with the embedded demo,
 * "Use the demo webhook" registers the demo forwarder's ready one. Both answer the view and a first message
 * to send (common/first-message.ts). A registration the forwarder no longer knows (`gone`) is created again
 * the way it was made, and the old one removed; one made from the demo webhook is re-pointed at start when
 * the demo forwarder came back with a new one (it keeps no state across restarts of the app).
 */
import { z } from 'zod';
import { AppError } from '../../../common/app-error';
import { type FirstMessage, firstMessage } from '../../../common/first-message';
import type { FirstWebhook, NewWebhookInput, WebhookRouting, WebhookView } from '../../../common/ipc-contract';
import { intakeUrl } from '../../../common/webhook-protocol';
import type { AccessTokenCaller } from '../sign-in';
import type { HttpOutcome, HttpRequest } from '../shared';
import type { BackendConfig, KeyValueStore, Logger } from '../shared';
import type { WebhookListener } from './webhook-listener';

export const PORTAL_TIMEOUT_MS = 15_000;
/** Used for key values when the user names none (the demo webhook's too). */
export const DEFAULT_KEY_PATH = 'body.device.id';
const ORIGIN_KEY = (id: string) => `webhooks:origin:${id}`;

/** How a registration was made, to make it again: kept in settings beside it (no secret in it). */
const OriginSchema = z.object({ source: z.enum(['portal', 'demo']), name: z.string().min(1).max(100), keyPath: z.string().min(1).max(512).nullable() });
type Origin = z.infer<typeof OriginSchema>;

const CreatedSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/), secret: z.string().min(8).max(512) });
const KeyPathSetSchema = z.object({ keyPath: z.string().nullable() });
const TapCreatedSchema = z.object({ tapCredential: z.string().min(1).max(324) });

export interface WebhookCreationDeps {
  backend: Pick<BackendConfig, 'portalUrl' | 'webhookUrl' | 'demoWebhook'>;
  listener: Pick<WebhookListener, 'add' | 'remove' | 'list'>;
  cloud: AccessTokenCaller;
  store: KeyValueStore;
  logger: Logger;
  lifetime?: AbortSignal;
}

export interface WebhookCreation {
  create(input: NewWebhookInput): Promise<FirstWebhook>;
  useDemo(routing: WebhookRouting): Promise<FirstWebhook>;
  /** Makes a `gone` registration again (a new webhook, the same routing) and removes the old one. */
  recreate(id: string): Promise<FirstWebhook>;
  /** At start: registrations made from an earlier run's demo webhook are moved to this run's. */
  renewDemoRegistrations(): Promise<void>;
}

/** The portal's JSON API beside its page: `api/webhooks` resolved against the portal's address. */
export const portalApiUrl = (portalUrl: string) => new URL('api/webhooks', portalUrl).href;

export function createWebhookCreation(deps: WebhookCreationDeps): WebhookCreation {
  const { backend, listener, store, logger } = deps;

  const originOf = (id: string): Origin | undefined => {
    const parsed = OriginSchema.safeParse(store.get(ORIGIN_KEY(id)));
    return parsed.success ? parsed.data : undefined;
  };

  const example = (view: WebhookView, keyPath: string | null): FirstMessage | null =>
    backend.webhookUrl === null ? null : firstMessage(intakeUrl(backend.webhookUrl, view.id), view.routing, keyPath);

  const portalCall = async <T>(method: HttpRequest['method'], url: string, body: unknown, schema: z.ZodType<T>, what: string): Promise<T> => {
    const outcome: HttpOutcome<T> = await deps.cloud.withAccessToken(
      (accessToken) => ({
        method,
        url,
        headers: { authorization: `Bearer ${accessToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: PORTAL_TIMEOUT_MS,
        signal: deps.lifetime,
      }),
      schema,
    );
    if (outcome.kind === 'ok') return outcome.value;
    const origin = new URL(url).origin;
    logger.warn(`webhooks: the portal's ${what} failed`, { kind: outcome.kind, ...(outcome.kind === 'status' && { status: outcome.status }) });
    if (outcome.kind === 'network') throw new AppError('cloud-unreachable', `Hubdesk could not reach the developer portal at ${origin}.`);
    if (outcome.kind === 'malformed') throw new AppError('cloud-error', 'The developer portal sent an answer Hubdesk could not understand.');
    // The portal's own words say what was wrong (a key path that does not parse); shown as one bounded line.
    const said = outcome.error?.error_description?.replace(/[\p{Cc}\p{Cf}]/gu, ' ').slice(0, 300);
    throw new AppError(outcome.status === 400 ? 'invalid-argument' : 'cloud-error', `The developer portal refused: ${said ?? `HTTP ${outcome.status}`}`);
  };

  const register = async (
    origin: Origin,
    input: { id: string; secret: string; tapCredential: string; routing: WebhookRouting; label?: string },
  ): Promise<FirstWebhook> => {
    store.set(ORIGIN_KEY(input.id), origin);
    const view = await listener.add(input);
    return { view, example: example(view, origin.keyPath) };
  };

  /** `label`: the user's label of a registration made again, kept. */
  const create = async (input: NewWebhookInput, label?: string): Promise<FirstWebhook> => {
    if (!backend.portalUrl) throw new AppError('invalid-argument', 'No developer portal is configured (set HUBDESK_PORTAL_URL).');
    const api = portalApiUrl(backend.portalUrl);
    const keyPath = input.routing.kind === 'keys' ? (input.keyPath ?? DEFAULT_KEY_PATH) : null;
    const created = await portalCall('POST', api, { name: input.name }, CreatedSchema, 'webhook creation');
    const at = `${api}/${encodeURIComponent(created.id)}`;
    if (keyPath !== null) await portalCall('PUT', `${at}/key-path`, { keyPath }, KeyPathSetSchema, 'key path');
    const { tapCredential } = await portalCall('POST', `${at}/tap-credentials`, undefined, TapCreatedSchema, 'tap credential');
    logger.info('webhooks: created in the developer portal', { webhookId: created.id });
    return register(
      { source: 'portal', name: input.name, keyPath },
      { id: created.id, secret: created.secret, tapCredential, routing: input.routing, ...(label !== undefined && { label }) },
    );
  };

  const useDemo = async (routing: WebhookRouting, label?: string): Promise<FirstWebhook> => {
    const demo = backend.demoWebhook;
    if (!demo) throw new AppError('invalid-argument', 'There is no demo webhook: Hubdesk is not using its built-in forwarder.');
    return register(
      { source: 'demo', name: 'Demo webhook', keyPath: demo.keyPath },
      { id: demo.id, secret: demo.secret, tapCredential: demo.tapCredential, routing, ...(label !== undefined && { label }) },
    );
  };

  const replace = async (old: WebhookView, made: Promise<FirstWebhook>): Promise<FirstWebhook> => {
    const first = await made;
    if (first.view.id !== old.id) {
      listener.remove(old.id);
      store.delete(ORIGIN_KEY(old.id));
    }
    return first;
  };

  return {
    create: (input) => create(input),
    useDemo: (routing) => useDemo(routing),
    async recreate(id) {
      const old = listener.list().find((view) => view.id === id);
      if (!old) throw new AppError('invalid-argument', 'There is no such webhook in Hubdesk.');
      const origin = originOf(id);
      if (origin?.source === 'demo' && backend.demoWebhook) return replace(old, useDemo(old.routing, old.label));
      const name = origin?.name ?? old.webhookName ?? old.label ?? 'Webhook';
      return replace(old, create({ name, routing: old.routing, ...(origin?.keyPath && { keyPath: origin.keyPath }) }, old.label));
    },
    async renewDemoRegistrations() {
      const demo = backend.demoWebhook;
      if (!demo) return;
      for (const view of listener.list()) {
        if (view.id === demo.id || originOf(view.id)?.source !== 'demo') continue;
        logger.info('webhooks: the demo forwarder restarted; registering with its demo webhook again', { webhookId: view.id });
        await replace(view, useDemo(view.routing, view.label));
      }
    },
  };
}
