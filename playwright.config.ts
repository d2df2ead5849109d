import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium: Playwright cannot download its own browser on these machines. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  // The stack runs built (test/e2e/support/browser-host.ts `startStackProgram`): built here, before any
  // test's time starts, when a source changed. A path of its own: test/screenshots/ reuses this config.
  globalSetup: fileURLToPath(new URL('./test/support/built-services-setup.ts', import.meta.url)),
  timeout: 60_000,
  workers: 1,
  reporter: process.env.CI ? 'list' : 'list',
  use: {
    headless: true,
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
