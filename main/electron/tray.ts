/**
 * The tray (menu-bar) icon (docs/architecture.md, "The desktop"): a thin adapter from tray-menu.ts's view to Electron's `Tray`
 * and `Menu`. It follows the core's summary of the open hub and the sign-in, rebuilds the menu at most
 * every REBUILD_INTERVAL_MS (the open hub may send hundreds of events a second) and only when what the
 * menu shows changed, and runs the items' actions: a favourite's switch and a flow through the core's
 * dispatch (validated like any request), "Open Hubdesk" and "Quit Hubdesk".
 *
 * A switch or flow that fails is logged (its error code) and told in a native notification with the
 * hub's reason; the menu is then rebuilt, so a checkbox the click flipped shows the real state again.
 */
import { Menu, type MenuItemConstructorOptions, Tray, nativeImage, type NativeImage } from 'electron';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Handlers, SessionView } from '../../common/ipc-contract';
import type { HubdeskCore } from '../core/host';
import type { OpenHubSummary } from '../core/hubs';
import { type Logger, realSchedule, type Schedule } from '../core/shared';
import type { NativeNotifier } from './native-notifier';
import { buildTrayView, sameTrayView, type TrayAction, type TrayItem, type TraySignIn, type TrayView } from './tray-menu';
import { errorMessage } from '../../common/error-message';

/** At most four menu rebuilds a second, however fast the summary changes. */
export const REBUILD_INTERVAL_MS = 250;
/** The icon's file name in the app's resources (electron-builder.yml `extraResources`) and in assets/. */
export const TRAY_ICON_FILE = 'icon.png';

export type TrayCore = Pick<HubdeskCore, 'openHubSummary' | 'onOpenHubSummary' | 'dispatch' | 'onEvent'> & { handlers: Pick<Handlers, 'session.get'> };

export interface HubdeskTrayOptions {
  core: TrayCore;
  iconPath: string;
  /** "Open Hubdesk" (and a click on the icon, where the system reports one). */
  showWindow: () => void;
  /** "Quit Hubdesk". */
  quit: () => void;
  notifier: Pick<NativeNotifier, 'show'>;
  logger: Logger;
  platform?: NodeJS.Platform;
  schedule?: Schedule;
}

export interface HubdeskTray {
  /** What the tray shows now (its tooltip and menu): Electron cannot read a tray back, so tests ask here. */
  view(): TrayView | null;
  dispose(): void;
}

/**
 * Where the tray icon is: beside app.asar in the packaged app (`extraResources`, so the tray reads a
 * plain file), in the project's assets/ otherwise.
 */
export function trayIconPath({ packaged, resourcesPath, projectRoot }: { packaged: boolean; resourcesPath: string; projectRoot: string }): string {
  return packaged ? join(resourcesPath, TRAY_ICON_FILE) : join(projectRoot, 'assets', TRAY_ICON_FILE);
}

/** Tray icons are 16 px on Windows and in the macOS menu bar, 22 px in Linux panels. */
export function trayIconSize(platform: NodeJS.Platform): number {
  return platform === 'linux' ? 22 : 16;
}

function loadTrayIcon(path: string, platform: NodeJS.Platform, logger: Logger): NativeImage {
  const image = nativeImage.createFromPath(path);
  if (image.isEmpty()) {
    logger.warn('tray: the icon could not be read; the tray shows an empty image', { path });
    return image;
  }
  const size = trayIconSize(platform);
  return image.resize({ width: size, height: size, quality: 'best' });
}

function signInOf(view: SessionView): TraySignIn {
  return view.auth.status === 'signed-in' || view.auth.status === 'restoring' ? 'signed-in' : 'signed-out';
}

export function createHubdeskTray({
  core,
  iconPath,
  showWindow,
  quit,
  notifier,
  logger,
  platform = process.platform,
  schedule = realSchedule,
}: HubdeskTrayOptions): HubdeskTray {
  const tray = new Tray(loadTrayIcon(iconPath, platform, logger));
  let summary: OpenHubSummary = core.openHubSummary();
  let signIn: TraySignIn = 'unknown';
  let shown: TrayView | null = null;
  let force = false;
  let cancelPending: (() => void) | null = null;
  let disposed = false;

  const render = () => {
    cancelPending = null;
    if (disposed) return;
    const view = buildTrayView(summary, signIn);
    if (!force && shown !== null && sameTrayView(shown, view)) return;
    force = false;
    shown = view;
    tray.setToolTip(view.tooltip);
    tray.setContextMenu(Menu.buildFromTemplate(view.items.map(menuItem)));
  };
  const renderSoon = () => {
    if (cancelPending === null && !disposed) cancelPending = schedule(render, REBUILD_INTERVAL_MS);
  };
  /** After an action: the menu shows the state as it is, even when the summary did not change. */
  const refresh = () => {
    force = true;
    renderSoon();
  };

  const failed = (title: string, code: string, message: string) => {
    logger.warn('tray: an action failed', { code });
    notifier.show({ title, body: message, tag: 'tray:action' });
  };

  const act = async (action: Extract<TrayAction, { kind: 'toggle' | 'flow' }>) => {
    const result =
      action.kind === 'toggle'
        ? await core.dispatch('hubs.setCapability', [
            action.hubId,
            { deviceId: action.deviceId, capabilityId: 'onoff', value: action.value, transactionId: `tray-${randomUUID()}` },
          ])
        : await core.dispatch('hubs.triggerFlow', [action.hubId, action.flowId]);
    if (!result.ok) {
      const title = action.kind === 'toggle' ? `${action.name} could not be turned ${action.value ? 'on' : 'off'}` : `${action.name} could not be started`;
      failed(title, result.error.code, result.error.message);
    }
  };

  const run = (action: TrayAction) => {
    switch (action.kind) {
      case 'open':
        return showWindow();
      case 'quit':
        return quit();
      case 'toggle':
      case 'flow':
        return void act(action)
          .catch((error: unknown) => failed('Hubdesk could not do that', 'internal', errorMessage(error)))
          .finally(refresh);
    }
  };

  function menuItem(item: TrayItem): MenuItemConstructorOptions {
    if (item.type === 'separator') return { type: 'separator' };
    const { action } = item;
    return {
      type: item.type,
      label: item.label,
      enabled: item.enabled,
      ...(item.type === 'checkbox' ? { checked: item.checked } : {}),
      ...(action === undefined ? {} : { click: () => run(action) }),
    };
  }

  const unsubscribes = [
    core.onOpenHubSummary((next) => {
      summary = next;
      renderSoon();
    }),
    core.onEvent('session.changed', (view) => {
      signIn = signInOf(view);
      renderSoon();
    }),
  ];
  core.handlers['session.get']().then(
    (view) => {
      if (signIn !== 'unknown') return; // a session.changed event was newer
      signIn = signInOf(view);
      renderSoon();
    },
    (error: unknown) => logger.warn('tray: the sign-in could not be read', { error: errorMessage(error) }),
  );
  // Windows reports a click on the icon (macOS and Linux open the menu instead).
  tray.on('click', showWindow);
  render();

  return {
    view: () => shown,
    dispose() {
      if (disposed) return;
      disposed = true;
      cancelPending?.();
      for (const unsubscribe of unsubscribes) unsubscribe();
      tray.destroy();
    },
  };
}
