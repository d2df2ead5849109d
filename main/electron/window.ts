/**
 * The app's one window: the sandboxed renderer with the preload bridge and nothing else. The
 * renderer is a local file in production and electron-vite's dev server in development; either way
 * `isRendererUrl` is what the IPC layer trusts.
 */
import { BrowserWindow } from 'electron';
import { pathToFileURL } from 'node:url';
import { isLoopback } from '../backend';
import type { Logger } from '../core/ports';
import { guardWebContents } from './web-contents-guard';

export type RendererSource = { kind: 'file'; path: string } | { kind: 'dev-server'; url: string };

/** Same policy as the meta tag of renderer/index.html, minus the browser host's WebSocket. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** electron-vite sets ELECTRON_RENDERER_URL in development only; it must be its loopback dev server. */
export function resolveRendererSource(env: NodeJS.ProcessEnv, builtIndexHtml: string): RendererSource {
  const devUrl = env.ELECTRON_RENDERER_URL;
  if (devUrl === undefined || devUrl === '') return { kind: 'file', path: builtIndexHtml };
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
  parsed.search = '';
  parsed.hash = '';
  return parsed.href === pathToFileURL(source.path).href;
}

export interface MainWindowOptions {
  preloadPath: string;
  source: RendererSource;
  logger: Logger;
}

export function createMainWindow({ preloadPath, source, logger }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Hubdesk',
    width: 1100,
    height: 760,
    minWidth: 720,
    minHeight: 480,
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

  // The renderer needs no camera, notifications, clipboard, … : refuse every request and every check.
  webContents.session.setPermissionRequestHandler((_contents, permission, callback) => {
    logger.warn('window: permission refused', { permission });
    callback(false);
  });
  webContents.session.setPermissionCheckHandler(() => false);

  window.once('ready-to-show', () => window.show());

  if (source.kind === 'dev-server') {
    // A file:// document has no response headers (the meta tag applies); the dev server's get one.
    webContents.session.webRequest.onHeadersReceived({ urls: [`${new URL(source.url).origin}/*`] }, (details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
    void window.loadURL(source.url).catch((error: unknown) => logger.error('window: could not load the dev server', { error: String(error) }));
  } else {
    void window.loadFile(source.path).catch((error: unknown) => logger.error('window: could not load the renderer', { error: String(error) }));
  }
  return window;
}
