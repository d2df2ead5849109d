/**
 * `npm start` without an Electron runtime, and the end-to-end tests: the browser host. Same core,
 * same renderer; the contract over a loopback WebSocket and tokens encrypted with AES-256-GCM under a
 * 0600 key file in the profile folder. Prints one machine-readable line on stdout:
 * `Hubdesk is running at <app URL>`; logs go to stderr.
 */
import { randomBytes } from 'node:crypto';
import { randomToken } from '../../common/bridge-resume';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createHubdeskCore } from '../core/host';
import type { Logger } from '../core/shared';
import { createConsoleLogger } from '../../common/logger';
import { buildIfStale, rendererTarget } from '../build-freshness';
import { createHostAdapters } from '../host-adapters';
import { createAesGcmCipher, loadOrCreateKey } from './aes-gcm-cipher';
import { createJsonFileStore } from './json-file-store';
import { readLastRun, saveLastRun } from './last-run';
import { createOpenExternal, openInBrowser } from './open-external';
import { startBrowserHostServer } from './server';
import { makePrivateFolder } from '../private-folder';
import { errorMessage } from '../../common/error-message';

export const RUNNING_LINE_PREFIX = 'Hubdesk is running at ';
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const rendererRoot = join(projectRoot, 'out', 'renderer');

export interface BrowserHostArgs {
  profile: string;
  /** `--port`; undefined: the last run's port when it is free, else any. */
  port: number | undefined;
  /** `auto`: build the renderer when its sources changed since the last build (main/build-freshness.ts); `always`: `--build`; `never`: `--skip-build`. */
  build: 'auto' | 'always' | 'never';
}

export function parseBrowserHostArgs(argv: readonly string[], env: NodeJS.ProcessEnv): BrowserHostArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: { profile: { type: 'string' }, port: { type: 'string' }, build: { type: 'boolean' }, 'skip-build': { type: 'boolean' } },
    strict: true,
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535))
    throw new Error(`--port must be a port number, not ${JSON.stringify(values.port)}`);
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  if (values.build && values['skip-build']) throw new Error('--build and --skip-build exclude each other');
  const build = values.build ? 'always' : values['skip-build'] ? 'never' : 'auto';
  return { profile: resolve(values.profile ?? join(configHome, 'hubdesk-browser')), port, build };
}

export async function runBrowserHost(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const logger = createConsoleLogger('browser-host');
  const args = parseBrowserHostArgs(argv, process.env);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  // `--skip-build` serves what is built (the tests build once); otherwise build only when the sources changed.
  const serveAsBuilt = args.build === 'never' && existsSync(join(rendererRoot, 'index.html'));
  if (!serveAsBuilt && (await buildIfStale(rendererTarget(projectRoot), buildRenderer, { force: args.build === 'always' }))) {
    logger.info('renderer built: its sources changed since the last build, or it had none');
  }

  makePrivateFolder(args.profile);
  const cipher = createAesGcmCipher(loadOrCreateKey(join(args.profile, 'token-key')));
  const store = createJsonFileStore(join(args.profile, 'settings.json'), logger);
  const runs = createJsonFileStore(join(args.profile, 'browser-host.json'), logger);
  const lastRun = readLastRun(runs);
  const resumeKey = randomToken();
  let closeBackend = async () => {};
  const host = await startBrowserHostServer({
    staticRoot: rendererRoot,
    secret: randomBytes(32).toString('base64url'),
    resumeKeys: { current: resumeKey, previous: lastRun?.resumeKey },
    port: args.port,
    preferredPort: lastRun?.port,
    logger,
    async createCore(redirectUri) {
      const shared = await createHostAdapters(process.env, redirectUri, logger);
      closeBackend = shared.close;
      return createHubdeskCore({ ...shared.deps, cipher, store, dataDir: args.profile, openExternal: createOpenExternal(process.env, logger, print) });
    },
  });
  saveLastRun(runs, { port: Number(new URL(host.origin).port), resumeKey });
  print(`${RUNNING_LINE_PREFIX}${host.appUrl}`);
  if (process.env.HUBDESK_OPEN_EXTERNAL !== 'none') await openApp(host.appUrl, args.profile, logger);

  const stop = () => {
    void host
      .close()
      .then(() => closeBackend())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Opens the app through a 0600 launcher page in the profile instead of passing the URL (and so its
 * secret) on a command line, where other local users could read it from the process list.
 */
async function openApp(appUrl: string, profile: string, logger: Logger): Promise<void> {
  const launcher = join(profile, 'open-hubdesk.html');
  const escaped = appUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  writeFileSync(
    launcher,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${escaped}"><title>Hubdesk</title><a href="${escaped}">Open Hubdesk</a>`,
    { mode: 0o600 },
  );
  chmodSync(launcher, 0o600);
  await openInBrowser(pathToFileURL(launcher).href).catch((error: unknown) => {
    logger.warn('could not open the browser; open the printed address yourself', { error: errorMessage(error) });
  });
}

async function buildRenderer(): Promise<void> {
  // Vite is a development dependency: loaded only when the renderer has to be (re)built.
  const { build } = await import('vite');
  await build({ configFile: join(projectRoot, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
}
