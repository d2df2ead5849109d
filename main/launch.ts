/**
 * `npm start`: the Electron app when a runtime is installed, otherwise the browser host (same core,
 * same renderer, in the user's browser) with one line saying why.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfStale, electronTarget } from './build-freshness';
import { findElectronRuntime } from './electron/find-runtime';
import { errorMessage } from '../common/error-message';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const NO_RUNTIME_MESSAGE =
  'No Electron runtime is installed (it is downloaded from GitHub, which this machine cannot reach); starting the browser host instead — same app, in your browser.';

async function launch(): Promise<void> {
  const runtime = findElectronRuntime(process.env);
  if (runtime === undefined) {
    process.stderr.write(`${NO_RUNTIME_MESSAGE}\n`);
    const { runBrowserHost } = await import('./browser-host/cli');
    await runBrowserHost(process.argv.slice(2));
    return;
  }
  // Built only when main, preload or renderer sources changed since the last build (main/build-freshness.ts).
  const built = await buildIfStale(electronTarget(projectRoot), async () => {
    // Loaded only here: building is a development-time concern.
    const { build } = await import('electron-vite');
    await build({ root: projectRoot, configFile: fileURLToPath(new URL('../electron.vite.config.ts', import.meta.url)) });
  });
  if (!built) process.stderr.write('Sources unchanged since the last build: starting the built app.\n');
  await runElectron(runtime);
}

/** Runs the app in the runtime, forwarding Ctrl-C/termination to it and its exit status to ours. */
function runElectron(runtime: string): Promise<void> {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would make the runtime a plain Node and ignore the app
  const child = spawn(runtime, [projectRoot, ...process.argv.slice(2)], { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const signals = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of signals) process.on(signal, handler);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const [name, handler] of signals) process.off(name, handler);
      if (signal !== null) process.kill(process.pid, signal);
      else process.exitCode = code ?? 1;
      resolve();
    });
  });
}

launch().catch((error: unknown) => {
  process.stderr.write(`Hubdesk could not start: ${errorMessage(error)}\n`);
  process.exit(1);
});
