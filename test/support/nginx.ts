/**
 * A real nginx (Debian's `nginx`; `.ci/run` installs it) in front of forwarder instances, unprivileged:
 * its own prefix in a temporary folder (configuration, temporary files, pid, logs), a free port, in the
 * foreground, stopped when the test file is done. It runs the committed template
 * deploy/nginx/forwarder.conf.template, filled in as the nginx image fills it from the environment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../e2e/support/processes';
import { freePort, waitForPort } from './redis-server';
import { tempDir } from './temp-dir';

export const NGINX_TEMPLATE = join(projectRoot, 'deploy', 'nginx', 'forwarder.conf.template');
/** Debian installs nginx in /usr/sbin, which is not on a normal user's PATH. */
const NGINX =
  [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin'].map((dir) => join(dir, 'nginx')).find((path) => existsSync(path)) ?? 'nginx';

export interface TestNginx {
  readonly url: string;
  stop(): Promise<void>;
}

/** `${NAME}` replaced for the names given only, as the nginx image's envsubst step does; nginx's own `$name`s stay. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z0-9_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * nginx in front of exactly three forwarder instances (`host:port` each). `workerConnections` is the
 * nginx image's default (1,024) unless given: a proxied request holds two of them.
 */
export async function startTestNginx(instances: [string, string, string], workerConnections = 1024): Promise<TestNginx> {
  const prefix = tempDir('nginx');
  for (const dir of ['conf', 'logs', 'temp']) mkdirSync(join(prefix, dir));
  const port = await freePort();
  const [first, second, third] = instances;
  writeFileSync(
    join(prefix, 'conf', 'forwarder.conf'),
    fillTemplate(readFileSync(NGINX_TEMPLATE, 'utf8'), { FORWARDER_1: first, FORWARDER_2: second, FORWARDER_3: third, LISTEN_PORT: `127.0.0.1:${port}` }),
  );
  // What the nginx image's own nginx.conf gives the template, with every path inside the prefix.
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'temp', name)};`;
  writeFileSync(
    join(prefix, 'conf', 'nginx.conf'),
    [
      'worker_processes 1;',
      `events { worker_connections ${workerConnections}; }`,
      'http {',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
      `access_log ${join(prefix, 'logs', 'access.log')};`,
      'include forwarder.conf;',
      '}',
    ].join('\n'),
  );
  // As root (CI containers) nginx would hand its workers to `nobody`, who cannot read this prefix: they stay this user.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', prefix, '-c', join(prefix, 'conf', 'nginx.conf'), '-e', 'stderr', '-g', `daemon off; master_process on; pid ${join(prefix, 'nginx.pid')}; ${user}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (output = (output + chunk).slice(-20_000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  await waitForPort(port, child, () => output, answersHttp);
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGQUIT: nginx's graceful stop (SIGTERM is its fast one).
      child.kill('SIGQUIT');
      await once(child, 'exit');
    },
  };
}

async function answersHttp(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
