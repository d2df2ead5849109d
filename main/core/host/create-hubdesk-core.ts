/**
 * Composes the app core from its modules and the host's ports. This is the only place that knows how
 * sign-in, the vault, the cloud client and the hub sessions depend on each other; each of them stays
 * testable on its own.
 */
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../../common/app-error';
import type { DeviceList, Handlers } from '../../../common/ipc-contract';
import { createAuth } from '../sign-in';
import { createCloudClient } from '../sign-in';
import { startDesktopAlerts } from '../desktop';
import { createDesktopPreferences } from '../desktop';
import { createEventEmitter } from '../shared';
import { createFavourites } from '../hubs';
import { createHubClient, type HubTransport, transportFor } from '../hubs';
import { createDispatcher, NOT_SIGNED_IN } from './ipc-dispatcher';
import { createHubSessions } from '../hubs';
import type { CoreDeps, HubdeskCore } from './hubdesk-core';
import { createInsights } from '../hubs';
import { createLanDirectory } from '../hubs';
import { plainWebSocket, wsLiveSocket } from '../shared';
import { createNoticeBoard } from '../sign-in';
import { isOnline, watchNetwork, type WakeReason } from '../hubs';
import { createOAuthFlow } from '../sign-in';
import { createOpenHub, type LiveEvent } from '../hubs';
import { realSchedule, systemClock } from '../shared';
import { createRoutePins } from '../hubs';
import { createParallelPingSelector } from '../hubs';
import { createProvingPing, createUnencryptedRoutesSetting } from '../hubs';
import { createSecretStore } from '../shared';
import { createSessionState, type SessionListener } from '../sign-in';
import { createTokenEndpoint } from '../sign-in';
import { createTokenVault } from '../sign-in';
import { createInspectorFace, createWebhookHistory } from '../webhooks';
import { createWebhookCreation } from '../webhooks';
import { createWebhookListener } from '../webhooks';
import { createWebhookRegistrations } from '../webhooks';
import { errorMessage } from '../../../common/error-message';

