/**
 * `npm run build:services`: the services' command-line programs as plain JavaScript in out/services, to
 * run with `node` alone — no tsx, no npm between the process supervisor and the service, so SIGTERM
 * reaches the program that drains (docs/services.md, "Running the built services").
 *
 * esbuild bundles the project's own code; the dependencies stay external and resolve from node_modules,
 * as `npm ci --omit=dev --workspace services` installs them: the build fails when a runtime import is not
 * in services/package.json's `dependencies`.
 * What the services load at run time by a URL beside their module (`new URL(…, import.meta.url)`: the
 * legacy sandbox's worker, the legacy fixtures) is put beside the bundles, where those URLs point from
 * there.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export const SERVICES_OUT_DIR = join(root, 'out', 'services');

/** The programs (out/services/<name>.js). */
const PROGRAMS = ['forwarder-cli', 'stack-cli'];
/** Loaded as a worker by URL (legacy-runner.ts WORKER_URL): bundled on its own, with its driver. */
const WORKER = 'services/forwarder/legacy/legacy-worker.mjs';
/** Read at run time by URL (legacy-fixtures.ts FIXTURES_DIR). */
const FIXTURES = 'services/forwarder/legacy/fixtures';
/** Written last: the build is complete, and when (for `buildServicesWhenStale`). */
const STAMP = '.built';
/** What the build reads: a change to any of these makes the output stale. */
const SOURCES = ['services', 'common', 'scripts/build-services.ts'];

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
} as const;

/** Builds into `outDir` (replaced whole, so nothing stale is left in it). */
export async function buildServices(outDir = SERVICES_OUT_DIR): Promise<void> {
  const building = `${outDir}.tmp-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  try {
    const programs = await build({
      ...common,
      entryPoints: Object.fromEntries(PROGRAMS.map((name) => [name, join(root, 'services', `${name}.ts`)])),
      outdir: building,
    });
    const worker = await build({ ...common, entryPoints: [join(root, WORKER)], outdir: building, outExtension: { '.js': '.mjs' } });
    checkRuntimeDependencies([programs.metafile, worker.metafile]);
    cpSync(join(root, FIXTURES), join(building, 'fixtures'), { recursive: true });
    writeFileSync(join(building, STAMP), `${new Date().toISOString()}\n`);
    rmSync(outDir, { recursive: true, force: true });
    renameSync(building, outDir);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** Builds unless out/services is newer than every source it is made from; returns the folder. */
export async function buildServicesWhenStale(outDir = SERVICES_OUT_DIR): Promise<string> {
  const stamp = join(outDir, STAMP);
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (SOURCES.some((source) => newestChange(join(root, source)) > builtAt)) await buildServices(outDir);
  return outDir;
}

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

/**
 * Every package the bundles import must be a runtime dependency of the services' own package
 * (services/package.json): `npm ci --omit=dev --workspace services` installs nothing else.
 */
function checkRuntimeDependencies(metafiles: Metafile[]): void {
  const { dependencies = {} } = JSON.parse(readFileSync(join(root, 'services', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const missing = new Set<string>();
  for (const metafile of metafiles) {
    for (const output of Object.values(metafile.outputs)) {
      for (const { path, external } of output.imports) {
        if (!external || path.startsWith('node:')) continue;
        const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!;
        if (!(name in dependencies)) missing.add(name);
      }
    }
  }
  if (missing.size > 0) throw new Error(`the services import ${[...missing].join(', ')} at run time, not in services/package.json "dependencies"`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServices();
  process.stdout.write(`services built into ${SERVICES_OUT_DIR}\n`);
}
