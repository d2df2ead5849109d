/**
 * A service's command-line program (`forwarder`, `stack`) as its own process, started the way someone
 * runs it (docs/services.md, "Running the built services"):
 * - `tsx`: `node --import tsx services/<name>-cli.ts`, one process (test/e2e/support/processes.ts says why);
 * - `npm`: `npm run <name> -- …`, the README's development command (npm prints its banner on stdout first);
 * - `built`: `node out/services/<name>-cli.js`, as deployed (the integration project's global setup builds it).
 * Stopped with SIGTERM when the test ends, if still running.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { SERVICES_OUT_DIR } from '../../scripts/build-services';

export type Launch = 'tsx' | 'npm' | 'built';

export function startServiceProgram(name: 'forwarder' | 'stack', args: string[], launch: Launch = 'tsx') {
  const [command, argv] =
    launch === 'npm'
      ? ['npm', ['run', name, '--', ...args]]
      : [process.execPath, launch === 'built' ? [join(SERVICES_OUT_DIR, `${name}-cli.js`), ...args] : ['--import', 'tsx', `services/${name}-cli.ts`, ...args]];
  const { child, exited, output } = startProgram(command, argv);
  /** The program's line: the first that is JSON (npm's banner lines come before it). */
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const line = output()
        .stdout.split('\n')
        .find((candidate, i, lines) => candidate.startsWith('{') && i < lines.length - 1);
      if (line !== undefined) resolve(line);
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before printing: ${output().stderr}`)));
  });
  firstLine.catch(() => {}); // awaited only by the tests that expect a line
  return { child, exited, firstLine, output };
}

/** Any program as its own process, its output collected; stopped with SIGTERM when the test ends, if still running. */
export function startProgram(command: string, argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
  onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM')));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}
