/**
 * The deployment example (Dockerfile, compose.yaml, deploy/nginx/) cannot be run on these machines (no
 * container runtime; docs/services.md, "Deployment example"). What can be checked without one is that
 * its pieces agree with what the tests do run: the programs' arguments are ones the CLI takes, the
 * nginx file compose mounts is the template test/support/nginx.ts runs, and the names compose fills in
 * are the template's placeholders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForwarderArgs } from '../../services/forwarder-cli';
import { projectRoot } from '../e2e/support/processes';
import { NGINX_TEMPLATE } from '../support/nginx';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const dockerfile = read('Dockerfile');
const compose = read('compose.yaml');

/** The arguments after `node out/services/forwarder-cli.js` in a JSON-style command array. */
function forwarderArgs(command: string): string[] {
  const [node, script, ...args] = JSON.parse(command) as string[];
  expect([node, script]).toEqual(['node', 'out/services/forwarder-cli.js']);
  return args;
}

describe('the deployment example', () => {
  it('runs the built forwarder with plain node (exec form: node is PID 1), with options the CLI takes, its health checks on the admin listener', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    const composeCommand = /^\s+command: (\[.*"out\/services\/forwarder-cli\.js".*\])$/m.exec(compose)?.[1];
    for (const command of [cmd, composeCommand]) {
      const parsed = parseForwarderArgs(forwarderArgs(command!));
      expect(parsed).toMatchObject({ ok: true, options: { host: '0.0.0.0', port: 8080, adminPort: 8082, portalPort: 8081 } });
    }
    // The image keeps the admin listener on the container's loopback; compose opens it to its private network for a scraper.
    expect(parseForwarderArgs(forwarderArgs(cmd!))).toMatchObject({ options: { adminHost: '127.0.0.1' } });
    expect(parseForwarderArgs(forwarderArgs(composeCommand!))).toMatchObject({ options: { adminHost: '0.0.0.0', redis: 'redis://redis:6379' } });
    // The checks run inside the container, so loopback reaches the admin port; the intake port answers them 404.
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*http:\/\/127\.0\.0\.1:8082\/healthz/m);
    expect(compose).toContain("fetch('http://127.0.0.1:8082/readyz')");
    expect(compose).not.toMatch(/^\s+- "[^"]*:8082"$/m); // published nowhere
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('mounts the nginx template the tests run, and fills exactly its placeholders', () => {
    expect(compose).toContain(`./${NGINX_TEMPLATE.slice(projectRoot.length)}:/etc/nginx/templates/forwarder.conf.template:ro`);
    const placeholders = new Set([...readFileSync(NGINX_TEMPLATE, 'utf8').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => match[1]));
    const filled = /^\s+nginx:\n[\s\S]*?environment:\n((?:\s{6}\S.*\n)+)/m.exec(compose)?.[1];
    const names = new Set([...filled!.matchAll(/^\s+([A-Z0-9_]+):/gm)].map((match) => match[1]));
    names.delete('NGINX_ENVSUBST_FILTER');
    expect(names).toEqual(placeholders);
    expect(compose).toMatch(/"--appendonly", "yes"/);
    expect(compose).toMatch(/"--maxmemory-policy", "noeviction"/);
  });
});
