import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../../../../common/app-error';
import { type EventName, type EventPayload, type SessionView, SetCapabilityRequestSchema } from '../../../../common/ipc-contract';
import type { OpenHubSummary } from '../../../../main/core/hubs/open-hub-model';
import { createHubdeskTray, REBUILD_INTERVAL_MS, type TrayCore, trayIconPath } from '../../../../main/electron/tray';
import { MORE_LABEL, OPEN_LABEL, QUIT_LABEL } from '../../../../main/electron/tray-menu';
import { recordingLogger } from '../../../support/core-fakes';
import { Menu, resetFakeElectron, Tray, nativeImage } from '../../../support/fake-electron';

vi.mock('electron', () => import('../../../support/fake-electron'));

const HOME: OpenHubSummary = {
  hubId: 'hub-1',
  hubName: 'Home',
  live: { kind: 'live', since: 'x' },
  favourites: [
    { deviceId: 'lamp', name: 'Desk lamp', on: false, canToggle: true },
    { deviceId: 'spots', name: 'Kitchen spots', on: true, canToggle: true },
  ],
  flows: [{ id: 'night', name: 'Good night' }],
};

function session(status: 'signed-in' | 'signed-out'): SessionView {
  const auth = status === 'signed-in' ? { status, user: { id: 'u1', email: 'demo@hubdesk.test', name: 'Demo User' } } : { status };
  return {
    auth,
    notices: [],
    backend: { authUrl: 'https://cloud.example.test', embedded: false, portalUrl: null },
    tokenStorage: 'encrypted',
    allowUnencryptedRoutes: false,
  } as unknown as SessionView;
}

function fakeCore(initial: OpenHubSummary = HOME, signedIn: 'signed-in' | 'signed-out' = 'signed-in') {
  let current = initial;
  const summaryListeners = new Set<(summary: OpenHubSummary) => void>();
  const eventListeners = new Set<{ event: EventName; listener: (payload: never) => void }>();
  const dispatch = vi.fn(async (_channel: unknown, _args: unknown): Promise<Envelope<unknown>> => ({ ok: true, value: null }));
  const core: TrayCore = {
    openHubSummary: () => current,
    onOpenHubSummary(listener) {
      summaryListeners.add(listener);
      return () => void summaryListeners.delete(listener);
    },
    onEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      const entry = { event, listener: listener as (payload: never) => void };
      eventListeners.add(entry);
      return () => void eventListeners.delete(entry);
    },
    dispatch,
    handlers: { 'session.get': vi.fn(async () => session(signedIn)) },
  };
  return {
    core,
    dispatch,
    publish(next: OpenHubSummary) {
      current = next;
      for (const listener of summaryListeners) listener(next);
    },
    emit<E extends EventName>(event: E, payload: EventPayload<E>) {
      for (const entry of eventListeners) if (entry.event === event) (entry.listener as (p: EventPayload<E>) => void)(payload);
    },
    listeners: () => summaryListeners.size + eventListeners.size,
  };
}

function start(core: TrayCore, platform: NodeJS.Platform = 'linux') {
  const logger = recordingLogger();
  const notifier = { show: vi.fn() };
  const showWindow = vi.fn();
  const quit = vi.fn();
  const tray = createHubdeskTray({ core, iconPath: '/opt/hubdesk/resources/icon.png', showWindow, quit, notifier, logger, platform });
  const icon = Tray.instances.at(-1);
  if (!icon) throw new Error('no tray created');
  return { tray, icon, logger, notifier, showWindow, quit };
}

const menuOf = (icon: Tray) => {
  if (!icon.menu) throw new Error('no menu set');
  return icon.menu;
};
const labels = (icon: Tray) => menuOf(icon).items.map((item) => (item.type === 'separator' ? '---' : item.label));

