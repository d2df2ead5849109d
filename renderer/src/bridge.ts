/**
 * The one way the renderer reaches main. In Electron the preload exposes the bridge as
 * `window.hubdesk`; in a browser (the browser host) the same bridge is built over the loopback
 * WebSocket. Either way the rest of the renderer sees the same `Bridge`, and the state of the link to
 * main in the same `LinkStore` (always connected over Electron's IPC).
 */
import { createBridge } from '../../common/contract-bridge';
import type { Bridge } from '../../common/ipc-contract';
import { createLinkStore, type LinkStore } from './stores/link-store';
import { createWebSocketTransport } from './transport/websocket-transport';

declare global {
  interface Window {
    hubdesk?: Bridge;
  }
}

let webSocketBridge: Bridge | undefined;
const linkStore = createLinkStore();

export function getBridge(): Bridge {
  if (window.hubdesk) return window.hubdesk;
  // Built once: a second transport would open a second connection and double every event.
  webSocketBridge ??= createBridge(createWebSocketTransport({ onLinkChange: (link) => linkStore.getState().setLink(link) }));
  return webSocketBridge;
}

/** The link to main, fed by the transport `getBridge` built. */
export function getLinkStore(): LinkStore {
  return linkStore;
}
