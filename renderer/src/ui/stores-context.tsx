/** The app's stores, created once in main.tsx and handed down through context. */
import { createContext, type ReactNode, useContext } from 'react';
import type { HubsStore } from '../stores/hubs-store';
import type { OpenHubStore } from '../stores/open-hub-store';
import type { SessionStore } from '../stores/session-store';
import type { WebhooksStore } from '../stores/webhooks-store';

export interface Stores {
  session: SessionStore;
  /** The hub list. */
  hubs: HubsStore;
  /** Which hub is open, and its devices and flows as they change. */
  openHub: OpenHubStore;
  webhooks: WebhooksStore;
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
