/**
 * The app's one window: the sandboxed renderer with the preload bridge and nothing else. The
 * renderer is served from our own scheme in production (`app://hubdesk/index.html`, see
 * renderer-protocol.ts) and from electron-vite's dev server in development; either way
 * `isRendererUrl` is what the IPC layer trusts.
 */
import { BrowserWindow, screen } from 'electron';
import { isLoopback } from '../backend';
import type { KeyValueStore, Logger } from '../core/shared';
import { contentSecurityPolicy } from '../csp';
import { RENDERER_HOST, RENDERER_INDEX_URL, RENDERER_SCHEME } from './renderer-protocol';
import { guardWebContents } from './web-contents-guard';
import { DEFAULT_SIZE, MIN_SIZE, rememberPlacement, restorePlacement, WINDOW_BOUNDS_KEY } from './window-bounds';

/** `app`: the built renderer folder, served at app://hubdesk/; `dev-server`: electron-vite's. */
export type RendererSource = { kind: 'app'; root: string } | { kind: 'dev-server'; url: string };

/** Writing to the clipboard only ("sanitized": text, never reading it back). */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** electron-vite sets ELECTRON_RENDERER_URL in development only; it must be its loopback dev server. */
export function resolveRendererSource(env: NodeJS.ProcessEnv, builtRendererRoot: string): RendererSource {
  const devUrl = env.ELECTRON_RENDERER_URL;
  if (devUrl === undefined || devUrl === '') return { kind: 'app', root: builtRendererRoot };
  let url: URL;
  try {
    url = new URL(devUrl);
  } catch {
    throw new Error('ELECTRON_RENDERER_URL is not a URL');
  }
  if (url.protocol !== 'http:' || !isLoopback(url.hostname)) throw new Error('ELECTRON_RENDERER_URL must be an http URL on loopback');
  return { kind: 'dev-server', url: url.href };
}

/** True when `url` is our renderer's document (query and fragment ignored). */
export function isRendererUrl(source: RendererSource, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (source.kind === 'dev-server') return parsed.origin === new URL(source.url).origin;
  // `app:` is not a special scheme to Node's URL (its `origin` is "null"): compare the parts.
  return (
    parsed.protocol === `${RENDERER_SCHEME}:` &&
    parsed.host === RENDERER_HOST &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.pathname === new URL(RENDERER_INDEX_URL).pathname
  );
}

export interface MainWindowOptions {
  preloadPath: string;
  source: RendererSource;
  logger: Logger;
  /** Where the window's size and position are remembered between runs (docs/device-controls.md, "App shell"); none: the default size, centred. */
  store?: KeyValueStore;
}

export function createMainWindow({ preloadPath, source, logger, store }: MainWindowOptions): BrowserWindow {
  const placement = store ? restorePlacement(store.get(WINDOW_BOUNDS_KEY), screen) : null;
  const window = new BrowserWindow({
    title: 'Hubdesk',
    ...(placement ? { x: placement.x, y: placement.y, width: placement.width, height: placement.height } : DEFAULT_SIZE),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false, // shown on ready-to-show: no white flash
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  const { webContents } = window;
  guardWebContents(webContents, logger);

  // The renderer needs no camera, notifications, clipboard reading, … : refuse every request and every
  // check but one, writing text to the clipboard (the Copy buttons: a link, an intake URL, a curl command).
  webContents.session.setPermissionRequestHandler((_contents, permission, callback) => {
    const allowed = ALLOWED_PERMISSIONS.has(permission);
    if (!allowed) logger.warn('window: permission refused', { permission });
    callback(allowed);
  });
  webContents.session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));

  if (store) rememberPlacement(window, store, (error) => logger.warn('window: could not save its size and position', { error: String(error) }));
  window.once('ready-to-show', () => {
    // maximize() shows the window too, so it waits for the first paint as show() does.
    if (placement?.maximized) window.maximize();
    window.show();
  });

  if (source.kind === 'dev-server') {
    // Our app:// handler sends the CSP itself; the dev server does not, so its responses get it here.
    const csp = contentSecurityPolicy({ kind: 'electron' });
    webContents.session.webRequest.onHeadersReceived({ urls: [`${new URL(source.url).origin}/*`] }, (details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
    });
    void window.loadURL(source.url).catch((error: unknown) => logger.error('window: could not load the dev server', { error: String(error) }));
  } else {
    void window.loadURL(RENDERER_INDEX_URL).catch((error: unknown) => logger.error('window: could not load the renderer', { error: String(error) }));
  }
  return window;
}
