/**
 * The app core's face towards the hosts. A host (Electron or browser) builds the ports, calls
 * `createHubdeskCore`, hands every request from its transport to `dispatch`, forwards
 * events to the renderer, and hands every OAuth redirect it receives to `handleOAuthCallback`.
 */
import type { OAuthCallbackParams } from '../sign-in';
import type { DesktopHost } from '../desktop';
import type { EventName, EventPayload, Handlers } from '../../../common/ipc-contract';
import type { HubTransport } from '../hubs';
import type { Dispatch } from './ipc-dispatcher';
import type { OpenWebSocket } from '../shared';
import type { OpenHubSummary } from '../hubs';
import type { NetworkInterfaces, WakeReason } from '../hubs';
import type { BackendConfig, Clock, KeyValueStore, Logger, MdnsBrowser, OpenExternal, Schedule, SecretCipher } from '../shared';

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

export type { DesktopHost, OAuthCallbackParams };

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
