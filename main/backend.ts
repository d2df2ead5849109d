/**
 * Which cloud the app talks to. Configured through the environment (all three variables, or none);
 * with none, the app starts the reference stack in-process and uses its demo client — the embedded default.
 */
import { readFileSync } from 'node:fs';
import type { BackendConfig, Logger } from './core/shared';
import { isLoopbackHost } from '../common/forward-target';

export interface BackendHandle {
  config: BackendConfig;
  close(): Promise<void>;
}

export const BACKEND_ENV = ['HUBDESK_AUTH_URL', 'HUBDESK_CLIENT_ID', 'HUBDESK_CLIENT_SECRET'] as const;
/** Optional, independent of the cloud variables: the webhook forwarder's base URL. */
export const WEBHOOK_URL_ENV = 'HUBDESK_WEBHOOK_URL';
/** Optional: the developer portal where webhooks are created, shown (and opened) by the Webhooks view when it is empty. */
export const PORTAL_URL_ENV = 'HUBDESK_PORTAL_URL';
/** Optional, with a configured cloud: a PEM file with a CA to trust besides the system ones (e.g. a hub's LAN CA). */
export const EXTRA_CA_FILE_ENV = 'HUBDESK_EXTRA_CA_FILE';

export class BackendConfigError extends Error {
  override readonly name = 'BackendConfigError';
}

/** Reads the configured backend, or null when nothing is configured. Throws on partial or bad configuration. */
export function readConfiguredBackend(env: NodeJS.ProcessEnv, redirectUri: string): BackendConfig | null {
  const present = BACKEND_ENV.filter((name) => (env[name] ?? '') !== '');
  if (present.length === 0) return null;
  if (present.length !== BACKEND_ENV.length) {
    const missing = BACKEND_ENV.filter((name) => !present.includes(name));
    throw new BackendConfigError(
      `Incomplete cloud configuration: ${missing.join(', ')} must be set too (or unset all of ${BACKEND_ENV.join(', ')} to use the built-in demo cloud).`,
    );
  }
  const authUrl = parseBaseUrl('HUBDESK_AUTH_URL', env.HUBDESK_AUTH_URL as string);
  return {
    authUrl,
    clientId: env.HUBDESK_CLIENT_ID as string,
    clientSecret: env.HUBDESK_CLIENT_SECRET as string,
    redirectUri,
    embedded: false,
    webhookUrl: readWebhookUrl(env),
    portalUrl: readPortalUrl(env),
    ...readExtraCa(env),
  };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** The CA of HUBDESK_EXTRA_CA_FILE, or nothing when it is unset. Throws when the file is unreadable or holds no certificate. */
export function readExtraCa(env: NodeJS.ProcessEnv): { trustedCaPem?: string } {
  const path = env[EXTRA_CA_FILE_ENV] ?? '';
  if (path === '') return {};
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new BackendConfigError(`${EXTRA_CA_FILE_ENV} cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : 'error'}): ${path}`);
  }
  if (!PEM_CERTIFICATE.test(pem)) throw new BackendConfigError(`${EXTRA_CA_FILE_ENV} holds no PEM certificate: ${path}`);
  return { trustedCaPem: pem };
}

/** The configured developer portal, or null when HUBDESK_PORTAL_URL is unset. */
export function readPortalUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env[PORTAL_URL_ENV] ?? '';
  return raw === '' ? null : parseBaseUrl(PORTAL_URL_ENV, raw);
}

/** The configured forwarder, or null when HUBDESK_WEBHOOK_URL is unset (webhooks then say so). */
export function readWebhookUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env[WEBHOOK_URL_ENV] ?? '';
  return raw === '' ? null : parseBaseUrl(WEBHOOK_URL_ENV, raw);
}

/** `raw` as a base URL (https, or http on loopback; no credentials, query or fragment); throws BackendConfigError saying why not, under `name`. */
export function parseBaseUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BackendConfigError(`${name} is not a URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new BackendConfigError(`${name} must use https (plain http is allowed only on loopback).`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new BackendConfigError(`${name} must be a plain base URL (no credentials, query or fragment).`);
  }
  return url.href.replace(/\/+$/, '');
}

/** The one loopback rule of the app (common/forward-target.ts): 127.0.0.1, [::1] or localhost. */
export const isLoopback = isLoopbackHost;

export async function resolveBackend(env: NodeJS.ProcessEnv, redirectUri: string, log: Logger): Promise<BackendHandle> {
  const configured = readConfiguredBackend(env, redirectUri);
  if (configured) {
    log.info('backend: using the configured cloud', { authUrl: configured.authUrl, clientId: configured.clientId });
    return { config: configured, close: async () => {} };
  }
  const configuredWebhookUrl = readWebhookUrl(env); // before starting anything: bad configuration fails fast
  const configuredPortalUrl = readPortalUrl(env);
  // Imported lazily: a configured app never loads the reference services (their own package, services/package.json;
  // docs/dependencies.md, "What the app ships").
  const { startStack, DEMO_WEBHOOK_KEY_PATH } = await import('@hubdesk/services/stack');
  // The demo home lives (thermostats drift, sensors trip) so the view moves as a real home would.
  const stack = await startStack({ simulate: true });
  log.info('backend: started the built-in demo cloud', { authUrl: stack.info.auth_url });
  // The portal is where a developer creates a webhook (its secret is shown there once, never logged).
  log.info('backend: built-in webhook forwarder and developer portal (sign in with the demo account)', {
    webhookUrl: stack.info.webhook_url,
    webhooks: `${stack.info.tools_url}/webhooks`,
  });
  return {
    config: {
      authUrl: stack.info.auth_url,
      clientId: stack.info.client.id,
      clientSecret: stack.info.client.secret,
      redirectUri,
      embedded: true,
      // An explicitly configured forwarder wins over the embedded one.
      webhookUrl: configuredWebhookUrl ?? stack.info.webhook_url,
      portalUrl: configuredPortalUrl ?? `${stack.info.tools_url}/webhooks`,
      // Offered in the Webhooks view with one button, where the forwarder is the embedded one that has it.
      ...(configuredWebhookUrl === null && {
        demoWebhook: {
          id: stack.info.webhook.id,
          secret: stack.info.webhook.secret,
          tapCredential: stack.info.webhook.tap_credential,
          keyPath: DEMO_WEBHOOK_KEY_PATH,
        },
      }),
      // The demo hub's LAN certificate comes from the stack's own CA; the embedded app trusts it.
      trustedCaPem: stack.info.ca,
    },
    close: () => stack.close(),
  };
}
