/**
 * Starts the project's command-line programs as real processes for the end-to-end tests and reads
 * the machine-readable lines they print on stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningProgram {
  child: ChildProcess;
  /** Resolves with the first stdout line (already printed or still to come) that starts with `prefix`, minus the prefix. */
  line(prefix: string, timeoutMs?: number): Promise<string>;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs `script` in one node process: TypeScript through `node --import tsx`, plain node when it is
 * already JavaScript (`.js`/`.mjs`, e.g. a bundled build). Not the tsx command: it runs the script in a
 * second process and relays SIGTERM to it, and when the script does not confirm the signal within 30 ms
 * (a loaded machine) it kills it with SIGKILL and exits 143 — a clean stop that looked like a crash.
 */
export function startProgram(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): RunningProgram {
  const loader = /\.m?js$/.test(script) ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...loader, script, ...args], { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { prefix: string; resolve: (rest: string) => void }[] = [];
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-20_000)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (line.startsWith(waiter.prefix)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line.slice(waiter.prefix.length));
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    line(prefix, timeoutMs = 30_000) {
      const seen = lines.find((l) => l.startsWith(prefix));
      if (seen !== undefined) return Promise.resolve(seen.slice(prefix.length));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line starting with ${JSON.stringify(prefix)}; stderr:\n${errors}`)), timeoutMs);
        waiters.push({ prefix, resolve: (rest) => (clearTimeout(timer), resolve(rest)) });
        void exited.then((code) => reject(new Error(`${script} exited (${code}) before printing ${JSON.stringify(prefix)}; stderr:\n${errors}`)));
      });
    },
    stderr: () => errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
