/**
 * The app core's face towards the hosts. A host (Electron or browser) builds the ports, calls
 * `createHubdeskCore`, hands every request from its transport to `dispatch`, forwards
 * events to the renderer, and hands every OAuth redirect it receives to `handleOAuthCallback`.
 */
import type { DesktopNotification, EventName, EventPayload, Handlers } from '../../common/ipc-contract';
import type { HubTransport } from './hub-client';
import type { Dispatch } from './ipc-dispatcher';
import type { OpenWebSocket } from './live-socket';
import type { OpenHubSummary } from './open-hub-model';
import type { NetworkInterfaces, WakeReason } from './network-watch';
import type { BackendConfig, Clock, KeyValueStore, Logger, MdnsBrowser, OpenExternal, Schedule, SecretCipher } from './ports';

export interface CoreDeps {
  backend: BackendConfig;
  cipher: SecretCipher;
  store: KeyValueStore;
  /** The app's own folder (the webhook history goes in `webhook-history/` there); absent: the history is kept in memory only. */
  dataDir?: string;
  openExternal: OpenExternal;
  logger: Logger;
  clock?: Clock;
  fetch?: typeof globalThis.fetch;
  /** Finds the user's hubs on the LAN; without it, only the addresses in the user's record are tried. */
  mdns?: MdnsBrowser;
  /** Opens the hubs' realtime sockets, trusting the same CAs as `fetch` (wss:// on a LAN certificate); plain `ws` by default. */
  openWebSocket?: OpenWebSocket;
  /**
   * The host's fetch and WebSocket for an address heard over mDNS: the same trusted roots, but the
   * certificate must name this hub (common/hub-identity.ts), whatever the address. Without it, mDNS
   * announcements are not used.
   */
  namingHub?: (hubId: string) => HubTransport;
  /** The machine's network interfaces (`os.networkInterfaces` by default): a change makes the core choose routes again. */
  networkInterfaces?: NetworkInterfaces;
  /** Timers (the Schedule port of ports.ts) of the live channel and the webhook acknowledgements; real timers by default, a fake clock in tests. */
  schedule?: Schedule;
  /** What the host does on the desktop (tray, start at login, native notifications); none: a host without any (notifications go to the renderer). */
  desktop?: DesktopHost;
}

/** The host's desktop integration (docs/architecture.md, "The desktop"), as the core uses it. */
export interface DesktopHost {
  /** The host has a tray icon, so "keep running in the tray when the window closes" can be offered. */
  tray: boolean;
  /** Registers Hubdesk to start at login, or unregisters it; absent where the host cannot. Throws with a sentence for the user. */
  setLaunchAtLogin?(enabled: boolean): Promise<void>;
  /** Shows a notification natively; absent: the core sends it to the renderer as `desktop.notification`. */
  notify?(notification: DesktopNotification): void;
}

/** The query parameters of an authorisation redirect, already parsed by the host. */
export interface OAuthCallbackParams {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

export interface HubdeskCore {
  readonly handlers: Handlers;
  /** The handlers behind the contract's validation and access rules: what a host's transport calls. */
  readonly dispatch: Dispatch;
  onEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** 'ignored' for unsolicited or mismatched callbacks (logged, never acted on). */
  handleOAuthCallback(params: OAuthCallbackParams): Promise<'accepted' | 'ignored'>;
  /** The machine woke or its network changed (the host knows, e.g. Electron's powerMonitor): routes are chosen again and the open hub reopened. */
  wake(reason: WakeReason): void;
  /** The open hub at a glance, for the tray: its connection, favourite switches and flows to start. */
  openHubSummary(): OpenHubSummary;
  onOpenHubSummary(listener: (summary: OpenHubSummary) => void): () => void;
  dispose(): Promise<void>;
}
