/**
 * `npm run forwarder -- [--host H] [--port N] [--admin-host A] [--admin-port P] [--portal-port M] [--redis redis://host:port] [--trusted-proxy A,…]`: the webhook
 * forwarder and its developer portal on their own, without the cloud and the hubs (docs/services.md,
 * "Running the forwarder alone"). State is kept in memory, as in the stack, or in Redis, shared with any
 * other instance on the same Redis: the demo account signs in to the portal, with the demo webhook and
 * the legacy fixtures (made by the first instance, found by the others).
 *
 * Prints exactly one line on stdout once both answer: `{"webhook_url", "tools_url", "admin_url", "health":
 * {…} (on the admin listener), "user", "webhook"}`; all logging goes to stderr. On SIGINT or SIGTERM it drains (forwarder.ts
 * `drain`: no new intake, the requests under way answered, listeners told to reconnect elsewhere with
 * CLOSE_GOING_AWAY) and exits 0. A bad option is answered with the usage on stderr and exit code 2.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createConsoleLogger } from '../common/logger';
import { DEMO_USER } from './demo-account';
import { exemptList } from './shared/address-limits';
import { exitOnSignals } from './shared/exit-on-signals';
import { startWebhookServices, type WebhookServices } from './webhook-services';

const USAGE = `Usage: npm run forwarder -- [--host H] [--port N] [--admin-host A] [--admin-port P] [--portal-port M] [--redis URL] [--trusted-proxy A,…]
  --host H          address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --port N          the forwarder's public port: intake and listener channel (default 0: any free port)
  --admin-host A    address of the admin listener, /healthz, /readyz and /metrics (default 127.0.0.1: this
                    host only; give a private address for a scraper elsewhere, never a public one)
  --admin-port P    the admin listener's port (default 0: any free port)
  --portal-port M   the developer portal's port (default 0: any free port)
  --redis URL       keep webhooks, registrations and pending messages in this Redis (redis://host:port or
                    rediss://…), shared with every instance given the same URL (default: in memory)
  --trusted-proxy A,…  addresses or CIDR blocks of a reverse proxy in front (nginx): their connections count
                    against the global limits only, not the per-address ones (default: none)`;

const logger = createConsoleLogger('forwarder');

interface CliOptions {
  host: string;
  port: number;
  adminHost: string;
  adminPort: number;
  portalPort: number;
  redis: string | undefined;
  trustedProxies: string[];
}

/** The options, or the reason they are not valid. */
export function parseForwarderArgs(args: readonly string[]): { ok: true; options: CliOptions } | { ok: false; error: string } {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: [...args], options: { host: { type: 'string' }, port: { type: 'string' }, 'admin-host': { type: 'string' }, 'admin-port': { type: 'string' }, 'portal-port': { type: 'string' }, redis: { type: 'string' }, 'trusted-proxy': { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const port = portOf('--port', values.port);
  if (typeof port === 'string') return { ok: false, error: port };
  const adminPort = portOf('--admin-port', values['admin-port']);
  if (typeof adminPort === 'string') return { ok: false, error: adminPort };
  const portalPort = portOf('--portal-port', values['portal-port']);
  if (typeof portalPort === 'string') return { ok: false, error: portalPort };
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') return { ok: false, error: '--host must not be empty' };
  // Not --host's: an intake on every interface leaves the admin listener on loopback (docs/security.md, "The forwarder's admin listener").
  const adminHost = values['admin-host'] ?? '127.0.0.1';
  if (adminHost.trim() === '') return { ok: false, error: '--admin-host must not be empty' };
  const redis = values.redis;
  // Not echoed: a URL may hold a password.
  if (redis !== undefined && !isRedisUrl(redis)) return { ok: false, error: '--redis must be a redis:// or rediss:// URL with a host' };
  const trustedProxies = (values['trusted-proxy'] ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  try {
    exemptList(trustedProxies);
  } catch (error) {
    return { ok: false, error: `--trusted-proxy: ${(error as Error).message}` };
  }
  return { ok: true, options: { host, port, adminHost, adminPort, portalPort, redis, trustedProxies } };
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
  const { host, port, adminHost, adminPort, portalPort, redis, trustedProxies } = parsed.options;
  let services: WebhookServices;
  try {
    services = await startWebhookServices({ host, port, portalPort, redis, logger, forwarder: { adminHost, adminPort, addressLimits: { exemptAddresses: trustedProxies } } });
  } catch (error) {
    logger.error('forwarder: failed to start', { error: error instanceof Error ? error.message : String(error) });
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
