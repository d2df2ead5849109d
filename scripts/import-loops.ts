/**
 * The import-loop check of `npm run lint` (docs/testing.md, "Import loops"): no module may reach itself
 * through its imports, type-only imports included. madge reads the imports (resolved as tsconfig.json
 * resolves them); the check fails with each loop it finds.
 *
 *   node --import tsx scripts/import-loops.ts [folder…]   (default: every source folder of the repository)
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import madge from 'madge';

const ROOT = resolve(import.meta.dirname, '..');
export const SOURCE_FOLDERS = ['common', 'main', 'preload', 'renderer', 'services', 'scripts', 'test'];

/** Every loop among the modules under `folders` (relative to `baseDir`), each as `a.ts > b.ts > a.ts`. */
export async function findImportLoops(folders: readonly string[], baseDir = ROOT): Promise<string[]> {
  if (folders.length === 0) throw new Error('findImportLoops: no folder to check');
  const result = await madge(
    folders.map((folder) => resolve(baseDir, folder)),
    { baseDir, fileExtensions: ['ts', 'tsx', 'mts', 'mjs'], tsConfig: join(ROOT, 'tsconfig.json') },
  );
  return result.circular().map((loop) => [...loop, loop[0]].join(' > '));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : SOURCE_FOLDERS;
  const loops = await findImportLoops(folders, process.cwd());
  if (loops.length > 0) {
    process.stderr.write(`${loops.length} import loop(s); break each where the shared part can live apart (docs/testing.md, "Import loops"):\n`);
    for (const loop of loops) process.stderr.write(`  ${loop}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`no import loops in ${folders.join(', ')}\n`);
  }
}
