/** The app's stores, created once in main.tsx and handed down through context. */
import { createContext, type ReactNode, useContext } from 'react';
import type { FlowsStore } from '../stores/flows-store';
import type { HubsStore } from '../stores/hubs-store';
import type { LiveDevicesStore } from '../stores/live-devices-store';
import type { SessionStore } from '../stores/session-store';
import type { WebhooksStore } from '../stores/webhooks-store';

export interface Stores {
  session: SessionStore;
  hubs: HubsStore;
  /** The selected hub's devices as they change (see connectLiveView). */
  live: LiveDevicesStore;
  flows: FlowsStore;
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
