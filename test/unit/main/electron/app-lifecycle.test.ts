import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../../support/core-fakes';
import { app, BrowserWindow, fakeElectron, fakeEvent, resetFakeElectron } from '../../../support/fake-electron';
import { APP_SCHEME, OAUTH_REDIRECT_URI } from '../../../../main/core/sign-in/deep-link';
import { registerShutdown, startAppLifecycle } from '../../../../main/electron/app-lifecycle';

vi.mock('electron', () => import('../../../support/fake-electron'));

const LINK = `${OAUTH_REDIRECT_URI}?code=the-code&state=the-state`;
const PARAMS = { code: 'the-code', state: 'the-state' };

function start(argv: string[] = ['/opt/Hubdesk/hubdesk'], defaultApp = false) {
  const logger = recordingLogger();
  const lifecycle = startAppLifecycle({ argv, defaultApp, execPath: '/usr/bin/electron', logger });
  const window = new BrowserWindow();
  const handleOAuthCallback = vi.fn(async () => 'accepted' as const);
  const attach = () => lifecycle?.attach({ handleOAuthCallback, window: () => window as never });
  return { lifecycle, logger, window, handleOAuthCallback, attach };
}

describe('app lifecycle', () => {
  beforeEach(() => resetFakeElectron());

  it('quits when another instance holds the lock, and installs nothing', () => {
    fakeElectron.state.singleInstanceLock = false;
    const { lifecycle } = start();
    expect(lifecycle).toBeNull();
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.listenerCount('open-url')).toBe(0);
    expect(app.setAsDefaultProtocolClient).not.toHaveBeenCalled();
  });

  it('enables the sandbox everywhere and registers the scheme', () => {
    start();
    expect(app.enableSandbox).toHaveBeenCalled();
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith(APP_SCHEME);
  });

  it('registers the scheme with the project path when run as `electron <project>`', () => {
    start(['/usr/bin/electron', 'out/main/index.js'], true);
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith(APP_SCHEME, '/usr/bin/electron', [resolve('out/main/index.js')]);
  });

  it('hands an open-url redirect (macOS) to the core and brings the window forward', () => {
    const { attach, handleOAuthCallback, window } = start();
    attach();
    const event = fakeEvent();
    app.emit('open-url', event, LINK);
    expect(event.defaultPrevented).toBe(true);
    expect(handleOAuthCallback).toHaveBeenCalledWith(PARAMS);
    expect(window.focus).toHaveBeenCalled();
  });

  it('hands a redirect in a second instance’s argv (Windows, Linux) to the core', () => {
    const { attach, handleOAuthCallback, window } = start();
    attach();
    window.minimized = true;
    app.emit('second-instance', fakeEvent(), ['/opt/Hubdesk/hubdesk', '--flag', LINK], '/home/u');
    expect(handleOAuthCallback).toHaveBeenCalledWith(PARAMS);
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
  });

  it('focuses the window when a second instance starts without a link', () => {
    const { attach, handleOAuthCallback, window } = start();
    attach();
    app.emit('second-instance', fakeEvent(), ['/opt/Hubdesk/hubdesk'], '/home/u');
    expect(window.focus).toHaveBeenCalled();
    expect(handleOAuthCallback).not.toHaveBeenCalled();
  });

  it('keeps links that arrive before the core is ready, including the cold-start argv', () => {
    const { attach, handleOAuthCallback } = start(['/opt/Hubdesk/hubdesk', LINK]);
    app.emit('open-url', fakeEvent(), `${OAUTH_REDIRECT_URI}?error=access_denied&state=s2`);
    expect(handleOAuthCallback).not.toHaveBeenCalled();
    attach();
    expect(handleOAuthCallback.mock.calls).toEqual([[PARAMS], [{ error: 'access_denied', state: 's2' }]]);
  });

  it.each([
    ['a foreign scheme', 'https://evil.example/oauth/callback?code=stolen'],
    ['a look-alike scheme', 'io.hubdesk.app.evil:/oauth/callback?code=stolen&state=s'],
    ['another path', `${APP_SCHEME}:/settings?code=stolen&state=s`],
    ['a duplicated parameter', `${OAUTH_REDIRECT_URI}?code=stolen&code=x&state=s`],
    ['a non-string', 42],
  ])('ignores %s and logs why without its content', (_name, link) => {
    const { attach, handleOAuthCallback, logger } = start();
    attach();
    app.emit('open-url', fakeEvent(), link);
    app.emit('second-instance', fakeEvent(), ['/opt/Hubdesk/hubdesk', link], '/home/u');
    expect(handleOAuthCallback).not.toHaveBeenCalled();
    expect(JSON.stringify(logger.lines)).not.toContain('stolen');
  });

  it('logs a deep link that the core could not handle, and keeps running', async () => {
    const { lifecycle, logger } = start();
    lifecycle?.attach({ handleOAuthCallback: async () => Promise.reject(new Error('boom')), window: () => null });
    app.emit('open-url', fakeEvent(), LINK);
    await vi.waitFor(() => expect(logger.lines.some((l) => l.level === 'error')).toBe(true));
  });

  it('guards every new webContents', () => {
    start();
    const other = new BrowserWindow();
    const attachWebview = fakeEvent();
    other.webContents.emit('will-attach-webview', attachWebview, {}, {});
    expect(attachWebview.defaultPrevented).toBe(true);
    expect(other.webContents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });
});

describe('registerShutdown', () => {
  beforeEach(() => resetFakeElectron());

  it('holds the quit until cleanup has finished, once', async () => {
    let finish = () => {};
    const cleanup = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    registerShutdown(cleanup, recordingLogger());

    const first = fakeEvent();
    app.emit('will-quit', first);
    const second = fakeEvent();
    app.emit('will-quit', second);
    expect(first.defaultPrevented).toBe(true);
    expect(second.defaultPrevented).toBe(true);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();

    finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    const last = fakeEvent();
    app.emit('will-quit', last);
    expect(last.defaultPrevented).toBe(false);
  });

  it('still quits when cleanup fails', async () => {
    const logger = recordingLogger();
    registerShutdown(async () => Promise.reject(new Error('stuck')), logger);
    app.emit('will-quit', fakeEvent());
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
    expect(logger.lines.some((l) => l.level === 'error')).toBe(true);
  });
});
