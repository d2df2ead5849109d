/**
 * Close to tray (docs/architecture.md, "The desktop"): with the desktop preference `closeToTray` on, closing the window hides
 * it and Hubdesk keeps running in the tray; the first time in a run a notification says so. Quitting
 * for real — "Quit Hubdesk" in the tray, Cmd+Q, `app.quit()` — goes through `before-quit`, after which
 * a close is let through; so does Windows logging off or shutting down (the window's `session-end`,
 * where Electron emits no `before-quit`). With the preference off a close closes, and the
 * composition root's `window-all-closed` quits as before. On macOS a click on the dock icon
 * (`activate`) brings the hidden window back.
 */
import { type BrowserWindow, app } from 'electron';
import type { DesktopView, Handlers } from '../../common/ipc-contract';
import type { HubdeskCore } from '../core/host';
import type { Logger } from '../core/shared';
import type { PlainNotification } from './native-notifier';
import { type ShowableWindow, showAndFocus } from './show-window';
import { errorMessage } from '../../common/error-message';

export const STILL_RUNNING: PlainNotification = {
  title: 'Hubdesk is still running in the tray',
  body: 'Open it again from the tray icon, or choose Quit Hubdesk there to stop it.',
  tag: 'close-to-tray',
};

export type CloseToTrayCore = Pick<HubdeskCore, 'onEvent'> & { handlers: Pick<Handlers, 'desktop.get'> };

/** The part of the window that is hidden and shown. */
export type HideableWindow = ShowableWindow &
  Pick<BrowserWindow, 'hide'> & {
    on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'session-end', listener: () => void): unknown;
  };

export interface CloseToTrayOptions {
  window: HideableWindow;
  core: CloseToTrayCore;
  notifier: { show(notification: PlainNotification): void };
  logger: Logger;
}

export interface CloseToTray {
  dispose(): void;
}

export function keepRunningInTray({ window, core, notifier, logger }: CloseToTrayOptions): CloseToTray {
  let closeToTray = false;
  let quitting = false;
  let told = false;
  let preferenceChanged = false;

  const follow = (view: DesktopView) => {
    closeToTray = view.preferences.closeToTray && view.host.tray;
  };
  const stopFollowing = core.onEvent('desktop.changed', (view) => {
    preferenceChanged = true;
    follow(view);
  });
  core.handlers['desktop.get']().then(
    (view) => {
      if (!preferenceChanged) follow(view); // a desktop.changed event was newer
    },
    (error: unknown) => logger.warn('close to tray: the preference could not be read; closing the window quits', { error: errorMessage(error) }),
  );

  const onBeforeQuit = () => {
    quitting = true;
  };
  const onActivate = () => showAndFocus(window);
  app.on('before-quit', onBeforeQuit);
  app.on('activate', onActivate);
  window.on('session-end', onBeforeQuit);
  window.on('close', (event) => {
    if (quitting || !closeToTray) return;
    event.preventDefault();
    window.hide();
    if (told) return;
    told = true;
    notifier.show(STILL_RUNNING);
  });

  return {
    dispose() {
      stopFollowing();
      app.off('before-quit', onBeforeQuit);
      app.off('activate', onActivate);
    },
  };
}
