/**
 * Native notifications (docs/architecture.md, "The desktop") with Electron's `Notification`: the core decides what to say
 * (main/core/desktop/desktop-alerts.ts) and calls `notify`; the tray and close-to-tray use `show` for their own
 * few messages. Clicking a notification brings the window back. Where the system has no notifications
 * (`Notification.isSupported()` is false) it is logged once and nothing is shown.
 *
 * Shown notifications are kept until they close, or Electron may collect them and lose the click
 * handler; one with the same tag replaces the older one (the same alarm, the same hub).
 */
import { Notification, app } from 'electron';
import { type DesktopNotification, DesktopNotificationSchema } from '../../common/ipc-contract';
import type { Logger } from '../core/shared';
import { type ShowableWindow, showAndFocus } from './show-window';
import { errorMessage } from '../../common/error-message';

/** Windows shows toasts only for an app with an AppUserModelID (the installer's appId). */
export const APP_USER_MODEL_ID = 'io.hubdesk.app';
/** Notifications kept at once; the oldest is forgotten first (it may still be on screen). */
const MAX_KEPT = 20;

export interface PlainNotification {
  title: string;
  body: string;
  /** Same tag: replaces the one shown before. */
  tag: string;
}

export interface NativeNotifier {
  /** The core's port (`DesktopHost.notify`): validated, then shown. */
  notify(notification: DesktopNotification): void;
  /** A message of the host itself. */
  show(notification: PlainNotification): void;
}

export interface NativeNotifierOptions {
  /** The window a click brings back; read when clicked (it may not exist yet when the notifier is made). */
  window: () => ShowableWindow | null | undefined;
  logger: Logger;
  platform?: NodeJS.Platform;
}

export function createNativeNotifier({ window, logger, platform = process.platform }: NativeNotifierOptions): NativeNotifier {
  if (platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  const shown = new Map<string, Notification>();
  let unsupportedLogged = false;

  const show = ({ title, body, tag }: PlainNotification) => {
    if (!Notification.isSupported()) {
      if (!unsupportedLogged) logger.warn('notifications: this system shows no native notifications');
      unsupportedLogged = true;
      return;
    }
    shown.get(tag)?.close();
    shown.delete(tag);
    const notification = new Notification({ title, body });
    notification.on('click', () => showAndFocus(window()));
    notification.on('close', () => {
      if (shown.get(tag) === notification) shown.delete(tag);
    });
    shown.set(tag, notification);
    if (shown.size > MAX_KEPT) shown.delete(shown.keys().next().value as string);
    try {
      notification.show();
    } catch (error) {
      shown.delete(tag);
      logger.warn('notifications: a notification could not be shown', { error: errorMessage(error) });
    }
  };

  return {
    notify(notification) {
      const parsed = DesktopNotificationSchema.safeParse(notification);
      if (!parsed.success) {
        logger.warn('notifications: a malformed notification was dropped', { issue: parsed.error.issues[0]?.message });
        return;
      }
      show({ title: parsed.data.title, body: parsed.data.body, tag: `core:${parsed.data.tag}` });
    },
    show,
  };
}
