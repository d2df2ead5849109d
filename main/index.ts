/**
 * Composition root of the Electron host: builds the platform adapters, the core, the window and the
 * IPC, and ties them to the app's lifecycle. Everything here is wiring; behaviour lives in main/core
 * and main/electron.
 */
import { type BrowserWindow, app, dialog } from 'electron';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createHubdeskCore } from './core/host';
import { OAUTH_REDIRECT_URI } from './core/sign-in';
import { type AppLifecycle, registerShutdown, startAppLifecycle } from './electron/app-lifecycle';
import { keepRunningInTray } from './electron/close-to-tray';
import { createElectronStore } from './electron/electron-store-adapter';
import { registerIpc } from './electron/ipc';
import { createLaunchAtLogin } from './electron/login-item';
import { createNativeNotifier } from './electron/native-notifier';
import { createOpenExternal } from './electron/open-external';
import { handleRendererScheme, registerRendererScheme } from './electron/renderer-protocol';
import { createSafeStorageCipher } from './electron/safe-storage-cipher';
import { showAndFocus } from './electron/show-window';
import { createHubdeskTray, trayIconPath } from './electron/tray';
import { createMainWindow, isRendererUrl, resolveRendererSource } from './electron/window';
import { createConsoleLogger } from '../common/logger';
import { wakeOnResume } from './electron/power-events';
import { createHostAdapters } from './host-adapters';
import { makePrivateFolder } from './private-folder';
import { errorMessage } from '../common/error-message';

// Paths in the build output (out/main/index.js): electron-vite writes the siblings.
const PRELOAD_PATH = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const RENDERER_ROOT = fileURLToPath(new URL('../renderer/', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const logger = createConsoleLogger('electron');

async function start(lifecycle: AppLifecycle): Promise<void> {
  makePrivateFolder(app.getPath('userData'));
  const store = createElectronStore();
  const shared = await createHostAdapters(process.env, OAUTH_REDIRECT_URI, logger);
  // The core may notify before the window exists: a click brings back the window there is by then.
  const created: { window?: BrowserWindow } = {};
  const notifier = createNativeNotifier({ window: () => created.window, logger });
  const setLaunchAtLogin = createLaunchAtLogin({
    platform: process.platform,
    env: process.env,
    homeDir: homedir(),
    execPath: process.execPath,
    defaultApp: process.defaultApp === true,
    appPath: app.getAppPath(),
  });
  const core = await createHubdeskCore({
    ...shared.deps,
    cipher: await createSafeStorageCipher(),
    store,
    dataDir: app.getPath('userData'),
    openExternal: createOpenExternal(
      [shared.deps.backend.authUrl, shared.deps.backend.portalUrl].flatMap((url) => (url ? [new URL(url).origin] : [])),
      logger,
    ),
    desktop: { tray: true, setLaunchAtLogin, notify: notifier.notify },
  });

  const source = resolveRendererSource(process.env, RENDERER_ROOT);
  if (source.kind === 'app') handleRendererScheme(source.root, logger);
  const mainWindow = createMainWindow({ preloadPath: PRELOAD_PATH, source, logger, store });
  created.window = mainWindow;
  const tray = createHubdeskTray({
    core,
    iconPath: trayIconPath({ packaged: app.isPackaged, resourcesPath: process.resourcesPath, projectRoot: PROJECT_ROOT }),
    showWindow: () => showAndFocus(mainWindow),
    quit: () => app.quit(),
    notifier,
    logger,
  });
  // Electron cannot read a tray back: unpackaged runs let the end-to-end tests see it (test/e2e/electron/app.spec.ts).
  if (!app.isPackaged) Object.defineProperty(globalThis, '__hubdeskTray', { value: { view: () => tray.view() } });
  const closeToTray = keepRunningInTray({ window: mainWindow, core, notifier, logger });
  const unregisterIpc = registerIpc({
    window: mainWindow,
    isRendererUrl: (url) => isRendererUrl(source, url),
    dispatch: core.dispatch,
    events: core,
    logger,
  });
  lifecycle.attach({ handleOAuthCallback: (params) => core.handleOAuthCallback(params), window: () => mainWindow });
  const stopWaking = wakeOnResume(core);

  // One window is the whole app (on macOS too): closing it quits, unless close-to-tray hid it instead.
  app.on('window-all-closed', () => app.quit());
  registerShutdown(async () => {
    closeToTray.dispose();
    tray.dispose();
    stopWaking();
    unregisterIpc();
    await core.dispose();
    await shared.close();
  }, logger);
}

// Privileges of app://hubdesk (the renderer's scheme) can only be declared before ready.
registerRendererScheme();
const lifecycle = startAppLifecycle({ argv: process.argv, defaultApp: process.defaultApp === true, execPath: process.execPath, logger });
if (lifecycle) {
  app
    .whenReady()
    .then(() => start(lifecycle))
    .catch((error: unknown) => {
      const message = errorMessage(error);
      logger.error('Hubdesk could not start', { error: message });
      dialog.showErrorBox('Hubdesk could not start', message);
      app.exit(1);
    });
}
