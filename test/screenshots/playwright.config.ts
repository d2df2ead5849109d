/**
 * `npm run screenshots`: renders the README's screenshots (docs/screenshots/) with the real app and
 * stack in Debian's Chromium. Not part of `npm test`: it asserts nothing, it only draws.
 */
import { defineConfig } from '@playwright/test';
import baseConfig from '../../playwright.config';

export default defineConfig({
  ...baseConfig,
  testDir: '.',
  testMatch: 'take-screenshots.ts',
  timeout: 180_000,
});
