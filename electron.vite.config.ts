import { defineConfig } from 'electron-vite';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import renderer from './renderer/vite.config';

const root = fileURLToPath(new URL('.', import.meta.url));
// electron-vite chooses the output folders (out/main, out/preload, out/renderer; `--outDir` moves them all).
const { outDir: _browserHostOutDir, ...rendererBuild } = renderer.build ?? {};
/** The reference services' own dependencies (services/package.json): left in node_modules too, not bundled. */
const servicesDependencies = Object.keys(
  (JSON.parse(readFileSync(resolve(root, 'services', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
);

/**
 * Builds the Electron host: main as ESM with its dependencies left in node_modules (the services' code
 * bundled); the preload as
 * CommonJS with everything (common/, zod) bundled, because a sandboxed preload can neither load ESM nor
 * reach node_modules; the renderer with the browser host's settings (renderer/vite.config.ts).
 */
export default defineConfig({
  main: {
    build: {
      // The reference services (the embedded demo) are the project's own TypeScript: bundled, as a chunk
      // loaded only when no cloud is configured; their dependencies stay in node_modules like the app's.
      externalizeDeps: { exclude: ['@hubdesk/services'], include: servicesDependencies },
      rolldownOptions: { input: { index: resolve(root, 'main/index.ts') } },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    ...renderer,
    build: { ...rendererBuild, rolldownOptions: { input: { index: resolve(root, 'renderer/index.html') } } },
  },
});
