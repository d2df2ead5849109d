/** Entry point: creates the stores once, connects them, and renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getBridge } from './bridge';
import { connectLiveView, connectStores } from './stores/connect-stores';
import { createFlowsStore } from './stores/flows-store';
import { createHubsStore } from './stores/hubs-store';
import { createLiveDevicesStore } from './stores/live-devices-store';
import { createSessionStore } from './stores/session-store';
import { createWebhooksStore } from './stores/webhooks-store';
import './styles.css';
import { App } from './ui/app';
import { StoresProvider } from './ui/stores-context';

const bridge = getBridge();
const stores = {
  session: createSessionStore(bridge),
  hubs: createHubsStore(bridge),
  live: createLiveDevicesStore(bridge),
  flows: createFlowsStore(bridge),
  webhooks: createWebhooksStore(bridge),
};
connectStores(stores.session, stores.hubs);
connectLiveView(bridge, stores.hubs, stores.live, stores.flows);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>
  </StrictMode>,
);
