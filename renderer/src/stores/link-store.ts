/**
 * The link between the renderer and the app's main process (docs/device-controls.md, "Connection state and deadlines"). In Electron the link is IPC
 * and always `connected`; in the browser host it is a loopback WebSocket that can close (the host
 * stopped, the machine slept) and is re-opened by the transport, found again after a restart of the
 * host, or refused for good (a restarted host that does not recognise the page). The transport reports every change (`onLinkChange`); the UI reads it
 * here: a banner while it is not connected, live indicators "Unknown", controls that need main disabled.
 * When the link comes back, `resyncOnReconnect` reads the session and the open hub again, so nothing
 * stale stays shown.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export type LinkState =
  | { state: 'connected' }
  /** Closed; the transport is opening it again. */
  | { state: 'reconnecting'; reason: string }
  /** Closed, and nothing has answered for several attempts: Hubdesk is not running (or moved); the transport keeps trying. */
  | { state: 'waiting'; reason: string }
  /** The host was restarted with another build of the page: the page is reloading (docs/architecture.md, "The browser host across restarts"). */
  | { state: 'restarted' }
  /** Another tab of the browser host took the app (one tab at a time); this one waits until the user takes it back. */
  | { state: 'elsewhere' }
  /** Closed for good: the transport gave up; `reason` says what the user can do. */
  | { state: 'lost'; reason: string };

export interface LinkStoreState {
  link: LinkState;
  /** Called by the transport (or its wiring) on every change. */
  setLink(link: LinkState): void;
}

export type LinkStore = StoreApi<LinkStoreState>;

export const CONNECTED: LinkState = { state: 'connected' };

export function createLinkStore(initial: LinkState = CONNECTED): LinkStore {
  return createStore<LinkStoreState>()((set, get) => ({
    link: initial,
    setLink(link) {
      const current = get().link;
      if (current.state === link.state && reasonOf(current) === reasonOf(link)) return;
      set({ link });
    },
  }));
}

const reasonOf = (link: LinkState) => ('reason' in link ? link.reason : undefined);

export const isConnected = (state: LinkStoreState) => state.link.state === 'connected';

export interface ResyncTargets {
  session: { getState(): { load(): Promise<void> } };
  openHub: { getState(): { reload(): void } };
  /** The webhook registrations, their connection states and the inspector (merged, not duplicated). */
  webhooks?: { getState(): { load(): Promise<void> } };
  /** The desktop preferences (another window or the tray may have changed them). */
  desktop?: { getState(): { load(): Promise<void> } };
  /** The open hub's history: the series shown may have missed live values meanwhile. */
  insights?: { getState(): { reload(): void } };
}

/**
 * When the link comes back after it was down, reads what may have changed meanwhile: the session
 * (`session.get`), the open hub (`hubs.open` with its id again), the webhooks and the history shown.
 * Returns the unsubscribe.
 */
export function resyncOnReconnect(link: LinkStore, targets: ResyncTargets): () => void {
  return link.subscribe((state, previous) => {
    if (state.link.state !== 'connected' || previous.link.state === 'connected') return;
    void targets.session.getState().load();
    targets.openHub.getState().reload();
    void targets.webhooks?.getState().load();
    void targets.desktop?.getState().load();
    targets.insights?.getState().reload();
  });
}
