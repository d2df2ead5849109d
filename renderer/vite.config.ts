import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Builds the renderer for both hosts. `base: './'` keeps asset URLs relative, so the same bundle loads
 * from `app://hubdesk/` (Electron, main/electron/renderer-protocol.ts) and from the browser host's static
 * server. Neither needs a CSP meta tag: both send the policy of main/csp.ts as a response header. The
 * Electron helper imports this config from electron.vite.config.ts, so it stays a plain default export.
 */
const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../out/renderer', import.meta.url));

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react()],
  build: { outDir, emptyOutDir: true },
});
