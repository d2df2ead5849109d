import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopNotification } from '../../../../common/ipc-contract';
import { APP_USER_MODEL_ID, createNativeNotifier } from '../../../../main/electron/native-notifier';
import { recordingLogger } from '../../../support/core-fakes';
import { app, BrowserWindow, fakeElectron, Notification, resetFakeElectron } from '../../../support/fake-electron';

vi.mock('electron', () => import('../../../support/fake-electron'));

const SMOKE: DesktopNotification = {
  tag: 'alarm:hub-1:d1:alarm_smoke',
  kind: 'smoke',
  title: 'Smoke alarm',
  body: 'Hall detector, Home',
  hubId: 'hub-1',
  deviceId: 'd1',
};

function setup(window: BrowserWindow | null = new BrowserWindow()) {
  const logger = recordingLogger();
  const notifier = createNativeNotifier({ window: () => window, logger, platform: 'linux' });
  return { notifier, logger, window };
}

describe('native notifier', () => {
  beforeEach(() => resetFakeElectron());

  it('shows the core’s notification with its title and body', () => {
    const { notifier } = setup();
    notifier.notify(SMOKE);
    expect(Notification.instances).toHaveLength(1);
    expect(Notification.instances[0]?.options).toEqual({ title: 'Smoke alarm', body: 'Hall detector, Home' });
    expect(Notification.instances[0]?.shown).toBe(true);
  });

  it('a click brings the window back: restored, shown and focused', () => {
    const { notifier, window } = setup();
    window!.minimized = true;
    notifier.notify(SMOKE);
    Notification.instances[0]!.emit('click');
    expect(window!.restore).toHaveBeenCalled();
    expect(window!.show).toHaveBeenCalled();
    expect(window!.focus).toHaveBeenCalled();
  });

  it('a click before any window exists, or after it is gone, does nothing', () => {
    const { notifier } = setup(null);
    notifier.notify(SMOKE);
    expect(() => Notification.instances[0]!.emit('click')).not.toThrow();
    const gone = new BrowserWindow();
    gone.destroyed = true;
    setup(gone).notifier.notify(SMOKE);
    Notification.instances[1]!.emit('click');
    expect(gone.show).not.toHaveBeenCalled();
  });

  it('a newer notification with the same tag replaces the older one; other tags stay', () => {
    const { notifier } = setup();
    notifier.notify(SMOKE);
    notifier.notify({ ...SMOKE, tag: 'hub:hub-1', kind: 'hub-unreachable', title: 'Home is unreachable' });
    notifier.notify({ ...SMOKE, body: 'Hall detector, Home (again)' });
    expect(Notification.instances.map((n) => n.closed)).toEqual([true, false, false]);
  });

  it('shows nothing where the system has no notifications, and logs that once', () => {
    fakeElectron.state.notificationsSupported = false;
    const { notifier, logger } = setup();
    notifier.notify(SMOKE);
    notifier.show({ title: 'x', body: 'y', tag: 't' });
    expect(Notification.instances).toHaveLength(0);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('drops a malformed notification (validated like any input) without showing it', () => {
    const { notifier, logger } = setup();
    notifier.notify({ ...SMOKE, title: 'x'.repeat(5000) });
    notifier.notify({ tag: 't' } as unknown as DesktopNotification);
    expect(Notification.instances).toHaveLength(0);
    expect(logger.lines.filter((line) => line.message.includes('malformed'))).toHaveLength(2);
  });

  it('show: the host’s own message', () => {
    const { notifier } = setup();
    notifier.show({ title: 'Hubdesk is still running in the tray', body: 'Open it again from the tray icon.', tag: 'close-to-tray' });
    expect(Notification.instances[0]?.options).toEqual({ title: 'Hubdesk is still running in the tray', body: 'Open it again from the tray icon.' });
  });

  it('sets the AppUserModelID on Windows only (toasts need it)', () => {
    setup();
    expect(app.setAppUserModelId).not.toHaveBeenCalled();
    createNativeNotifier({ window: () => null, logger: recordingLogger(), platform: 'win32' });
    expect(app.setAppUserModelId).toHaveBeenCalledWith(APP_USER_MODEL_ID);
  });
});