describe('tray', () => {
  beforeEach(() => {
    resetFakeElectron();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('is created at once with the icon sized for the panel, the tooltip and the menu', () => {
    const { icon } = start(fakeCore().core, 'linux');
    expect(Tray.instances).toHaveLength(1);
    expect(nativeImage.createFromPath).toHaveBeenCalledWith('/opt/hubdesk/resources/icon.png');
    expect(icon.image.getSize()).toEqual({ width: 22, height: 22 });
    expect(icon.tooltip).toBe('Hubdesk — Home is live');
    expect(labels(icon)).toEqual([
      'Home is live',
      '---',
      'Favourites',
      'Desk lamp',
      'Kitchen spots',
      '---',
      'Start a flow',
      'Good night',
      '---',
      OPEN_LABEL,
      QUIT_LABEL,
    ]);
    expect(menuOf(icon).item('Kitchen spots')).toMatchObject({ type: 'checkbox', checked: true, enabled: true });
    expect(menuOf(icon).item('Home is live').enabled).toBe(false);
  });

  it('uses a 16 px icon on macOS and Windows', () => {
    expect(start(fakeCore().core, 'darwin').icon.image.getSize()).toEqual({ width: 16, height: 16 });
    expect(start(fakeCore().core, 'win32').icon.image.getSize()).toEqual({ width: 16, height: 16 });
  });

  it('still makes a tray when the icon cannot be read, and says so in the log', () => {
    const logger = recordingLogger();
    createHubdeskTray({
      core: fakeCore().core,
      iconPath: '/missing/icon.png',
      showWindow: vi.fn(),
      quit: vi.fn(),
      notifier: { show: vi.fn() },
      logger,
      platform: 'linux',
    });
    expect(Tray.instances).toHaveLength(1);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringContaining('icon could not be read') }));
  });

  it('coalesces a burst of summaries into one rebuild with the last state', () => {
    const hub = fakeCore();
    const { icon } = start(hub.core);
    Menu.buildFromTemplate.mockClear();
    for (let i = 0; i < 200; i++) hub.publish({ ...HOME, favourites: [{ ...HOME.favourites[0]!, on: i % 2 === 1 }, HOME.favourites[1]!] });
    expect(Menu.buildFromTemplate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS);
    expect(Menu.buildFromTemplate).toHaveBeenCalledTimes(1);
    expect(menuOf(icon).item('Desk lamp').checked).toBe(true); // i = 199: on
  });

  it('rebuilds at most a few times a second under 200 events a second', () => {
    const hub = fakeCore();
    start(hub.core);
    Menu.buildFromTemplate.mockClear();
    for (let i = 0; i < 200; i++) {
      hub.publish({ ...HOME, flows: [{ id: 'night', name: `Good night ${i}` }] });
      vi.advanceTimersByTime(5);
    }
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS);
    const rebuilds = Menu.buildFromTemplate.mock.calls.length;
    expect(rebuilds).toBeGreaterThanOrEqual(4);
    expect(rebuilds).toBeLessThanOrEqual(1000 / REBUILD_INTERVAL_MS + 1);
  });

  it('does not rebuild when nothing the menu shows changed', async () => {
    const hub = fakeCore();
    const { icon } = start(hub.core);
    await vi.advanceTimersByTimeAsync(REBUILD_INTERVAL_MS); // the sign-in was read: signed in, as assumed
    Menu.buildFromTemplate.mockClear();
    icon.setToolTip.mockClear();
    hub.publish(structuredClone(HOME));
    hub.publish(structuredClone(HOME));
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS * 4);
    expect(Menu.buildFromTemplate).not.toHaveBeenCalled();
    expect(icon.setToolTip).not.toHaveBeenCalled();
  });

  it('says signed out once the core says so, and signed in again after session.changed', async () => {
    const hub = fakeCore(HOME, 'signed-out');
    const { icon } = start(hub.core);
    await vi.advanceTimersByTimeAsync(REBUILD_INTERVAL_MS);
    expect(icon.tooltip).toBe('Hubdesk — Signed out');
    expect(labels(icon)).toEqual(['Signed out', '---', OPEN_LABEL, QUIT_LABEL]);
    hub.emit('session.changed', session('signed-in'));
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS);
    expect(icon.tooltip).toBe('Hubdesk — Home is live');
  });

  it('follows the open hub going offline, with its reason', () => {
    const hub = fakeCore();
    const { icon } = start(hub.core);
    hub.publish({ ...HOME, live: { kind: 'hub-refused' } });
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS);
    expect(icon.tooltip).toBe('Hubdesk — Home refused Hubdesk access — sign out and in again to grant it');
    expect(menuOf(icon).items[0]).toMatchObject({ label: 'Home refused Hubdesk access — sign out and in again to grant it', enabled: false });
  });

  it('a favourite toggles through the core with a valid request and a fresh transaction id', async () => {
    const hub = fakeCore();
    const { icon } = start(hub.core);
    menuOf(icon).item('Desk lamp').click();
    menuOf(icon).item('Kitchen spots').click();
    await vi.advanceTimersByTimeAsync(0);
    expect(hub.dispatch).toHaveBeenCalledTimes(2);
    const [first, second] = hub.dispatch.mock.calls;
    expect(first?.[0]).toBe('hubs.setCapability');
    const [hubId, request] = first?.[1] as [string, unknown];
    expect(hubId).toBe('hub-1');
    expect(SetCapabilityRequestSchema.parse(request)).toMatchObject({ deviceId: 'lamp', capabilityId: 'onoff', value: true });
    const [, other] = second?.[1] as [string, { value: boolean; transactionId: string }];
    expect(other).toMatchObject({ deviceId: 'spots', value: false });
    expect(other.transactionId).not.toBe((request as { transactionId: string }).transactionId);
  });

  it('a switch that fails is logged by code, told in a notification, and the menu shows the real state again', async () => {
    const hub = fakeCore();
    hub.dispatch.mockResolvedValueOnce({ ok: false, error: { code: 'forbidden', message: 'This sign-in may not control devices.' } });
    const { icon, notifier, logger } = start(hub.core);
    await vi.advanceTimersByTimeAsync(REBUILD_INTERVAL_MS);
    menuOf(icon).item('Desk lamp').click();
    expect(menuOf(icon).item('Desk lamp').checked).toBe(true); // flipped by the click, as in Electron
    await vi.advanceTimersByTimeAsync(REBUILD_INTERVAL_MS);
    expect(notifier.show).toHaveBeenCalledWith({
      title: 'Desk lamp could not be turned on',
      body: 'This sign-in may not control devices.',
      tag: 'tray:action',
    });
    expect(logger.lines).toContainEqual({ level: 'warn', message: 'tray: an action failed', fields: { code: 'forbidden' } });
    expect(menuOf(icon).item('Desk lamp').checked).toBe(false);
  });

  it('starts a flow through the core, and tells when it could not', async () => {
    const hub = fakeCore();
    const { icon, notifier } = start(hub.core);
    menuOf(icon).item('Good night').click();
    await vi.advanceTimersByTimeAsync(0);
    expect(hub.dispatch).toHaveBeenCalledWith('hubs.triggerFlow', ['hub-1', 'night']);
    expect(notifier.show).not.toHaveBeenCalled();

    hub.dispatch.mockResolvedValueOnce({ ok: false, error: { code: 'hub-unreachable', message: 'Home did not answer.' } });
    menuOf(icon).item('Good night').click();
    await vi.advanceTimersByTimeAsync(0);
    expect(notifier.show).toHaveBeenCalledWith(expect.objectContaining({ title: 'Good night could not be started', body: 'Home did not answer.' }));
  });

  it('a rejected dispatch is told too, never unhandled', async () => {
    const hub = fakeCore();
    hub.dispatch.mockRejectedValueOnce(new Error('boom'));
    const { icon, notifier } = start(hub.core);
    menuOf(icon).item('Good night').click();
    await vi.advanceTimersByTimeAsync(0);
    expect(notifier.show).toHaveBeenCalledWith(expect.objectContaining({ title: 'Hubdesk could not do that', body: 'boom' }));
  });

  it('Open Hubdesk, More in Hubdesk… and a click on the icon show the window; Quit Hubdesk quits', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ deviceId: `d${i}`, name: `Device ${i}`, on: false, canToggle: true }));
    const { icon, showWindow, quit } = start(fakeCore({ ...HOME, favourites: many }).core);
    menuOf(icon).item(OPEN_LABEL).click();
    menuOf(icon).item(MORE_LABEL).click();
    icon.emit('click');
    expect(showWindow).toHaveBeenCalledTimes(3);
    expect(quit).not.toHaveBeenCalled();
    menuOf(icon).item(QUIT_LABEL).click();
    expect(quit).toHaveBeenCalledTimes(1);
  });

  it('view() is what the tray shows now', () => {
    const hub = fakeCore();
    const { tray, icon } = start(hub.core);
    expect(tray.view()?.tooltip).toBe(icon.tooltip);
    hub.publish({ ...HOME, live: { kind: 'connecting' } });
    expect(tray.view()?.tooltip).toBe('Hubdesk — Home is live'); // not rebuilt yet
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS);
    expect(tray.view()?.tooltip).toBe('Hubdesk — Connecting to Home…');
  });

  it('dispose destroys the icon, stops listening and cancels a pending rebuild', () => {
    const hub = fakeCore();
    const { tray, icon } = start(hub.core);
    hub.publish({ ...HOME, live: { kind: 'connecting' } });
    Menu.buildFromTemplate.mockClear();
    tray.dispose();
    vi.advanceTimersByTime(REBUILD_INTERVAL_MS * 2);
    expect(icon.destroy).toHaveBeenCalledTimes(1);
    expect(Menu.buildFromTemplate).not.toHaveBeenCalled();
    expect(hub.listeners()).toBe(0);
    tray.dispose();
    expect(icon.destroy).toHaveBeenCalledTimes(1);
  });
});

describe('trayIconPath', () => {
  it('reads the icon beside app.asar when packaged, from assets/ otherwise', () => {
    expect(trayIconPath({ packaged: true, resourcesPath: '/opt/Hubdesk/resources', projectRoot: '/ignored' })).toBe('/opt/Hubdesk/resources/icon.png');
    expect(trayIconPath({ packaged: false, resourcesPath: '/usr/lib/electron/resources', projectRoot: '/home/me/hubdesk' })).toBe(
      '/home/me/hubdesk/assets/icon.png',
    );
  });
});
