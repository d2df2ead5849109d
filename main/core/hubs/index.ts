/**
 * The public face of main/core/hubs/ (docs/architecture.md, "main/core"): what the other sections and the
 * hosts use. Other folders import this section only through here; inside it, modules import each other.
 */
export { createFavourites } from './favourites';
export { createHubClient, transportFor } from './hub-client';
export type { HubTransport } from './hub-client';
export { createHubSessions } from './hub-sessions';
export { createInsights } from './insights';
export { createLanDirectory } from './lan-directory';
export { isOnline, watchNetwork } from './network-watch';
export type { NetworkInterfaces, WakeReason } from './network-watch';
export { createOpenHub } from './open-hub';
export type { LiveEvent } from './open-hub';
export type { CapabilityChange, OpenHubSummary, OpenHubView } from './open-hub-model';
export { createRoutePins } from './route-pins';
export { createParallelPingSelector } from './route-selection';
export { createProvingPing, createUnencryptedRoutesSetting } from './route-trust';
