import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopView, EventName, EventPayload } from '../../../../common/ipc-contract';
import { type CloseToTrayCore, keepRunningInTray, STILL_RUNNING } from '../../../../main/electron/close-to-tray';
import { recordingLogger } from '../../../support/core-fakes';
import { app, BrowserWindow, fakeEvent, resetFakeElectron } from '../../../support/fake-electron';

vi.mock('electron', () => import('../../../support/fake-electron'));

function view(closeToTray: boolean, tray = true): DesktopView {
  return {
    preferences: {
      closeToTray,
      launchAtLogin: false,
      notify: { smoke: true, water: true, tamper: true, motion: false, contact: false, other: true, hubReachability: true },
    },
    host: { tray, launchAtLogin: true, notifications: 'native' },
  };
}

function fakeCore(initial: DesktopView | Error) {
  const listeners = new Set<(view: DesktopView) => void>();
  const core: CloseToTrayCore = {
    onEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      if (event !== 'desktop.changed') return () => {};
      const typed = listener as (view: DesktopView) => void;
      listeners.add(typed);
      return () => void listeners.delete(typed);
    },
    handlers: { 'desktop.get': vi.fn(async () => (initial instanceof Error ? Promise.reject(initial) : initial)) },
  };
  return { core, change: (next: DesktopView) => listeners.forEach((listener) => listener(next)), listeners: () => listeners.size };
}

async function setup(initial: DesktopView | Error) {
  const window = new BrowserWindow();
  window.show();
  const hub = fakeCore(initial);
  const notifier = { show: vi.fn() };
  const logger = recordingLogger();
  const handle = keepRunningInTray({ window, core: hub.core, notifier, logger });
  await new Promise((resolve) => setImmediate(resolve)); // desktop.get answered
  const close = () => {
    const event = fakeEvent();
    window.emit('close', event);
    return event;
  };
  return { window, hub, notifier, logger, handle, close };
}

describe('close to tray', () => {
  beforeEach(() => resetFakeElectron());

  it('off: closing the window closes it (window-all-closed then quits, as before)', async () => {
    const { window, close, notifier } = await setup(view(false));
    expect(close().defaultPrevented).toBe(false);
    expect(window.hide).not.toHaveBeenCalled();
    expect(notifier.show).not.toHaveBeenCalled();
  });

  it('on: closing hides the window and keeps the app; the first time only, a notification says so', async () => {
    const { window, close, notifier } = await setup(view(true));
    expect(close().defaultPrevented).toBe(true);
    expect(window.isVisible()).toBe(false);
    expect(notifier.show).toHaveBeenCalledWith(STILL_RUNNING);
    window.show();
    expect(close().defaultPrevented).toBe(true);
    expect(notifier.show).toHaveBeenCalledTimes(1);
    expect(STILL_RUNNING.title).toBe('Hubdesk is still running in the tray');
  });

  it('on, but quitting (tray Quit, Cmd+Q, app.quit): the close goes through', async () => {
    const { window, close } = await setup(view(true));
    app.emit('before-quit', fakeEvent());
    expect(close().defaultPrevented).toBe(false);
    expect(window.hide).not.toHaveBeenCalled();
  });

  it('on, but Windows is logging off or shutting down (session-end, no before-quit there): the close goes through', async () => {
    const { window, close } = await setup(view(true));
    window.emit('session-end', fakeEvent());
    expect(close().defaultPrevented).toBe(false);
  });

  it('follows desktop.changed both ways', async () => {
    const { hub, close } = await setup(view(false));
    hub.change(view(true));
    expect(close().defaultPrevented).toBe(true);
    hub.change(view(false));
    expect(close().defaultPrevented).toBe(false);
  });

  it('a host without a tray never hides the window, whatever the stored preference says', async () => {
    const { close } = await setup(view(true, false));
    expect(close().defaultPrevented).toBe(false);
  });

  it('a preference that cannot be read means closing quits, and is logged', async () => {
    const { close, logger } = await setup(new Error('store broken'));
    expect(close().defaultPrevented).toBe(false);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringContaining('closing the window quits') }));
  });

  it('a desktop.changed that arrives before desktop.get answers is not overwritten by the older answer', async () => {
    const window = new BrowserWindow();
    let answer: (view: DesktopView) => void = () => {};
    const listeners: ((view: DesktopView) => void)[] = [];
    const core: CloseToTrayCore = {
      onEvent: ((_event: string, listener: (view: DesktopView) => void) => {
        listeners.push(listener);
        return () => {};
      }) as CloseToTrayCore['onEvent'],
      handlers: { 'desktop.get': () => new Promise<DesktopView>((resolve) => (answer = resolve)) },
    };
    keepRunningInTray({ window, core, notifier: { show: vi.fn() }, logger: recordingLogger() });
    listeners.forEach((listener) => listener(view(true)));
    answer(view(false));
    await Promise.resolve();
    const event = fakeEvent();
    window.emit('close', event);
    expect(event.defaultPrevented).toBe(true);
  });

  it('the dock icon (activate) shows the hidden window again', async () => {
    const { window, close } = await setup(view(true));
    close();
    app.emit('activate', fakeEvent(), false);
    expect(window.isVisible()).toBe(true);
    expect(window.focus).toHaveBeenCalled();
  });

  it('dispose stops listening to the app and the core', async () => {
    const { handle, hub, window } = await setup(view(true));
    handle.dispose();
    expect(app.listenerCount('before-quit')).toBe(0);
    expect(app.listenerCount('activate')).toBe(0);
    expect(hub.listeners()).toBe(0);
    window.show.mockClear();
    app.emit('activate', fakeEvent(), false);
    expect(window.show).not.toHaveBeenCalled();
  });
});
