import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, fakeElectron, ipcMain, resetFakeElectron } from '../../../support/fake-electron';
import { recordingLogger } from '../../../support/core-fakes';
import type { EventName, Handlers } from '../../../../common/ipc-contract';
import { createDispatcher } from '../../../../main/core/host/ipc-dispatcher';
import { registerIpc } from '../../../../main/electron/ipc';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../../main/electron/ipc-channels';

vi.mock('electron', () => import('../../../support/fake-electron'));

const RENDERER = 'app://hubdesk/index.html';

function setup() {
  const window = new BrowserWindow();
  window.webContents.mainFrame.url = RENDERER;
  const logger = recordingLogger();
  const dismiss = vi.fn(async (_id: string) => {});
  const handlers = { 'notices.dismiss': dismiss, 'hubs.list': vi.fn(async () => []) } as unknown as Handlers;
  const listeners = new Map<EventName, (payload: unknown) => void>();
  const unsubscribe = vi.fn();
  const events = {
    onEvent: vi.fn((name: EventName, listener: (payload: unknown) => void) => {
      listeners.set(name, listener);
      return unsubscribe;
    }),
  };
  const unregister = registerIpc({
    window: window as never,
    isRendererUrl: (url) => url.split(/[?#]/)[0] === RENDERER,
    dispatch: createDispatcher(handlers, logger, { signedIn: () => true }),
    events: events as never,
    logger,
  });
  return { window, logger, dismiss, listeners, unsubscribe, unregister };
}

const refused = { ok: false, error: { code: 'invalid-argument', message: expect.any(String) } };

describe('Electron IPC', () => {
  beforeEach(() => resetFakeElectron());

  it('dispatches a valid call from the main frame of our window', async () => {
    const { window, dismiss } = setup();
    const result = await fakeElectron.invoke(window.webContents, window.webContents.mainFrame, INVOKE_CHANNEL, 'notices.dismiss', ['n1']);
    expect(result).toEqual({ ok: true, value: undefined });
    expect(dismiss).toHaveBeenCalledWith('n1');
  });

  it('refuses an iframe of our window, even one showing our renderer', async () => {
    const { window, dismiss, logger } = setup();
    const frame = window.webContents.childFrame(RENDERER);
    expect(await fakeElectron.invoke(window.webContents, frame, INVOKE_CHANNEL, 'notices.dismiss', ['n1'])).toEqual(refused);
    expect(dismiss).not.toHaveBeenCalled();
    expect(logger.lines.some((l) => l.level === 'warn' && l.message.includes('untrusted frame'))).toBe(true);
  });

  it('refuses our main frame once it shows another document', async () => {
    const { window, dismiss } = setup();
    window.webContents.mainFrame.url = 'https://evil.example/page';
    expect(await fakeElectron.invoke(window.webContents, window.webContents.mainFrame, INVOKE_CHANNEL, 'notices.dismiss', ['n1'])).toEqual(refused);
    expect(dismiss).not.toHaveBeenCalled();
  });

  it('refuses another window and a sender whose frame is gone', async () => {
    const { window, dismiss } = setup();
    const other = new BrowserWindow();
    other.webContents.mainFrame.url = RENDERER;
    expect(await fakeElectron.invoke(other.webContents, other.webContents.mainFrame, INVOKE_CHANNEL, 'notices.dismiss', ['n1'])).toEqual(refused);
    expect(await fakeElectron.invoke(window.webContents, null, INVOKE_CHANNEL, 'notices.dismiss', ['n1'])).toEqual(refused);
    expect(dismiss).not.toHaveBeenCalled();
  });

  it.each([
    ['an unknown channel', 'fs.readFile', ['/etc/passwd']],
    ['wrong argument types', 'notices.dismiss', [42]],
    ['too many arguments', 'notices.dismiss', ['n1', 'n2']],
    ['arguments that are not an array', 'notices.dismiss', 'n1'],
  ])('answers invalid-argument to %s', async (_name, channel, args) => {
    const { window, dismiss } = setup();
    expect(await fakeElectron.invoke(window.webContents, window.webContents.mainFrame, INVOKE_CHANNEL, channel, args)).toEqual(refused);
    expect(dismiss).not.toHaveBeenCalled();
  });

  it('forwards core events to the window on the event channel', () => {
    const { window, listeners } = setup();
    listeners.get('session.changed')?.({ auth: { status: 'signed-out' } });
    expect(window.webContents.send).toHaveBeenCalledWith(EVENT_CHANNEL, 'session.changed', { auth: { status: 'signed-out' } });
  });

  it('sends nothing to a destroyed window', () => {
    const { window, listeners } = setup();
    window.destroyed = true;
    listeners.get('session.changed')?.({});
    expect(window.webContents.send).not.toHaveBeenCalled();
  });

  it('unregisters the channel and the event subscriptions', () => {
    const { unregister, unsubscribe } = setup();
    unregister();
    expect(ipcMain.handlers.has(INVOKE_CHANNEL)).toBe(false);
    expect(unsubscribe).toHaveBeenCalled();
  });
});
