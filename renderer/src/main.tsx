/** Entry point: creates the stores once, connects them, and renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getBridge, getLinkStore } from './bridge';
import { connectStores } from './stores/connect-stores';
import { createDesktopStore } from './stores/desktop-store';
import { createEnergyStore } from './stores/energy-store';
import { createHubsStore } from './stores/hubs-store';
import { createInsightsStore } from './stores/insights-store';
import { resyncOnReconnect } from './stores/link-store';
import { createOpenHubStore } from './stores/open-hub-store';
import { createPreferencesStore, rememberOpenHub } from './stores/preferences-store';
import { createSessionStore } from './stores/session-store';
import { createWebhooksStore } from './stores/webhooks-store';
import { createForwardingStore } from './stores/forwarding-store';
import './styles.css';
import { App } from './ui/app';
import { browserNotifications } from './web-notifications';
import { LinkBanner } from './ui/link-banner';
import { StoresProvider } from './ui/stores-context';
import { followTheme } from './ui/theme';

const bridge = getBridge();
const hubs = createHubsStore(bridge);
// App shell (docs/device-controls.md, "App shell"): preferences first, so the theme is set before the first paint.
const preferences = createPreferencesStore();
followTheme(preferences);
// Follows the hub list: opens a hub once the list is loaded, closes it on sign-out.
const openHub = createOpenHubStore(bridge, hubs, { preferredHubId: () => preferences.getState().lastHubId });
const stores = {
  session: createSessionStore(bridge),
  hubs,
  openHub,
  // Follows the open hub: its logs, and live values appended to the shown series.
  insights: createInsightsStore(bridge, openHub),
  energy: createEnergyStore(bridge),
  webhooks: createWebhooksStore(bridge),
  forwarding: createForwardingStore(bridge),
  link: getLinkStore(),
  preferences,
  desktop: createDesktopStore(bridge, browserNotifications),
};
rememberOpenHub(preferences, stores.openHub);
connectStores(stores.session, stores.hubs);
// Back after the link to main was down: read the session, the open hub and the webhooks again.
resyncOnReconnect(stores.link, stores);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <LinkBanner />
      <App />
    </StoresProvider>
  </StrictMode>,
);
