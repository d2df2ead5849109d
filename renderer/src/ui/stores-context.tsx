/** The app's stores, created once in main.tsx and handed down through context. */
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { DesktopStore } from '../stores/desktop-store';
import type { EnergyStore } from '../stores/energy-store';
import type { ForwardingStore } from '../stores/forwarding-store';
import type { HubsStore } from '../stores/hubs-store';
import type { InsightsStore } from '../stores/insights-store';
import { isConnected, type LinkStore } from '../stores/link-store';
import type { OpenHubStore } from '../stores/open-hub-store';
import type { PreferencesStore } from '../stores/preferences-store';
import type { SessionStore } from '../stores/session-store';
import type { WebhooksStore } from '../stores/webhooks-state';

export interface Stores {
  session: SessionStore;
  /** The hub list. */
  hubs: HubsStore;
  /** Which hub is open, and its devices and flows as they change. */
  openHub: OpenHubStore;
  /** The open hub's history: which capabilities it keeps, and the series the charts show (docs/insights-app.md). */
  insights: InsightsStore;
  /** Every hub's meters, for the Energy view (docs/insights-app.md, "Energy"). */
  energy: EnergyStore;
  webhooks: WebhooksStore;
  /** Forward to: each message's forwarding to its local server, as main reports it. */
  forwarding: ForwardingStore;
  /** The link to the app's main process (docs/device-controls.md, "Connection state and deadlines"). */
  link: LinkStore;
  /** Theme, sidebar, last hub and view, kept in localStorage (docs/device-controls.md, "App shell"). */
  preferences: PreferencesStore;
  /** Tray, start at login and notifications, kept by main (docs/architecture.md, "The desktop"). */
  desktop: DesktopStore;
}

const StoresContext = createContext<Stores | null>(null);

export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores must be used inside StoresProvider');
  return stores;
}

/** The name of a hub by its id, while signed in and after a sign-out (undefined when no list named it yet). */
export function useHubName(): (hubId: string) => string | undefined {
  const { hubs } = useStores();
  const names = useStore(hubs, (s) => s.names);
  return (hubId) => names.get(hubId);
}

/** Whether main can be reached now: controls that need it are disabled while it cannot. */
export function useLinked(): boolean {
  const { link } = useStores();
  return useStore(link, isConnected);
}
