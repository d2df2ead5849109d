/**
 * The preload bridge (sandboxed, bundled as CommonJS): exposes the contract's verbs as
 * `window.hubdesk` (`hubdesk.auth.signIn()`, `hubdesk.on('session.changed', …)`). ipcRenderer itself
 * never reaches the page, so a compromised renderer can call the verbs and nothing else.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createBridge, type Transport } from '../common/contract-bridge';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../main/electron/ipc-channels';

const transport: Transport = {
  invoke: (channel, args) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, args),
  on(event, listener) {
    const forward = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => void ipcRenderer.removeListener(EVENT_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld('hubdesk', createBridge(transport));
