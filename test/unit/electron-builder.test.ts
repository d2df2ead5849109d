/**
 * electron-builder.yml, read the way `npm run dist` reads it (electron-builder's own loader, from the
 * installed app-builder-lib) and validated against that version's schema: every Electron fuse we rely
 * on is set, to the value docs/security.md ("The packaged Electron app") explains. Removing or
 * misspelling a fuse fails here, not silently in a release.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
// app-builder-lib as electron-builder itself resolves it (it is electron-builder's dependency, not ours).
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { getConfig, validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, debugLogger: unknown): Promise<void>;
};
const { DebugLogger } = fromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const EXPECTED_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
} as const;

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(projectRoot, null, null);
}, 30_000);

describe('electron-builder.yml', () => {
  it('is a valid configuration for the installed electron-builder', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  }, 30_000); // compiling electron-builder's schema takes seconds

  it('would be refused with a misspelt fuse (so the schema check above means something)', async () => {
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } } as Configuration;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  }, 30_000);

  it.each(Object.entries(EXPECTED_FUSES))('sets the fuse %s to %s', (fuse, value) => {
    expect(config.electronFuses?.[fuse as keyof typeof EXPECTED_FUSES]).toBe(value);
  });

  it('sets no fuse beyond the reviewed ones', () => {
    expect(Object.keys(config.electronFuses ?? {}).sort()).toEqual(Object.keys(EXPECTED_FUSES).sort());
  });

  it('packs the app into an asar archive (the asar fuses need one)', () => {
    expect(config.asar).toBe(true);
  });
});
