/**
 * `npm run forwarder -- [--host H] [--port N] [--admin-host A] [--admin-port P] [--portal-port M] [--redis redis://host:port] [--trusted-proxy A,…] [--cloud-url U | --trust-hub-ids]`: the webhook
 * forwarder and its developer portal on their own, without the cloud and the hubs (docs/services.md,
 * "Running the forwarder alone"). State is kept in memory, as in the stack, or in Redis, shared with any
 * other instance on the same Redis: the demo account signs in to the portal, with the demo webhook and
 * the legacy fixtures (made by the first instance, found by the others).
 *
 * Prints exactly one line on stdout once both answer: `{"webhook_url", "tools_url", "admin_url", "health":
 * {…} (on the admin listener), "user", "webhook"}`; all logging goes to stderr. On SIGINT or SIGTERM it drains (forwarder.ts
 * `drain`: no new intake, the requests under way answered, listeners told to reconnect elsewhere with
 * CLOSE_GOING_AWAY) and exits 0. A bad option is answered with the usage on stderr and exit code 2.
 *
 * A listener registration naming a hub is checked against the cloud given with `--cloud-url` (a delegation
 * token for that hub: forwarder/hub-binding.ts); without one it is refused, unless `--trust-hub-ids` says
 * that any holder of a webhook secret may name any hub (docs/security.md, "A listener's hub id is proven").
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createConsoleLogger } from '../common/logger';
import { DEMO_USER } from './demo-account';
import { exemptList } from './shared/address-limits';
import type { HubIdPolicy } from './forwarder/hub-binding';
import { exitOnSignals } from '../common/exit-on-signals';
import { startWebhookServices, type WebhookServices } from './webhook-services';
import { errorMessage } from '../common/error-message';

const USAGE = `Usage: npm run forwarder -- [--host H] [--port N] [--admin-host A] [--admin-port P] [--portal-port M] [--redis URL] [--trusted-proxy A,…] [--cloud-url U | --trust-hub-ids]
  --host H          address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --port N          the forwarder's public port: intake and listener channel (default 0: any free port)
  --admin-host A    address of the admin listener, /healthz, /readyz and /metrics (default 127.0.0.1: this
                    host only; give a private address for a scraper elsewhere, never a public one)
  --admin-port P    the admin listener's port (default 0: any free port)
  --portal-port M   the developer portal's port (default 0: any free port)
  --redis URL       keep webhooks, registrations and pending messages in this Redis (redis://host:port or
                    rediss://…), shared with every instance given the same URL (default: in memory)
  --trusted-proxy A,…  addresses or CIDR blocks of a reverse proxy in front (nginx): their connections count
                    against the global limits only, not the per-address ones (default: none)
  --cloud-url U     the cloud (https, or http on loopback) whose delegation tokens prove a listener's hub id:
                    a registration naming a hub needs a fresh one for that hub (keys read from
                    U/.well-known/jwks.json). Without it, registrations naming a hub are refused
  --trust-hub-ids   instead of --cloud-url: accept any hub id on the webhook secret alone (any holder of the
                    secret may receive any hub's ?hub= traffic; only where every holder is trusted)`;

const logger = createConsoleLogger('forwarder');

interface CliOptions {
  host: string;
  port: number;
  adminHost: string;
  adminPort: number;
  portalPort: number;
  redis: string | undefined;
  trustedProxies: string[];
  hubIds: HubIdPolicy;
}

/** The options, or the reason they are not valid. */
export function parseForwarderArgs(args: readonly string[]): { ok: true; options: CliOptions } | { ok: false; error: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'admin-host': { type: 'string' },
        'admin-port': { type: 'string' },
        'portal-port': { type: 'string' },
        redis: { type: 'string' },
        'trusted-proxy': { type: 'string' },
        'cloud-url': { type: 'string' },
        'trust-hub-ids': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
  const text = (name: string): string | undefined => values[name] as string | undefined;
  const port = portOf('--port', text('port'));
  if (typeof port === 'string') return { ok: false, error: port };
  const adminPort = portOf('--admin-port', text('admin-port'));
  if (typeof adminPort === 'string') return { ok: false, error: adminPort };
  const portalPort = portOf('--portal-port', text('portal-port'));
  if (typeof portalPort === 'string') return { ok: false, error: portalPort };
  const host = text('host') ?? '127.0.0.1';
  if (host.trim() === '') return { ok: false, error: '--host must not be empty' };
  // Not --host's: an intake on every interface leaves the admin listener on loopback (docs/security.md, "The forwarder's admin listener").
  const adminHost = text('admin-host') ?? '127.0.0.1';
  if (adminHost.trim() === '') return { ok: false, error: '--admin-host must not be empty' };
  const redis = text('redis');
  // Not echoed: a URL may hold a password.
  if (redis !== undefined && !isRedisUrl(redis)) return { ok: false, error: '--redis must be a redis:// or rediss:// URL with a host' };
  const trustedProxies = (text('trusted-proxy') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  try {
    exemptList(trustedProxies);
  } catch (error) {
    return { ok: false, error: `--trusted-proxy: ${(error as Error).message}` };
  }
  const hubIds = hubIdPolicy(text('cloud-url'), values['trust-hub-ids'] === true);
  if ('error' in hubIds) return { ok: false, error: hubIds.error };
  return { ok: true, options: { host, port, adminHost, adminPort, portalPort, redis, trustedProxies, hubIds: hubIds.policy } };
}

/** The policy the two options choose, or why they do not. */
function hubIdPolicy(cloudUrl: string | undefined, trust: boolean): { policy: HubIdPolicy } | { error: string } {
  if (cloudUrl !== undefined && trust) return { error: '--cloud-url and --trust-hub-ids exclude each other: with a cloud, hub ids are checked' };
  if (cloudUrl === undefined) return { policy: trust ? 'trust' : 'refuse' };
  return isCloudUrl(cloudUrl)
    ? { policy: { verify: { cloudUrl } } }
    : { error: '--cloud-url must be an https:// URL (http:// on loopback only) without credentials, query or fragment' };
}

/** The key set is fetched from it: in the clear only on this host. */
function isCloudUrl(text: string): boolean {
  try {
    const url = new URL(text);
    const loopback = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
    return (
      (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === ''
    );
  } catch {
    return false;
  }
}

function isRedisUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function portOf(name: string, value: string | undefined): number | string {
  if (value === undefined) return 0;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  return port >= 0 && port <= 65_535 ? port : `${name} must be a port number from 0 to 65535, not "${value}"`;
}

async function main(): Promise<void> {
  const parsed = parseForwarderArgs(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n${USAGE}\n`);
    process.exit(2);
  }
  const { host, port, adminHost, adminPort, portalPort, redis, trustedProxies, hubIds } = parsed.options;
  if (hubIds === 'trust') logger.warn('forwarder: --trust-hub-ids: any holder of a webhook secret may register as any hub and receive its ?hub= traffic');
  if (hubIds === 'refuse') logger.info('forwarder: no --cloud-url: listener registrations naming a hub are refused');
  let services: WebhookServices;
  try {
    services = await startWebhookServices({
      host,
      port,
      portalPort,
      redis,
      logger,
      forwarder: { adminHost, adminPort, addressLimits: { exemptAddresses: trustedProxies }, hubIds },
    });
  } catch (error) {
    logger.error('forwarder: failed to start', { error: errorMessage(error) });
    process.exit(1);
  }
  const { forwarder, portal, demoWebhook, demoTapCredential } = services;
  const info = {
    webhook_url: forwarder.url,
    tools_url: portal.url,
    admin_url: forwarder.adminUrl,
    health: { alive: `${forwarder.adminUrl}/healthz`, ready: `${forwarder.adminUrl}/readyz`, metrics: `${forwarder.adminUrl}/metrics` },
    user: { email: DEMO_USER.email, password: DEMO_USER.password },
    webhook: { id: demoWebhook.id, name: demoWebhook.name, secret: demoWebhook.secret, tap_credential: demoTapCredential },
  };
  process.stdout.write(JSON.stringify(info) + '\n');
  logger.info('forwarder: ready', { webhook_url: forwarder.url, tools_url: portal.url, admin_url: forwarder.adminUrl });

  exitOnSignals(logger, 'forwarder', async () => {
    await services.drain();
  });
}

// Run as a program (`node out/services/forwarder-cli.js`, `node --import tsx services/forwarder-cli.ts`), not when imported by a test.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
