/**
 * Brings the app's one window back: restored if minimised, shown if hidden in the tray, focused. Used
 * by the tray ("Open Hubdesk"), a click on a notification, the macOS dock icon, a second instance and a
 * deep link; nothing is recreated.
 */
import type { BrowserWindow } from 'electron';

/** The part of a BrowserWindow that is brought back. */
export type ShowableWindow = Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus'>;

export function showAndFocus(window: ShowableWindow | null | undefined): void {
  if (window === null || window === undefined || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
