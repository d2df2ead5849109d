/**
 * Hardening every webContents gets, whoever created it (Electron security checklist §13-§15): no
 * navigation away from the loaded document, no new windows, no <webview>. The app is one local
 * document; anything else a page attempts is refused and logged (origin only: URLs may carry codes).
 */
import type { Event, WebContents } from 'electron';
import type { Logger } from '../core/shared';
import { logSafeOrigin } from './log-safe-origin';

const guarded = new WeakSet<WebContents>();

/** Idempotent: the main window is guarded when created and again by the app-wide `web-contents-created` hook. */
export function guardWebContents(contents: WebContents, logger: Logger): void {
  if (guarded.has(contents)) return;
  guarded.add(contents);

  const refuseNavigation = (kind: string) => (event: Event<{ url: string; isSameDocument: boolean }>) => {
    // In-page navigation (history.pushState, #anchors) stays inside our document.
    if (event.isSameDocument) return;
    event.preventDefault();
    logger.warn(`web-contents: ${kind} refused`, { origin: logSafeOrigin(event.url) });
  };
  contents.on('will-navigate', refuseNavigation('navigation'));
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) refuseNavigation('frame navigation')(event); // main frames: will-navigate above
  });
  contents.on('will-redirect', refuseNavigation('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    logger.warn('web-contents: <webview> refused');
  });
  contents.setWindowOpenHandler(({ url }) => {
    logger.warn('web-contents: new window refused', { origin: logSafeOrigin(url) });
    return { action: 'deny' };
  });
}
