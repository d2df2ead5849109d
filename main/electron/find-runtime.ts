/**
 * Where the Electron runtime binary is, if it is installed. The `electron` package downloads it from
 * GitHub in an install script that our machines do not run (docs/electron-runtime.md), so it is often
 * absent. We never `require('electron')` in Node to find out: without a binary that tries to download it.
 * No `electron` import (this runs in plain Node, from main/launch.ts and the e2e suite).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The `electron` npm package's folder (holds path.txt and, once installed, dist/). */
export function electronPackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

/**
 * The runtime executable, or undefined. Mirrors the package's own lookup (node_modules/electron/index.js):
 * `ELECTRON_OVERRIDE_DIST_PATH` wins; otherwise `dist/<path.txt>` inside the package.
 */
export function findElectronRuntime(env: NodeJS.ProcessEnv, packageDir: string = electronPackageDir()): string | undefined {
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate =
    override !== undefined && override !== ''
      ? join(override, relative || defaultExecutable(process.platform))
      : relative !== ''
        ? join(packageDir, 'dist', relative)
        : undefined;
  return candidate !== undefined && existsSync(candidate) ? candidate : undefined;
}

function defaultExecutable(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}
