/**
 * The webhook half of the reference services: the webhook store (the demo webhook with a tap credential,
 * and one webhook per legacy fixture), the legacy sandbox, the forwarder and the developer portal. The
 * stack runs them beside the cloud and the hubs; `npm run forwarder` runs them alone, in memory or on Redis.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../common/logger';
import { formatTapCredential } from '../common/webhook-protocol';
import { UserDirectory } from './cloud/users';
import { DEMO_USER } from './demo-account';
import { type ForwarderOptions, type RunningForwarder, startForwarder } from './forwarder/forwarder';
import { loadLegacyFixtures } from './forwarder/legacy/legacy-fixtures';
import { createLegacyRunner } from './forwarder/legacy/legacy-runner';
import { connectRedis } from './forwarder/redis/redis-state';
import { createWebhookStore, newWebhookId, type WebhookRecord, type WebhookStore } from './forwarder/webhook-store';
import { type RunningToolsPortal, startToolsPortal } from './tools/tools-portal';

const DEMO_WEBHOOK_NAME = 'Demo webhook';
export const DEMO_WEBHOOK_KEY_PATH = 'body.device.id';

export interface WebhookServicesOptions {
  host: string;
  /** The forwarder's port (0: any free one). */
  port?: number;
  /** The portal's port (0: any free one). */
  portalPort?: number;
  now?: () => number;
  logger: Logger;
  /** Keep the state in this Redis (`redis://host:port`), shared with other instances; in memory without. */
  redis?: string;
  /** Passed on to the forwarder (tests shorten its drain, or let it keep a flood for a lagging listener). */
  forwarder?: Pick<
    ForwarderOptions,
    'adminHost' | 'adminPort' | 'drainTimeoutMs' | 'resumeBufferSize' | 'resumeBufferBytes' | 'resumeBudgetBytes' | 'addressLimits' | 'hubIds'
  >;
}

export interface WebhookServices {
  webhooks: WebhookStore;
  demoWebhook: WebhookRecord;
  /** The demo webhook's tap credential, as the portal shows one. */
  demoTapCredential: string;
  forwarder: RunningForwarder;
  portal: RunningToolsPortal;
  /** Closes the forwarder (cutting its connections) and the portal, then the sandbox. */
  close(): Promise<void>;
  /** As `close`, but the forwarder drains first (forwarder.ts `drain`). */
  drain(): Promise<void>;
}

export async function startWebhookServices(options: WebhookServicesOptions): Promise<WebhookServices> {
  const { host, logger } = options;
  const now = options.now ?? Date.now;
  const redis = options.redis === undefined ? undefined : await connectRedis(options.redis, { logger, now });
  const webhooks = redis?.store ?? createWebhookStore(now);
  let demo: { demoWebhook: WebhookRecord; demoTapCredential: string };
  try {
    demo = await seedDemo(webhooks, now);
  } catch (error) {
    await redis?.close();
    throw error;
  }
  const legacyRunner = createLegacyRunner();
  let forwarder: RunningForwarder | undefined;
  let portal: RunningToolsPortal | undefined;
  // The servers first: the sandbox (and Redis) must outlive any request still being handled.
  const stop = async (stopForwarder: (running: RunningForwarder) => Promise<void>) => {
    await Promise.allSettled([forwarder && stopForwarder(forwarder), portal?.close()]);
    await legacyRunner.close();
    await redis?.close();
  };
  const close = () => stop((running) => running.close());
  try {
    forwarder = await startForwarder({
      host,
      port: options.port,
      ...(redis ? { redis } : { store: webhooks }),
      legacyRunner,
      now,
      logger,
      ...options.forwarder,
    });
    // The portal signs in the same demo account as the cloud, from its own copy of the user record.
    const users = await UserDirectory.create([{ ...DEMO_USER, hubs: [] }]);
    // The cloud that proves hub ids also verifies the access tokens of the portal's JSON API.
    const hubIds = options.forwarder?.hubIds;
    const cloudUrl = typeof hubIds === 'object' ? hubIds.verify.cloudUrl : undefined;
    portal = await startToolsPortal({
      host,
      port: options.portalPort,
      store: webhooks,
      users,
      cloudUrl,
      demoHint: { email: DEMO_USER.email, password: DEMO_USER.password },
      now,
      logger,
    });
    return { webhooks, ...demo, forwarder, portal, close, drain: () => stop((running) => running.drain()) };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The demo webhook (with a key path and a tap credential) and one webhook per legacy fixture, each made
 * unless the demo account already has it by name: with Redis, a restart or another instance finds them there.
 */
async function seedDemo(webhooks: WebhookStore, now: () => number): Promise<{ demoWebhook: WebhookRecord; demoTapCredential: string }> {
  const named = (name: string) => webhooks.list(DEMO_USER._id).find((webhook) => webhook.name === name);
  const demoWebhook =
    named(DEMO_WEBHOOK_NAME) ??
    (await webhooks.setKeyPath((await webhooks.create({ name: DEMO_WEBHOOK_NAME, ownerId: DEMO_USER._id })).id, DEMO_WEBHOOK_KEY_PATH));
  const [kept] = webhooks.tapCredentials(demoWebhook.id);
  const credential = (kept && webhooks.tapCredential(demoWebhook.id, kept.id)) ?? (await webhooks.createTapCredential(demoWebhook.id));
  for (const fixture of await loadLegacyFixtures()) {
    if (named(`Legacy: ${fixture.name}`)) continue;
    await webhooks.seed({
      // Random like every webhook id: a guessable id would let anyone flood the legacy sandbox with it.
      id: newWebhookId(),
      name: `Legacy: ${fixture.name}`,
      ownerId: DEMO_USER._id,
      secret: randomBytes(32).toString('base64url'),
      keyPath: null,
      legacyFunction: fixture.source,
      createdAt: now(),
    });
  }
  return { demoWebhook, demoTapCredential: formatTapCredential(credential) };
}
