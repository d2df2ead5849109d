import { beforeEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../../support/core-fakes';
import { BrowserWindow, fakeEvent, resetFakeElectron } from '../../../support/fake-electron';
import { contentSecurityPolicy } from '../../../../main/csp';
import { createMainWindow, isRendererUrl, type RendererSource, resolveRendererSource } from '../../../../main/electron/window';

vi.mock('electron', () => import('../../../support/fake-electron'));

const APP_SOURCE: RendererSource = { kind: 'app', root: '/opt/hubdesk/out/renderer' };

function open(source: RendererSource = APP_SOURCE) {
  const logger = recordingLogger();
  createMainWindow({ preloadPath: '/opt/hubdesk/out/preload/index.cjs', source, logger });
  const window = BrowserWindow.instances.at(-1);
  if (!window) throw new Error('no window created');
  return { window, contents: window.webContents, logger };
}

describe('main window', () => {
  beforeEach(() => resetFakeElectron());

  it('is created with the hardened web preferences and our preload', () => {
    const { window } = open();
    expect(window.options).toMatchObject({ title: 'Hubdesk', show: false, minWidth: expect.any(Number), minHeight: expect.any(Number) });
    expect(window.options.webPreferences).toEqual({
      preload: '/opt/hubdesk/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    });
  });

  it('loads the built renderer from app://hubdesk (never file://) and shows the window when ready', () => {
    const { window, contents } = open();
    expect(window.loadURL).toHaveBeenCalledWith('app://hubdesk/index.html');
    expect(window.loadFile).not.toHaveBeenCalled();
    // The CSP comes from the app:// handler itself, not from a header rewrite of every response.
    expect(contents.session.webRequest.onHeadersReceived).not.toHaveBeenCalled();
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledTimes(1);
  });

  it('prevents navigation and redirects to other documents, but not in-page navigation', () => {
    const { contents, logger } = open();
    const away = fakeEvent({ url: 'https://evil.example/?code=secret', isSameDocument: false, isMainFrame: true });
    contents.emit('will-navigate', away);
    expect(away.defaultPrevented).toBe(true);

    const redirect = fakeEvent({ url: 'https://evil.example/', isSameDocument: false, isMainFrame: true });
    contents.emit('will-redirect', redirect);
    expect(redirect.defaultPrevented).toBe(true);

    const frame = fakeEvent({ url: 'https://evil.example/', isSameDocument: false, isMainFrame: false });
    contents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);

    const inPage = fakeEvent({ url: 'app://hubdesk/index.html#hubs', isSameDocument: true, isMainFrame: true });
    contents.emit('will-navigate', inPage);
    expect(inPage.defaultPrevented).toBe(false);

    // Nothing outside our document either: local files, another page of our own origin, the OAuth scheme.
    for (const url of ['file:///etc/passwd', 'app://hubdesk/assets/index.js', 'app://other/index.html', 'io.hubdesk.app:/oauth/callback?code=secret']) {
      const event = fakeEvent({ url, isSameDocument: false, isMainFrame: true });
      contents.emit('will-navigate', event);
      expect(event.defaultPrevented, url).toBe(true);
    }

    expect(JSON.stringify(logger.lines)).not.toContain('secret');
  });

  it('denies window.open and <webview>', () => {
    const { contents } = open();
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const attach = fakeEvent();
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });

  it('denies every permission request and check but writing text to the clipboard', () => {
    const { contents } = open();
    const [requestHandler] = contents.session.setPermissionRequestHandler.mock.calls[0] as [(c: unknown, p: string, cb: (ok: boolean) => void) => void];
    const [checkHandler] = contents.session.setPermissionCheckHandler.mock.calls[0] as [(c: unknown, p: string) => boolean];
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal']) {
      const callback = vi.fn();
      requestHandler(contents, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(checkHandler(contents, permission)).toBe(false);
    }
    const write = vi.fn();
    requestHandler(contents, 'clipboard-sanitized-write', write);
    expect(write).toHaveBeenCalledWith(true);
    expect(checkHandler(contents, 'clipboard-sanitized-write')).toBe(true);
  });

  it('loads the dev server with a CSP response header', () => {
    const { window, contents } = open({ kind: 'dev-server', url: 'http://localhost:5173/' });
    expect(window.loadURL).toHaveBeenCalledWith('http://localhost:5173/');
    const [filter, listener] = contents.session.webRequest.onHeadersReceived.mock.calls[0] as [
      { urls: string[] },
      (details: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void,
    ];
    expect(filter).toEqual({ urls: ['http://localhost:5173/*'] });
    const callback = vi.fn();
    listener({ responseHeaders: { 'Content-Type': ['text/html'] } }, callback);
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [contentSecurityPolicy({ kind: 'electron' })] },
    });
  });
});

describe('renderer source', () => {
  it('is the built folder (served at app://hubdesk) unless electron-vite names its dev server', () => {
    expect(resolveRendererSource({}, '/x/renderer')).toEqual({ kind: 'app', root: '/x/renderer' });
    expect(resolveRendererSource({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, '/x/renderer')).toEqual({
      kind: 'dev-server',
      url: 'http://localhost:5173/',
    });
  });

  it.each(['https://evil.example/', 'http://192.168.1.5:5173/', 'not a url'])('refuses %s as a dev server', (url) => {
    expect(() => resolveRendererSource({ ELECTRON_RENDERER_URL: url }, '/x/renderer')).toThrow(/ELECTRON_RENDERER_URL/);
  });

  it('recognises our document only', () => {
    expect(isRendererUrl(APP_SOURCE, 'app://hubdesk/index.html')).toBe(true);
    expect(isRendererUrl(APP_SOURCE, 'app://hubdesk/index.html?x=1#hubs')).toBe(true);
    expect(isRendererUrl(APP_SOURCE, 'file:///opt/hubdesk/out/renderer/index.html')).toBe(false); // the old way in is closed
    expect(isRendererUrl(APP_SOURCE, 'app://hubdesk/assets/other.html')).toBe(false);
    expect(isRendererUrl(APP_SOURCE, 'app://other/index.html')).toBe(false);
    expect(isRendererUrl(APP_SOURCE, 'app://hubdesk:8080/index.html')).toBe(false);
    expect(isRendererUrl(APP_SOURCE, 'app://user@hubdesk/index.html')).toBe(false);
    expect(isRendererUrl(APP_SOURCE, 'io.hubdesk.app://hubdesk/index.html')).toBe(false);
    expect(isRendererUrl(APP_SOURCE, 'https://hubdesk/index.html')).toBe(false);
    expect(isRendererUrl(APP_SOURCE, 'garbage')).toBe(false);
    const dev: RendererSource = { kind: 'dev-server', url: 'http://localhost:5173/' };
    expect(isRendererUrl(dev, 'http://localhost:5173/src/x')).toBe(true);
    expect(isRendererUrl(dev, 'http://localhost:5174/')).toBe(false);
  });
});
