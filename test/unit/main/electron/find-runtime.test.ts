import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronPackageDir, findElectronRuntime } from '../../../../main/electron/find-runtime';
import { tempDir } from '../../../support/temp-dir';

describe('findElectronRuntime', () => {
  let pkg: string;
  beforeEach(() => {
    pkg = tempDir('electron-pkg');
  });
  afterEach(() => rmSync(pkg, { recursive: true, force: true }));

  const install = (dir: string, relative: string) => {
    mkdirSync(join(dir, relative, '..'), { recursive: true });
    writeFileSync(join(dir, relative), '');
  };

  it('finds nothing in a package whose install script never ran', () => {
    expect(findElectronRuntime({}, pkg)).toBeUndefined();
  });

  it('finds nothing when path.txt names a binary that is not there', () => {
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    expect(findElectronRuntime({}, pkg)).toBeUndefined();
  });

  it('finds the installed dist/<path.txt>', () => {
    writeFileSync(join(pkg, 'path.txt'), 'electron\n');
    install(join(pkg, 'dist'), 'electron');
    expect(findElectronRuntime({}, pkg)).toBe(join(pkg, 'dist', 'electron'));
  });

  it('prefers ELECTRON_OVERRIDE_DIST_PATH, as the electron package does', () => {
    const override = join(pkg, 'elsewhere');
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    install(join(pkg, 'dist'), 'electron');
    install(override, 'electron');
    expect(findElectronRuntime({ ELECTRON_OVERRIDE_DIST_PATH: override }, pkg)).toBe(join(override, 'electron'));
  });

  it('finds nothing when the override points at an empty folder', () => {
    expect(findElectronRuntime({ ELECTRON_OVERRIDE_DIST_PATH: join(pkg, 'missing') }, pkg)).toBeUndefined();
  });

  it('locates the real electron package without loading it', () => {
    expect(electronPackageDir()).toMatch(/node_modules[/\\]electron$/);
  });
});
