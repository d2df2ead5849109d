/**
 * The Electron host end to end (Playwright `_electron`), against the embedded demo stack. Runs only
 * where an Electron runtime is installed (ELECTRON_OVERRIDE_DIST_PATH or node_modules/electron/dist);
 * elsewhere every test is skipped with the reason printed. See docs/electron-runtime.md.
 */
import { _electron as electron, type ElectronApplication, expect, type Page, test } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OAUTH_REDIRECT_URI } from '../../../main/core/deep-link';
import { findElectronRuntime } from '../../../main/electron/find-runtime';

const SKIP_REASON = 'Electron runtime not installed: skipped';
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const runtime = findElectronRuntime(process.env);
if (runtime === undefined) console.log(SKIP_REASON);

test.describe('Electron host', () => {
  test.skip(runtime === undefined, SKIP_REASON);

  let app: ElectronApplication;
  let page: Page;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const { build } = await import('electron-vite');
    await build({ root: projectRoot, configFile: join(projectRoot, 'electron.vite.config.ts'), logLevel: 'warn' });
    // Chromium's own sandbox cannot start as root (containers); our renderer sandbox is unaffected.
    const args = process.getuid?.() === 0 ? ['--no-sandbox', projectRoot] : [projectRoot];
    app = await electron.launch({ executablePath: runtime, args, env: { ...process.env, HUBDESK_OPEN_EXTERNAL: 'none' } });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterAll(async () => {
    await app?.close();
  });

  test('opens one window, titled Hubdesk', async () => {
    await expect(page).toHaveTitle('Hubdesk');
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('gives the sandboxed page the contract verbs and no Node or IPC', async () => {
    const seen = await page.evaluate(async () => {
      const scope = globalThis as unknown as { hubdesk: Record<string, unknown> & { session: { get(): Promise<{ ok: boolean }> } }; require?: unknown; process?: unknown };
      return {
        keys: Object.keys(scope.hubdesk).sort(),
        require: typeof scope.require,
        process: typeof scope.process,
        session: (await scope.hubdesk.session.get()).ok,
      };
    });
    expect(seen).toEqual({ keys: ['auth', 'hubs', 'notices', 'on', 'session', 'vault'], require: 'undefined', process: 'undefined', session: true });
  });

  test('denies new windows and navigation away', async () => {
    expect(await page.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com/') === null)).toBe(true);
    await page.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
    });
    await expect(page).toHaveURL('app://hubdesk/index.html');
    expect(app.windows()).toHaveLength(1);
  });

  test('serves the renderer from app://hubdesk with the Electron CSP as a header', async () => {
    expect(page.url()).toBe('app://hubdesk/index.html');
    expect(await page.evaluate(() => (globalThis as unknown as { location: { origin: string } }).location.origin)).toBe('app://hubdesk');
    // The header applies: a socket to loopback (the browser host's need, not ours) is a connect-src violation.
    const violated = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const scope = globalThis as unknown as {
            document: { addEventListener(type: string, listener: (event: { effectiveDirective: string }) => void): void };
            WebSocket: new (url: string) => unknown;
            setTimeout(callback: () => void, ms: number): unknown;
          };
          scope.document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective));
          try {
            new scope.WebSocket('ws://127.0.0.1:9/');
          } catch {
            // some versions throw synchronously besides reporting the violation
          }
          scope.setTimeout(() => resolve('no violation'), 5_000);
        }),
    );
    expect(violated).toBe('connect-src');
  });

  test('ignores an unsolicited sign-in redirect and keeps running', async () => {
    await app.evaluate(({ app: electronApp }, link) => {
      electronApp.emit('open-url', { preventDefault() {} }, link);
    }, `${OAUTH_REDIRECT_URI}?code=forged&state=forged`);
    const auth = await page.evaluate(async () => {
      const bridge = (globalThis as unknown as { hubdesk: { session: { get(): Promise<{ ok: boolean; value?: { auth: { status: string } } }> } } }).hubdesk;
      return (await bridge.session.get()).value?.auth.status;
    });
    expect(auth).toBe('signed-out');
  });
});
