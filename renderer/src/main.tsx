/** Entry point: creates the stores once, connects them, and renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getBridge } from './bridge';
import { connectStores } from './stores/connect-stores';
import { createHubsStore } from './stores/hubs-store';
import { createOpenHubStore } from './stores/open-hub-store';
import { createSessionStore } from './stores/session-store';
import { createWebhooksStore } from './stores/webhooks-store';
import './styles.css';
import { App } from './ui/app';
import { StoresProvider } from './ui/stores-context';

const bridge = getBridge();
const hubs = createHubsStore(bridge);
const stores = {
  session: createSessionStore(bridge),
  hubs,
  // Follows the hub list: opens a hub once the list is loaded, closes it on sign-out.
  openHub: createOpenHubStore(bridge, hubs),
  webhooks: createWebhooksStore(bridge),
};
connectStores(stores.session, stores.hubs);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>
  </StrictMode>,
);
