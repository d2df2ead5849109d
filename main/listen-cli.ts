/**
 * `npm run listen -- --webhook <id> --secret <s> (--hub <id> | --key <v> …) --forward-to <url> [--forwarder <url>]`:
 * Forward to without the app (docs/webhooks-app.md, "Forward to"; like `stripe listen --forward-to`).
 * It registers as a listener of the forwarder (webhook-channel.ts, the app's own socket: proof of the
 * secret, acknowledgements, backoff, liveness) and sends each message on to a local server with the
 * app's forwarding (webhook-forwarding.ts). Plain node and tsx: nothing of Electron.
 *
 * stdout: one line per message once its forwarding is over (time, method, path, size, the local
 * server's status, ms); stderr: the connection and retries. SIGINT or SIGTERM closes the socket and
 * exits 0; a refusal of the forwarder (wrong secret, unknown webhook, a hub id it does not take) exits 1;
 * a bad argument is said with the usage, exit code 2.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { forwardTargetProblem } from '../common/forward-target';
import { WebhookIdSchema, WebhookKeyValueSchema } from '../common/ipc-contract';
import { createConsoleLogger } from '../common/logger';
import type { RegistrationData } from '../common/webhook-protocol';
import { exitOnSignals } from '../common/exit-on-signals';
import { parseBaseUrl, WEBHOOK_URL_ENV } from './backend';
import { realSchedule, systemClock } from './core/shared';
import { openWebhookChannel } from './core/webhooks';
import { createForwarding, type ForwardProgress } from './core/webhooks';
import { errorMessage } from '../common/error-message';

export const LISTEN_USAGE = `Usage: npm run listen -- --webhook <id> --secret <s> (--hub <id> | --key <v> [--key <v> …]) --forward-to <url> [--forwarder <url>]
  --webhook <id>      the webhook's id, from the developer portal
  --secret <s>        its secret (8 to 512 characters)
  --hub <id>          receive what is sent for this hub (?hub=<id>); the forwarder must take hub ids
                      without a sign-in (--trust-hub-ids), else it refuses
  --key <v>           receive what the webhook's key path routes to this value; repeat for several
  --forward-to <url>  the local server each message is sent to: https://…, or http:// on this computer
                      only (127.0.0.1, [::1], localhost)
  --forwarder <url>   the webhook forwarder (https, or http on loopback); default $${WEBHOOK_URL_ENV}`;

export interface ListenOptions {
  webhookUrl: string;
  webhookId: string;
  secret: string;
  routing: { hubId: string } | { data: RegistrationData };
  forwardTo: string;
}

/** The options, or what is wrong with the arguments (said without echoing the secret). */
export function parseListenArgs(args: readonly string[], env: NodeJS.ProcessEnv): { ok: true; options: ListenOptions } | { ok: false; error: string } {
  let values: { webhook?: string; secret?: string; hub?: string; key?: string[]; 'forward-to'?: string; forwarder?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        webhook: { type: 'string' },
        secret: { type: 'string' },
        hub: { type: 'string' },
        key: { type: 'string', multiple: true },
        'forward-to': { type: 'string' },
        forwarder: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
  const { webhook, secret, hub, key: keys = [], 'forward-to': forwardTo } = values;
  if (webhook === undefined) return { ok: false, error: '--webhook <id> is needed' };
  if (!WebhookIdSchema.safeParse(webhook).success) return { ok: false, error: '--webhook: a webhook id is 1–200 letters, digits, "-" or "_"' };
  if (secret === undefined) return { ok: false, error: '--secret <s> is needed' };
  if (secret.length < 8 || secret.length > 512) return { ok: false, error: '--secret: a webhook secret is 8 to 512 characters' };
  if (hub !== undefined && keys.length > 0) return { ok: false, error: '--hub and --key exclude each other: a listener is routed by one or the other' };
  if (hub === undefined && keys.length === 0) return { ok: false, error: 'give --hub <id> or --key <v>: what the forwarder routes to this listener' };
  if (hub !== undefined && (hub === '' || hub.length > 200)) return { ok: false, error: '--hub: a hub id is 1 to 200 characters' };
  if (keys.some((value) => !WebhookKeyValueSchema.safeParse(value).success)) return { ok: false, error: '--key: a key value is 1 to 1024 characters' };
  if (keys.length > 100) return { ok: false, error: '--key: at most 100 values' };
  if (forwardTo === undefined) return { ok: false, error: '--forward-to <url> is needed' };
  const problem = forwardTargetProblem(forwardTo);
  if (problem !== undefined) return { ok: false, error: `--forward-to: ${problem}` };
  const forwarder = values.forwarder ?? env[WEBHOOK_URL_ENV];
  if (forwarder === undefined || forwarder === '') return { ok: false, error: `--forwarder <url> is needed (or set ${WEBHOOK_URL_ENV})` };
  let webhookUrl: string;
  try {
    webhookUrl = parseBaseUrl('--forwarder', forwarder);
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
  const routing = hub !== undefined ? { hubId: hub } : { data: keys.length === 1 ? { $key: keys[0] } : { $keys: keys } };
  return { ok: true, options: { webhookUrl, webhookId: webhook, secret, routing, forwardTo } };
}

/** The line printed for a message whose forwarding is over, or undefined while it is not. */
export function forwardLine(progress: ForwardProgress, at: Date): string | undefined {
  const url = new URL(progress.url);
  const head = `${at.toISOString()}  ${progress.method} ${url.pathname}${url.search}  ${progress.bytes} B`;
  const { forward } = progress;
  if (forward.state === 'answered') return `${head}  ${forward.statusCode}  ${Math.round(forward.durationMs)} ms`;
  if (forward.state === 'failed') return `${head}  ${forward.statusCode ?? 'failed'}  -  ${forward.reason}`;
  if (forward.state === 'dropped') return `${head}  dropped  -  the queue was full`;
  return undefined;
}

function main(): void {
  const parsed = parseListenArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n${LISTEN_USAGE}\n`);
    process.exit(2);
  }
  const { options } = parsed;
  const logger = createConsoleLogger('listen');
  const forwarding = createForwarding({
    url: options.forwardTo,
    clock: systemClock,
    schedule: realSchedule,
    onProgress: (progress) => {
      const line = forwardLine(progress, new Date());
      if (line !== undefined) process.stdout.write(`${line}\n`);
      else if (progress.forward.state === 'retrying')
        logger.warn('listen: the local server failed; trying again', { id: progress.id, attempt: progress.forward.attempt, last: progress.forward.last });
    },
  });
  let lastAck: string | undefined;
  // The channel's timers do not hold the process open (ports.ts): this does, until a signal or a refusal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const channel = openWebhookChannel({
    webhookUrl: options.webhookUrl,
    webhookId: options.webhookId,
    secret: options.secret,
    role: 'listener',
    listenerId: `hubdesk-listen-${randomUUID()}`,
    ...options.routing,
    resumeAfter: () => lastAck,
    onMessage: (message) => forwarding.forward(message),
    onAcknowledged: (id) => void (lastAck = id),
    onDropped: (notice) =>
      logger.warn("listen: the forwarder's buffer for this listener was full; it dropped messages", { droppedSoFar: notice.count, through: notice.through }),
    onConnection: (connection) => {
      if (connection.state === 'connected') logger.info(`listen: connected; forwarding to ${options.forwardTo}`);
      else if (connection.state === 'reconnecting')
        logger.warn('listen: reconnecting', { attempt: connection.attempt, ...(connection.reason !== undefined && { reason: connection.reason }) });
      else if (connection.state === 'refused' || connection.state === 'unavailable') {
        logger.error(`listen: ${connection.reason}`);
        forwarding.stop();
        clearInterval(keepAlive);
        process.exitCode = 1;
      }
    },
    logger,
    clock: systemClock,
  });
  exitOnSignals(logger, 'listen', async () => {
    channel.stop();
    forwarding.stop();
    clearInterval(keepAlive);
  });
}

// Run as a program (`node --import tsx main/listen-cli.ts`), not when imported by a test.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
