import { beforeEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../../support/core-fakes';
import { BrowserWindow, fakeEvent, resetFakeElectron } from '../../../support/fake-electron';
import {
  CONTENT_SECURITY_POLICY,
  createMainWindow,
  isRendererUrl,
  type RendererSource,
  resolveRendererSource,
} from '../../../../main/electron/window';

vi.mock('electron', () => import('../../../support/fake-electron'));

const FILE_SOURCE: RendererSource = { kind: 'file', path: '/opt/hubdesk/out/renderer/index.html' };

function open(source: RendererSource = FILE_SOURCE) {
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

  it('loads the built renderer from a file and shows the window when ready', () => {
    const { window } = open();
    expect(window.loadFile).toHaveBeenCalledWith(FILE_SOURCE.path);
    expect(window.loadURL).not.toHaveBeenCalled();
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

    const inPage = fakeEvent({ url: 'file:///opt/hubdesk/out/renderer/index.html#hubs', isSameDocument: true, isMainFrame: true });
    contents.emit('will-navigate', inPage);
    expect(inPage.defaultPrevented).toBe(false);

    expect(JSON.stringify(logger.lines)).not.toContain('secret');
  });

  it('denies window.open and <webview>', () => {
    const { contents } = open();
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const attach = fakeEvent();
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });

  it('denies every permission request and check', () => {
    const { contents } = open();
    const [requestHandler] = contents.session.setPermissionRequestHandler.mock.calls[0] as [(c: unknown, p: string, cb: (ok: boolean) => void) => void];
    const callback = vi.fn();
    requestHandler(contents, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    const [checkHandler] = contents.session.setPermissionCheckHandler.mock.calls[0] as [() => boolean];
    expect(checkHandler()).toBe(false);
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
    expect(callback).toHaveBeenCalledWith({ responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
});

describe('renderer source', () => {
  it('is the built file unless electron-vite names its dev server', () => {
    expect(resolveRendererSource({}, '/x/index.html')).toEqual({ kind: 'file', path: '/x/index.html' });
    expect(resolveRendererSource({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, '/x/index.html')).toEqual({ kind: 'dev-server', url: 'http://localhost:5173/' });
  });

  it.each(['https://evil.example/', 'http://192.168.1.5:5173/', 'not a url'])('refuses %s as a dev server', (url) => {
    expect(() => resolveRendererSource({ ELECTRON_RENDERER_URL: url }, '/x/index.html')).toThrow(/ELECTRON_RENDERER_URL/);
  });

  it('recognises our document only', () => {
    expect(isRendererUrl(FILE_SOURCE, 'file:///opt/hubdesk/out/renderer/index.html')).toBe(true);
    expect(isRendererUrl(FILE_SOURCE, 'file:///opt/hubdesk/out/renderer/index.html?x=1#hubs')).toBe(true);
    expect(isRendererUrl(FILE_SOURCE, 'file:///tmp/evil.html')).toBe(false);
    expect(isRendererUrl(FILE_SOURCE, 'https://evil.example/opt/hubdesk/out/renderer/index.html')).toBe(false);
    expect(isRendererUrl(FILE_SOURCE, 'garbage')).toBe(false);
    const dev: RendererSource = { kind: 'dev-server', url: 'http://localhost:5173/' };
    expect(isRendererUrl(dev, 'http://localhost:5173/src/x')).toBe(true);
    expect(isRendererUrl(dev, 'http://localhost:5174/')).toBe(false);
  });
});
