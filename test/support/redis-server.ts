/**
 * A real Redis (Debian's `redis-server`) for a test file or a bench: its own process on a free loopback
 * port, its data in a temporary folder, stopped when the test is done. `.ci/run` installs it.
 *
 * `stop` and `start` again (same port, same folder) let a test take Redis away and bring it back:
 * with `appendonly yes` what was written before the stop is there after the start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { tempDir } from './temp-dir';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The running server's process id (undefined while stopped). */
  readonly pid: number | undefined;
  /** Stops Redis (SIGTERM: it writes its append-only file first); `start` brings it back on the same port with the same data. */
  stop(): Promise<void>;
  /** Kills Redis (SIGKILL), as a crash would: what it had not written to its append-only file yet is lost. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Freezes Redis (SIGSTOP): its connections stay open and nothing is answered, as a hung server; `resume` thaws it. */
  pause(): void;
  resume(): void;
}

/** A port nothing listens on now (the OS's pick, released at once for the server to take). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** `options`: more redis-server arguments (e.g. `['--maxmemory', '64mb']`), after the defaults. */
export async function startTestRedis(options: readonly string[] = []): Promise<TestRedis> {
  const dir = tempDir('redis');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--loglevel', 'warning', ...options],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child = started;
    let output = '';
    started.stdout!.setEncoding('utf8');
    started.stdout!.on('data', (chunk: string) => (output += chunk));
    // A test runner that dies must not leave Redis running.
    const killOnExit = () => started.kill('SIGKILL');
    process.once('exit', killOnExit);
    started.once('exit', () => process.off('exit', killOnExit));
    await waitForPort(port, started, () => output);
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill(signal);
    await once(running, 'exit');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    start,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/** Resolves once the server on `port` answers (by default: PING with PONG); rejects if the process exits first or after 10 s. */
export async function waitForPort(port: number, child: ChildProcess, output: () => string, answers: (port: number) => Promise<boolean> = pings): Promise<void> {
  const name = child.spawnfile;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${output()}`);
    if (await answers(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not answer on port ${port} within 10 s: ${output()}`);
}

async function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
  });
}
