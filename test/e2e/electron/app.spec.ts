/**
 * The Electron host end to end (Playwright `_electron`), against the embedded demo stack. Runs only
 * where an Electron runtime is installed (ELECTRON_OVERRIDE_DIST_PATH or node_modules/electron/dist);
 * elsewhere every test is skipped with the reason printed. See docs/electron-runtime.md.
 */
import { _electron as electron, type ElectronApplication, expect, type Page, test } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNELS } from '../../../common/ipc-contract';
import { OAUTH_REDIRECT_URI } from '../../../main/core/sign-in/deep-link';
import { findElectronRuntime } from '../../../main/electron/find-runtime';
import type { TrayView } from '../../../main/electron/tray-menu';
import { DEMO_USER } from '../../../services/stack';
import { consent } from '../../support/consent-driver';
import { tempDir } from '../../support/temp-dir';

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
      const scope = globalThis as unknown as {
        hubdesk: Record<string, unknown> & { session: { get(): Promise<{ ok: boolean }> } };
        require?: unknown;
        process?: unknown;
      };
      return {
        keys: Object.keys(scope.hubdesk).sort(),
        require: typeof scope.require,
        process: typeof scope.process,
        session: (await scope.hubdesk.session.get()).ok,
      };
    });
    expect(seen).toEqual({
      keys: [...new Set(CHANNELS.map((channel) => channel.split('.')[0]!)), 'on'].sort(),
      require: 'undefined',
      process: 'undefined',
      session: true,
    });
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

/**
 * The tray, close to tray and a favourite in the tray menu (docs/architecture.md, "The desktop"), in an app of its own with a
 * fresh profile (XDG_CONFIG_HOME), so the preference it turns on does not outlive the test. Electron
 * cannot read a tray back: an unpackaged app shows its tray's view as `globalThis.__hubdeskTray`.
 */
test.describe('Electron host: tray and close to tray', () => {
  test.skip(runtime === undefined, SKIP_REASON);
  test.describe.configure({ mode: 'serial' });

  let app: ElectronApplication;
  let page: Page;
  const trayView = () => app.evaluate(() => (globalThis as { __hubdeskTray?: { view(): TrayView | null } }).__hubdeskTray?.view() ?? null);
  const trayLabels = async () => ((await trayView())?.items ?? []).flatMap((item) => (item.type === 'separator' ? [] : [item.label]));
  const windows = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((window) => ({ visible: window.isVisible() })));
  const authorizationUrl = () =>
    page.evaluate(async () => {
      const bridge = (globalThis as unknown as { hubdesk: { session: { get(): Promise<{ value?: { auth: { authorizationUrl?: string } } }> } } }).hubdesk;
      return (await bridge.session.get()).value?.auth.authorizationUrl ?? '';
    });

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const { build } = await import('electron-vite');
    await build({ root: projectRoot, configFile: join(projectRoot, 'electron.vite.config.ts'), logLevel: 'warn' });
    const args = process.getuid?.() === 0 ? ['--no-sandbox', projectRoot] : [projectRoot];
    const env = { ...process.env, HUBDESK_OPEN_EXTERNAL: 'none', XDG_CONFIG_HOME: tempDir('e2e-electron-tray') };
    app = await electron.launch({ executablePath: runtime, args, env });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterAll(async () => {
    await app?.close(); // app.quit(): before-quit lets the window close even with close-to-tray on
  });

  test('the tray icon is there, and its tooltip says the state', async () => {
    await expect.poll(async () => (await trayView())?.tooltip).toBe('Hubdesk — Signed out');
    expect(await trayLabels()).toEqual(['Signed out', 'Open Hubdesk', 'Quit Hubdesk']);
  });

  test('with close to tray on, closing the window hides it and the app keeps running; the dock icon brings it back', async () => {
    const set = await page.evaluate(async () => {
      const bridge = (globalThis as unknown as { hubdesk: { desktop: { set(patch: { closeToTray: boolean }): Promise<{ ok: boolean }> } } }).hubdesk;
      return (await bridge.desktop.set({ closeToTray: true })).ok;
    });
    expect(set).toBe(true);
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
    await expect.poll(windows).toEqual([{ visible: false }]);
    // Still running: main answers, and the tray is still there.
    expect((await trayView())?.tooltip).toBe('Hubdesk — Signed out');
    await app.evaluate(({ app: electronApp }) => void electronApp.emit('activate', { preventDefault() {} }, false));
    await expect.poll(windows).toEqual([{ visible: true }]);
  });

  test('the tray menu lists a favourite after starring it in the UI, and says the hub is live', async () => {
    // Signing in without a system browser: the consent pages are played over HTTP, the redirect handed over as macOS would.
    await app.evaluate(({ shell }) => {
      Object.assign(shell, { openExternal: async () => {} });
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(authorizationUrl).not.toBe('');
    const redirect = await consent(await authorizationUrl(), DEMO_USER, 'Allow');
    await app.evaluate(({ app: electronApp }, link) => void electronApp.emit('open-url', { preventDefault() {} }, link), redirect.href);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
    const home = page.getByRole('region', { name: 'Devices on Home' });
    await expect(home.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    await expect.poll(async () => (await trayView())?.tooltip).toBe('Hubdesk — Home is live');
    expect(await trayLabels()).not.toContain('Ceiling light');

    await home.getByRole('article', { name: 'Ceiling light', exact: true }).getByRole('button', { name: 'Favourite: Ceiling light' }).click();
    await expect.poll(trayLabels).toContain('Ceiling light');
    const item = (await trayView())?.items.find((entry) => entry.type === 'checkbox' && entry.label === 'Ceiling light');
    expect(item).toMatchObject({ type: 'checkbox', enabled: true, action: { kind: 'toggle', hubId: expect.any(String), deviceId: expect.any(String) } });
  });
});
