import { describe, expect, it } from 'vitest';
import type { DesktopNotification, DesktopView } from '../../../../common/ipc-contract';
import { createDesktopStore, type NotificationPermission, type WebNotifications } from '../../../../renderer/src/stores/desktop-store';
import { fakeBridge, flush, ok } from '../fake-bridge';

const NOTIFY = { smoke: true, water: true, tamper: true, motion: false, contact: false, other: true, hubReachability: true };
const VIEW: DesktopView = {
  preferences: { closeToTray: false, launchAtLogin: false, notify: NOTIFY },
  host: { tray: false, launchAtLogin: false, notifications: 'browser' },
};
const SMOKE: DesktopNotification = {
  tag: 'alarm:home:s:alarm_smoke',
  kind: 'smoke',
  title: 'Smoke alarm: Hall',
  body: 'Kitchen, Home',
  hubId: 'home',
  deviceId: 's',
};

function fakeNotifications(initial: NotificationPermission, answer: NotificationPermission = 'granted') {
  const shown: DesktopNotification[] = [];
  let permission = initial;
  const notifications: WebNotifications & { setPermission(p: NotificationPermission): void } = {
    permission: () => permission,
    requestPermission: async () => (permission = answer),
    show: (n) => void shown.push(n),
    setPermission: (p) => void (permission = p),
  };
  return { notifications, shown };
}

async function loaded(permission: NotificationPermission = 'default', answer?: NotificationPermission) {
  const fake = fakeBridge();
  const { notifications, shown } = fakeNotifications(permission, answer);
  const store = createDesktopStore(fake.bridge, notifications);
  fake.waiting('desktop.get')[0]!.resolve(ok(VIEW));
  await flush();
  return { fake, store, notifications, shown };
}

describe('desktop store', () => {
  it('loads the view and follows desktop.changed', async () => {
    const { fake, store } = await loaded();
    expect(store.getState().view).toEqual(VIEW);
    const changed = { ...VIEW, preferences: { ...VIEW.preferences, notify: { ...NOTIFY, motion: true } } };
    fake.emit('desktop.changed', changed);
    expect(store.getState().view).toEqual(changed);
  });

  it('sends a change and shows main’s answer, or keeps its refusal', async () => {
    const { fake, store } = await loaded();
    const setting = store.getState().set({ notify: { water: false } });
    expect(store.getState().pending).toBe(true);
    expect(fake.argsOf('desktop.set')).toEqual([[{ notify: { water: false } }]]);
    const answer = { ...VIEW, preferences: { ...VIEW.preferences, notify: { ...NOTIFY, water: false } } };
    fake.waiting('desktop.set')[0]!.resolve(ok(answer));
    await setting;
    expect(store.getState()).toMatchObject({ view: answer, pending: false, error: null });

    const refused = store.getState().set({ launchAtLogin: true });
    fake.waiting('desktop.set')[0]!.resolve({ ok: false, error: { code: 'system-refused', message: 'Hubdesk could not turn on starting at login: no.' } });
    await refused;
    expect(store.getState()).toMatchObject({ view: answer, pending: false, error: { code: 'system-refused' } });
    store.getState().dismissError();
    expect(store.getState().error).toBeNull();
  });

  it('shows a notification only once the browser allows them', async () => {
    const { fake, store, shown } = await loaded('default', 'granted');
    fake.emit('desktop.notification', SMOKE);
    expect(shown).toEqual([]);
    await store.getState().requestPermission();
    expect(store.getState().permission).toBe('granted');
    fake.emit('desktop.notification', SMOKE);
    expect(shown).toEqual([SMOKE]);
  });

  it('notices a permission withdrawn in the browser, and drops malformed notifications', async () => {
    const { fake, store, shown, notifications } = await loaded('granted');
    notifications.setPermission('denied');
    fake.emit('desktop.notification', SMOKE);
    expect(store.getState().permission).toBe('denied');
    notifications.setPermission('granted');
    fake.emitRaw('desktop.notification', { ...SMOKE, kind: 'fire-everything' });
    expect(shown).toEqual([]);
  });

  it('stops listening when disposed', async () => {
    const { fake, store } = await loaded();
    const before = fake.listenerCount();
    store.dispose();
    expect(fake.listenerCount()).toBe(before - 2);
  });
});
