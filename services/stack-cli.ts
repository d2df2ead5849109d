/**
 * `npm run stack`: runs the reference services until SIGINT/SIGTERM. Prints exactly one line on
 * stdout — the StackInfo JSON — once every service answers; all logging goes to stderr.
 * Optional environment: HUBDESK_STACK_HOST (default 127.0.0.1). "Home" is announced over mDNS; an app
 * elsewhere on the LAN reaches it only when HUBDESK_STACK_HOST is an address of this machine it can reach.
 * The homes are simulated (they change on their own), as the app's embedded default is.
 * `--state-dir <dir>` (or HUBDESK_STACK_STATE_DIR) keeps ports, keys, certificates and grants there, so a
 * stack started again on it is the same cloud and hubs (docs/services.md, "Keeping state across a restart").
 * A bad option: the reason and the usage on stderr, exit code 2; a start that fails: the reason, exit code 1.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createConsoleLogger } from '../common/logger';
import { exitOnSignals } from '../common/exit-on-signals';
import { type RunningStack, type StackInfo, startStack } from './stack';
import { errorMessage } from '../common/error-message';

const logger = createConsoleLogger('stack');

const USAGE = 'usage: npm run stack -- [--state-dir <dir>]   (or HUBDESK_STACK_STATE_DIR=<dir>)';

/** The options, or the reason they are not valid; `env` gives HUBDESK_STACK_STATE_DIR, which --state-dir overrides. */
export function parseStackArgs(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): { ok: true; options: { stateDir: string | undefined } } | { ok: false; error: string } {
  let values: { 'state-dir'?: string };
  try {
    ({ values } = parseArgs({ args: [...args], options: { 'state-dir': { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
  const stateDir = values['state-dir'] ?? (env.HUBDESK_STACK_STATE_DIR || undefined);
  if (stateDir !== undefined && stateDir.trim() === '') return { ok: false, error: '--state-dir must not be empty' };
  return { ok: true, options: { stateDir } };
}

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
  const parsed = parseStackArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n${USAGE}\n`);
    process.exit(2);
  }
  let stack: RunningStack;
  try {
    stack = await startStack({ host: process.env.HUBDESK_STACK_HOST || undefined, logger, advertise: true, simulate: true, stateDir: parsed.options.stateDir });
    await assertAnswering(stack.info);
  } catch (error) {
    logger.error('stack: failed to start', { error: errorMessage(error) });
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(stack.info) + '\n');
  logger.info('stack: ready', { auth_url: stack.info.auth_url, ...(parsed.options.stateDir !== undefined && { stateDir: parsed.options.stateDir }) });

  exitOnSignals(logger, 'stack', () => stack.close());
}

// Run as a program (`node out/services/stack-cli.js`, `node --import tsx services/stack-cli.ts`), not when imported by a test.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
