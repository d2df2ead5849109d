/**
 * The benchmark servers as they would be deployed: bundled by esbuild into plain JavaScript and run by
 * `node`, not by `tsx`. tsx compiles with `keepNames`, which wraps every function made at run time in a
 * `__name(...)` call (a property definition per closure, per request on a hot path): a cost of the
 * development runner, not of the service. Both the baseline and the forwarder are built the same way.
 * Dependencies stay external and resolve from the project's node_modules.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../e2e/support/processes';

// In the checkout's own build folder (ignored by git), not under node_modules, which worktrees may share;
// inside the project, so the bundles' external packages resolve from its node_modules.
const OUT_DIR = join(projectRoot, 'out', 'bench-servers');

/** Bundles `test/bench/<name>.ts` and returns the path of the JavaScript to run. */
export async function compiledServer(
  name: 'bare-server' | 'forwarder-server' | 'acking-listener' | 'hub-server' | 'official-hub-server' | 'insights-attacker' | 'limited-service',
): Promise<string> {
  mkdirSync(OUT_DIR, { recursive: true });
  const outfile = join(OUT_DIR, `${name}.mjs`);
  await build({
    entryPoints: [join(projectRoot, 'test', 'bench', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
