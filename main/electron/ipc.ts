/**
 * Carries the IPC contract over Electron IPC: one invoke channel for every verb, one event channel.
 * Arguments are validated by the shared dispatcher; here we check who is asking. Only the main frame
 * of our window, showing our renderer, may call: an iframe, another window or a page the window was
 * somehow navigated to gets `invalid-argument` and nothing runs.
 */
import { type BrowserWindow, type IpcMainInvokeEvent, ipcMain } from 'electron';
import type { Envelope } from '../../common/app-error';
import { EVENT_NAMES } from '../../common/ipc-contract';
import { toWireEvents } from '../../common/snapshot-pages';
import { sendableEnvelope, serialiseBounded } from '../core/host';
import type { HubdeskCore } from '../core/host';
import type { Dispatch } from '../core/host';
import type { Logger } from '../core/shared';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-channels';
import { logSafeOrigin } from './log-safe-origin';
import { errorMessage } from '../../common/error-message';

export interface IpcOptions {
  window: BrowserWindow;
  isRendererUrl: (url: string) => boolean;
  dispatch: Dispatch;
  events: Pick<HubdeskCore, 'onEvent'>;
  logger: Logger;
}

const REFUSED: Envelope<never> = { ok: false, error: { code: 'invalid-argument', message: 'This request did not come from the Hubdesk window.' } };

/** Registers the channels; returns the function that unregisters them (called on quit). */
export function registerIpc({ window, isRendererUrl, dispatch, events, logger }: IpcOptions): () => void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, args: unknown) => {
    if (!isTrustedSender(event, window, isRendererUrl)) {
      logger.warn('ipc: request from an untrusted frame refused', { origin: logSafeOrigin(event.senderFrame?.url) });
      return REFUSED;
    }
    // Answers are checked before Electron serialises them (frame-guard.ts): one that cannot be sent
    // becomes an error envelope instead of a rejected invoke.
    return sendableEnvelope(await dispatch(channel, args), typeof channel === 'string' ? channel.slice(0, 80) : typeof channel, logger);
  });

  const unsubscribes = EVENT_NAMES.map((name) =>
    events.onEvent(name, (payload) => {
      for (const wire of toWireEvents(name, payload)) {
        if (window.isDestroyed() || window.webContents.isDestroyed()) return;
        const frame = serialiseBounded(wire.payload);
        if (!frame.ok) return logger.error('ipc: an event could not be sent', { name: wire.name, reason: frame.reason });
        try {
          window.webContents.send(EVENT_CHANNEL, wire.name, wire.payload);
        } catch (error) {
          return logger.error('ipc: an event could not be sent', { name: wire.name, reason: errorMessage(error) });
        }
      }
    }),
  );

  return () => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}

function isTrustedSender(event: IpcMainInvokeEvent, window: BrowserWindow, isRendererUrl: (url: string) => boolean): boolean {
  if (window.isDestroyed() || event.sender.id !== window.webContents.id) return false;
  const frame = event.senderFrame; // null once the frame has navigated away or is gone
  if (frame === null) return false;
  const main = window.webContents.mainFrame;
  const isMainFrame = frame.parent === null && frame.processId === main.processId && frame.routingId === main.routingId;
  return isMainFrame && isRendererUrl(frame.url);
}