export async function createHubdeskCore(deps: CoreDeps): Promise<HubdeskCore> {
  const { backend, cipher, store, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const schedule = deps.schedule ?? realSchedule;
  const fetchFn = deps.fetch ?? globalThis.fetch;
  const lifetime = new AbortController();

  const secrets = createSecretStore({ cipher, store, logger });
  const vault = createTokenVault({ backend, secrets, logger });
  const unencryptedRoutes = createUnencryptedRoutesSetting(store);
  const notices = createNoticeBoard(store, [secrets.notice]);
  const history = createWebhookHistory({
    dir: deps.dataDir === undefined ? null : join(deps.dataDir, 'webhook-history'),
    secrets,
    store,
    logger,
    clock,
    schedule,
  });
  const webhooks = createWebhookListener({
    webhookUrl: backend.webhookUrl,
    registrations: createWebhookRegistrations({ secrets, store, logger, schedule }),
    inspector: history.inspector,
    openWebSocket: deps.openWebSocket,
    logger,
    clock,
    schedule,
    // A registration naming a hub proves it with the signed-in account's delegation token (cloud made below; asked only once running).
    delegationToken: (hubId) => cloud.delegationToken(hubId),
  });
  const inspector = createInspectorFace({
    history,
    webhookUrl: backend.webhookUrl,
    signingSecret: webhooks.signingSecret,
    announce: webhooks.announce,
    clock,
  });
  const state = createSessionState({
    backend,
    notices,
    tokenStorage: vault.storage,
    allowUnencryptedRoutes: unencryptedRoutes.allowed,
    logger,
    initialAuth: vault.hasRecord() ? { status: 'restoring' } : { status: 'signed-out' },
  });
  // A registration naming a hub that waited for a sign-in (its delegation token) tries again once there is one.
  state.subscribe((view) => {
    if (view.auth.status === 'signed-in') webhooks.retryWaiting();
  });

  const tokenEndpoint = createTokenEndpoint(backend, fetchFn, lifetime.signal);
  const cloud = createCloudClient({
    backend,
    fetch: fetchFn,
    vault,
    tokenEndpoint,
    logger,
    lifetime: lifetime.signal,
    clock,
    onSessionEnded: (reason) => auth.endSession(reason),
  });
  const creation = createWebhookCreation({ backend, listener: webhooks, cloud, store, logger, lifetime: lifetime.signal });
  const standardTransport: HubTransport = { fetch: fetchFn, openWebSocket: deps.openWebSocket ?? plainWebSocket };
  const hubClient = createHubClient((at) => transportFor(standardTransport, deps.namingHub, at.namedHub), lifetime.signal);
  // Addresses heard over mDNS are used only where the host can check that a certificate names the hub.
  const lan = deps.mdns && deps.namingHub ? createLanDirectory(deps.mdns, logger) : null;
  const routes = createParallelPingSelector(createProvingPing(hubClient, { allowUnencrypted: unencryptedRoutes.allowed }), {
    lanRoutes: lan ? (hubId) => lan.routes(hubId) : undefined,
    clock,
    schedule,
  });
  const sessions = createHubSessions({ cloud, hubClient, routes, pins: createRoutePins(store), clock, logger });
  const favourites = createFavourites(store, logger);
  const insights = createInsights(sessions, (hubId) => sessions.hubName(hubId));
  const deviceList = async (hubId: string): Promise<DeviceList> => ({ ...(await sessions.devices(hubId)), favourites: favourites.get(hubId) });
  const liveEvents = createEventEmitter<LiveEvent>(logger);
  const interfaces = deps.networkInterfaces ?? networkInterfaces;
  // The open hub owns its model; the tray and the notifications read it (open-hub-model.ts).
  const openHub = createOpenHub({
    sessions,
    fetchDevices: deviceList,
    openSocket: wsLiveSocket((namedHub) => transportFor(standardTransport, deps.namingHub, namedHub).openWebSocket, schedule, clock),
    emit: liveEvents.emit,
    online: () => isOnline(interfaces),
    clock,
    logger,
    schedule,
  });
  const desktopEvents = createEventEmitter<DesktopEvent>(logger);
  const desktop = createDesktopPreferences(store, deps.desktop, logger);
  desktop.onChange((view) => desktopEvents.emit('desktop.changed', view));
  const stopAlerts = startDesktopAlerts({
    openHub: openHub.view,
    switches: () => desktop.get().notify,
    hubName: (hubId) => sessions.hubName(hubId),
    notify: deps.desktop?.notify ?? ((notification) => desktopEvents.emit('desktop.notification', notification)),
  });
  lan?.onUp((hubId) => {
    sessions.reselect(hubId).catch((error: unknown) => logger.warn('hubs: looking for a better route failed', { hubId, error: errorMessage(error) }));
  });
  const oauth = createOAuthFlow({
    backend,
    tokenEndpoint,
    openExternal: deps.openExternal,
    clock,
    schedule,
    logger,
    onExpired: () => auth.expired(),
  });
  const auth = createAuth({
    authUrl: backend.authUrl,
    vault,
    store,
    state,
    oauth,
    cloud,
    logger,
    onIdentityChange: () => {
      openHub.signedOut();
      void sessions.clear(); // ends each hub session on its hub too; the user need not wait for that
    },
  });

  const afterStart = <T>(run: () => T | Promise<T>): Promise<T> => webhooksStarted.then(run);
  const handlers: Handlers = {
    'session.get': async () => state.view(),
    'auth.signIn': () => auth.signIn(),
    'auth.cancel': async () => auth.cancel(),
    'auth.reopenBrowser': () => auth.reopenBrowser(),
    'auth.signOut': async () => auth.signOut(),
    'hubs.list': () => sessions.list(),
    'hubs.setCapability': async (hubId, request) => {
      return sessions.setCapability(hubId, request);
    },
    'hubs.open': async (hubId) => {
      // Closing (null) works signed out too, which the contract cannot say per argument; opening needs a user.
      if (hubId !== null && !auth.signedIn()) throw NOT_SIGNED_IN;
      openHub.open(hubId);
    },
    'hubs.reconnect': async (hubId) => openHub.retryNow(hubId),
    'hubs.triggerFlow': async (hubId, flowId) => {
      return sessions.triggerFlow(hubId, flowId);
    },
    'hubs.setFavourite': async (hubId, deviceId, favourite) => {
      favourites.set(hubId, deviceId, favourite);
      openHub.setFavourites(hubId, favourites.get(hubId));
    },
    'hubs.pinRoute': async (hubId, kind) => {
      sessions.pinRoute(hubId, kind);
      openHub.restart(hubId);
    },
    'hubs.allowUnencryptedRoutes': async (allow) => {
      unencryptedRoutes.set(allow);
      state.refresh();
      if (!allow) sessions.leaveUnencryptedRoutes();
      // The open hub's routes are tried again under the new rule, and its route details shown afresh.
      const open = openHub.current();
      if (open !== null) openHub.restart(open);
    },
    'insights.logs': (hubId) => insights.logs(hubId),
    'insights.series': (hubId, request) => insights.series(hubId, request),
    'vault.allowPlaintextStorage': async (allow) => {
      await vault.setAllowPlaintext(allow);
      state.refresh();
    },
    'notices.dismiss': async (id) => {
      notices.dismiss(id);
      state.refresh();
    },
    // Webhooks need no sign-in: the forwarder authenticates them by id and secret.
    'webhooks.list': () => afterStart(() => webhooks.list()),
    'webhooks.add': (input) => afterStart(() => webhooks.add(input)),
    'webhooks.remove': (id) => afterStart(() => webhooks.remove(id)),
    'webhooks.undoRemove': (id) => afterStart(() => webhooks.undoRemove(id)),
    'webhooks.edit': (edit) => afterStart(() => webhooks.edit(edit)),
    'webhooks.forwardAgain': (webhookId, id) => afterStart(async () => webhooks.forwardAgain(webhookId, id)),
    'webhooks.create': (input) => afterStart(() => creation.create(input)),
    'webhooks.useDemo': (routing) => afterStart(() => creation.useDemo(routing)),
    'webhooks.recreate': (id) => afterStart(() => creation.recreate(id)),
    'webhooks.openPortal': async () => {
      if (!backend.portalUrl) throw new AppError('invalid-argument', 'No developer portal is configured (set HUBDESK_PORTAL_URL).');
      await deps.openExternal(backend.portalUrl);
    },
    'inspector.snapshot': (request) => afterStart(() => inspector.snapshot(request)),
    'inspector.message': (webhookId, id) => afterStart(() => inspector.message(webhookId, id)),
    'inspector.clear': () => afterStart(() => inspector.clear()),
    'inspector.history': () => afterStart(() => inspector.history()),
    'inspector.setHistory': (settings) => afterStart(() => inspector.setHistory(settings)),
    'inspector.replay': (request) => afterStart(() => inspector.replay(request)),
    'inspector.import': (messages) => afterStart(() => inspector.import(messages)),
    'desktop.get': async () => desktop.view(),
    'desktop.set': (patch) => desktop.set(patch),
  };

  /** Whatever the network did meanwhile, routes are chosen again and the open hub is reopened and read afresh. */
  const wake = (reason: WakeReason) => {
    logger.info('core: routes may be stale; choosing them again', { reason });
    sessions.forgetRoutes();
    const open = openHub.current();
    if (open !== null) openHub.restart(open);
    webhooks.reconnect();
  };
  const stopWatchingNetwork = watchNetwork({ interfaces, clock, schedule, logger, onWake: wake });

  const restoring = state.auth().status === 'restoring' ? auth.restore() : Promise.resolve();
  // The listener starts once the saved history is read (messages wait at the forwarder meanwhile);
  // the webhook and inspector handlers wait for it, the rest of the app does not.
  const webhooksStarted = history.ready.then(async () => {
    await webhooks.start();
    // The embedded demo forwarder keeps nothing across restarts: its demo webhook is new each time.
    await creation
      .renewDemoRegistrations()
      .catch((error: unknown) => logger.warn('webhooks: renewing the demo registrations failed', { error: errorMessage(error) }));
  });
  webhooksStarted.catch((error: unknown) => logger.error('webhooks: could not start', { error: errorMessage(error) }));

  return {
    handlers,
    dispatch: createDispatcher(handlers, logger, { signedIn: auth.signedIn }),
    onEvent: (event, listener) => {
      if (event === 'session.changed') return state.subscribe(listener as SessionListener);
      if (isLiveEvent(event)) return liveEvents.on(event, listener as (payload: unknown) => void);
      if (isDesktopEvent(event)) return desktopEvents.on(event, listener as (payload: unknown) => void);
      return webhooks.on(event, listener as (payload: unknown) => void);
    },
    handleOAuthCallback: (params) => auth.handleCallback(params),
    wake,
    openHubSummary: () => openHub.view.summary(),
    onOpenHubSummary: (listener) => openHub.view.onSummary(listener),
    async dispose() {
      stopAlerts();
      desktopEvents.clear();
      lifetime.abort();
      stopWatchingNetwork();
      openHub.dispose();
      liveEvents.clear();
      lan?.stop();
      oauth.dispose();
      webhooks.dispose();
      await history.close();
      await restoring.catch(() => {});
      state.dispose();
    },
  };
}

const LIVE_EVENTS: readonly LiveEvent[] = ['hubs.snapshot', 'hubs.live', 'hubs.deviceEvents'];
const isLiveEvent = (event: string): event is LiveEvent => (LIVE_EVENTS as readonly string[]).includes(event);
type DesktopEvent = 'desktop.changed' | 'desktop.notification';
const isDesktopEvent = (event: string): event is DesktopEvent => event === 'desktop.changed' || event === 'desktop.notification';
