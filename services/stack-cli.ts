/**
 * `npm run stack`: runs the reference services until SIGINT/SIGTERM. Prints exactly one line on
 * stdout — the StackInfo JSON — once every service answers; all logging goes to stderr.
 * Optional environment: HUBDESK_STACK_HOST (default 127.0.0.1). "Home" is announced over mDNS; an app
 * elsewhere on the LAN reaches it only when HUBDESK_STACK_HOST is an address of this machine it can reach.
 * The homes are simulated (they change on their own), as the app's embedded default is.
 */
import { createConsoleLogger } from '../common/logger';
import { exitOnSignals } from '../common/exit-on-signals';
import { type RunningStack, type StackInfo, startStack } from './stack';

const logger = createConsoleLogger('stack');

/** Every service answers over HTTP before the line is printed, so a reader may use it at once. */
async function assertAnswering(info: StackInfo): Promise<void> {
  const checks = [
    `${info.auth_url}/.well-known/jwks.json`,
    ...info.hubs.map((hub) => `${hub.localUrl ?? hub.remoteUrl}/api/manager/system/ping?id=${encodeURIComponent(hub.id)}`),
  ];
  for (const url of checks) {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`${new URL(url).origin} answered ${response.status}`);
  }
}

async function main(): Promise<void> {
  let stack: RunningStack;
  try {
    stack = await startStack({ host: process.env.HUBDESK_STACK_HOST || undefined, logger, advertise: true, simulate: true });
    await assertAnswering(stack.info);
  } catch (error) {
    logger.error('stack: failed to start', { error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(stack.info) + '\n');
  logger.info('stack: ready', { auth_url: stack.info.auth_url });

  exitOnSignals(logger, 'stack', () => stack.close());
}

void main();
