/**
 * Composes the app core from its modules and the host's ports. This is the only place that knows how
 * sign-in, the vault, the cloud client and the hub sessions depend on each other; each of them stays
 * testable on its own.
 */
import { z } from 'zod';
import { AppError } from '../../common/app-error';
import type { DeviceList, Handlers, UserView } from '../../common/ipc-contract';
import type { UserRecord } from '../../common/wire';
import { createCloudClient } from './cloud-client';
import { createEventEmitter } from './event-emitter';
import { createFavourites } from './favourites';
import { createHubClient, type HubTransport, transportFor } from './hub-client';
import { createDispatcher, NOT_SIGNED_IN } from './ipc-dispatcher';
import { createHubLive, type LiveEvent, SIGNED_OUT_REASON } from './hub-live';
import { createHubSessions } from './hub-sessions';
import type { CoreDeps, HubdeskCore } from './hubdesk-core';
import { createLanDirectory } from './lan-directory';
import { plainWebSocket, wsLiveSocket } from './live-socket';
import { createNoticeBoard } from './notices';
import { createOAuthFlow } from './oauth-flow';
import { systemClock } from './ports';
import { createRoutePins } from './route-pins';
import { createParallelPingSelector } from './route-selection';
import { createProvingPing, createUnencryptedRoutesSetting } from './route-trust';
import { createSessionState, type SessionListener } from './session-state';
import { createTokenEndpoint } from './token-endpoint';
import { createTokenVault } from './token-vault';
import { realSchedule } from './webhook-channel';
import { createWebhookInspector } from './webhook-inspector';
import { createWebhookListener } from './webhook-listener';
import { createWebhookRegistrations } from './webhook-registrations';

const UserViewRecordSchema = z.object({ id: z.string(), email: z.string(), firstname: z.string(), lastname: z.string() });

export const SIGN_IN_EXPIRED_REASON = 'The sign-in in your browser took too long. Please sign in again.';
export const DECLINED_REASON = 'You declined access in your browser, so Hubdesk is not signed in.';
export const UNREADABLE_REASON = 'Your saved sign-in could not be read, so it was removed. Please sign in again.';

export async function createHubdeskCore(deps: CoreDeps): Promise<HubdeskCore> {
  const { backend, cipher, store, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const fetchFn = deps.fetch ?? globalThis.fetch;
  const lifetime = new AbortController();

  const vault = createTokenVault({ backend, cipher, store, logger });
  const unencryptedRoutes = createUnencryptedRoutesSetting(store);
  const userKey = `user:${vault.backendKey}`;
  const notices = createNoticeBoard(store, cipher.backend, vault.storage);
  const webhooks = createWebhookListener({
    webhookUrl: backend.webhookUrl,
    registrations: createWebhookRegistrations({ cipher, store, logger, storage: vault.storage }),
    inspector: createWebhookInspector(),
    openWebSocket: deps.openWebSocket,
    logger,
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

  /** Bumped whenever the signed-in identity changes: late answers for an older sign-in are dropped. */
  let epoch = 0;
  const signOut = (reason?: string) => {
    epoch++;
    vault.clear();
    store.delete(userKey);
    live.stop(SIGNED_OUT_REASON);
    void sessions.clear(); // ends each hub session on its hub too; the user need not wait for that
    state.setAuth(reason === undefined ? { status: 'signed-out' } : { status: 'signed-out', reason });
  };

  const tokenEndpoint = createTokenEndpoint(backend, fetchFn, lifetime.signal);
  const cloud = createCloudClient({
    backend,
    fetch: fetchFn,
    vault,
    tokenEndpoint,
    logger,
    lifetime: lifetime.signal,
    onSessionEnded: (reason) => signOut(reason),
  });
  const standardTransport: HubTransport = { fetch: fetchFn, openWebSocket: deps.openWebSocket ?? plainWebSocket };
  const hubClient = createHubClient((at) => transportFor(standardTransport, deps.namingHub, at.namedHub), lifetime.signal);
  // Addresses heard over mDNS are used only where the host can check that a certificate names the hub.
  const lan = deps.mdns && deps.namingHub ? createLanDirectory(deps.mdns, logger) : null;
  const routes = createParallelPingSelector(createProvingPing(hubClient, { allowUnencrypted: unencryptedRoutes.allowed }), {
    lanRoutes: lan ? (hubId) => lan.routes(hubId) : undefined,
  });
  const sessions = createHubSessions({ cloud, hubClient, routes, pins: createRoutePins(store), clock, logger });
  const favourites = createFavourites(store, logger);
  const deviceList = async (hubId: string): Promise<DeviceList> => ({ ...(await sessions.devices(hubId)), favourites: favourites.get(hubId) });
  const liveEvents = createEventEmitter<LiveEvent>(logger);
  const live = createHubLive({
    sessions,
    fetchDevices: deviceList,
    openSocket: wsLiveSocket((namedHub) => transportFor(standardTransport, deps.namingHub, namedHub).openWebSocket),
    emit: liveEvents.emit,
    clock,
    logger,
    schedule: deps.schedule ?? realSchedule,
  });
  lan?.onUp((hubId) => {
    sessions.reselect(hubId).catch((error: unknown) => logger.warn('hubs: looking for a better route failed', { hubId, error: error instanceof Error ? error.message : String(error) }));
  });
  const oauth = createOAuthFlow({
    backend,
    tokenEndpoint,
    openExternal: deps.openExternal,
    clock,
    logger,
    onExpired: () => {
      if (state.auth().status === 'signing-in') state.setAuth({ status: 'signed-out', reason: SIGN_IN_EXPIRED_REASON });
    },
  });

  /** The user as last seen, kept (without any secret) so a restart shows who is signed in even offline. */
  const rememberUser = (user: UserRecord): UserView => {
    const view = { id: user._id, email: user.email, firstname: user.firstname, lastname: user.lastname };
    store.set(userKey, view);
    return view;
  };
  const rememberedUser = (): UserView | null => {
    const parsed = UserViewRecordSchema.safeParse(store.get(userKey));
    return parsed.success ? parsed.data : null;
  };

  /** After tokens are in the vault: reads the user and shows them as signed in. */
  const enterSignedIn = async (): Promise<void> => {
    const started = epoch;
    try {
      const record = await cloud.getUser();
      if (epoch !== started) return; // signed out (or in again) meanwhile
      state.setAuth({ status: 'signed-in', user: rememberUser(record) });
    } catch (error) {
      if (epoch !== started) return;
      if (error instanceof AppError && error.code === 'signed-out') return; // the cloud client already signed out
      // The cloud is unreachable or misbehaving: the sign-in is kept; the hub list will say what is wrong.
      const user = rememberedUser();
      logger.warn('core: could not read the user record', { code: error instanceof AppError ? error.code : 'internal' });
      state.setAuth({ status: 'signed-in', user: user ?? { id: '', email: '', firstname: '', lastname: '' } });
    }
  };

  const restore = async () => {
    const loaded = await vault.load();
    if (loaded === 'empty') return state.setAuth({ status: 'signed-out' });
    if (loaded === 'unreadable') return signOut(UNREADABLE_REASON);
    await enterSignedIn();
  };

  /** What the contract's `signed-in` verbs need (the dispatcher checks it): a user, or a saved sign-in being restored. */
  const signedIn = () => {
    const { status } = state.auth();
    return status === 'signed-in' || status === 'restoring';
  };

  const handlers: Handlers = {
    'session.get': async () => state.view(),
    'auth.signIn': async () => {
      if (state.auth().status === 'signed-in') return;
      state.setAuth({ status: 'signing-in', authorizationOrigin: new URL(backend.authUrl).origin });
      try {
        await oauth.start();
      } catch (error) {
        logger.error('core: could not open the system browser', { error: error instanceof Error ? error.message : String(error) });
        state.setAuth({ status: 'signed-out', reason: 'Hubdesk could not open your browser to sign in.' });
        throw new AppError('internal', 'Hubdesk could not open your browser to sign in.');
      }
    },
    'auth.cancel': async () => {
      oauth.cancel();
      if (state.auth().status === 'signing-in') state.setAuth({ status: 'signed-out' });
    },
    'auth.signOut': async () => {
      oauth.cancel();
      signOut();
    },
    'hubs.list': async () => {
      return sessions.list();
    },
    'hubs.devices': async (hubId) => {
      return deviceList(hubId);
    },
    'hubs.setCapability': async (hubId, request) => {
      return sessions.setCapability(hubId, request);
    },
    'hubs.watch': async (hubId) => {
      // Stopping (null) works signed out too, which the contract cannot say per argument; watching needs a user.
      if (hubId !== null && !signedIn()) throw NOT_SIGNED_IN;
      live.watch(hubId);
    },
    'hubs.flows': async (hubId) => {
      return sessions.flows(hubId);
    },
    'hubs.triggerFlow': async (hubId, flowId) => {
      return sessions.triggerFlow(hubId, flowId);
    },
    'hubs.setFavourite': async (hubId, deviceId, favourite) => {
      favourites.set(hubId, deviceId, favourite);
    },
    'hubs.pinRoute': async (hubId, kind) => {
      sessions.pinRoute(hubId, kind);
      live.restart(hubId);
    },
    'hubs.allowUnencryptedRoutes': async (allow) => {
      unencryptedRoutes.set(allow);
      state.refresh();
      if (!allow) for (const hubId of sessions.leaveUnencryptedRoutes()) live.restart(hubId);
    },
    'vault.allowPlaintextStorage': async (allow) => {
      await vault.setAllowPlaintext(allow);
      state.refresh();
    },
    'notices.dismiss': async (id) => {
      notices.dismiss(id);
      state.refresh();
    },
    // Webhooks need no sign-in: the forwarder authenticates them by id and secret.
    'webhooks.list': async () => webhooks.list(),
    'webhooks.add': (input) => webhooks.add(input),
    'webhooks.remove': async (id) => webhooks.remove(id),
    'inspector.snapshot': async (request) => webhooks.inspector.snapshot(request),
    'inspector.message': async (webhookId, id) => webhooks.inspector.message(webhookId, id),
    'inspector.clear': async () => webhooks.inspector.clear(),
  };

  const restoring = state.auth().status === 'restoring' ? restore() : Promise.resolve();
  await webhooks.start();

  return {
    handlers,
    dispatch: createDispatcher(handlers, logger, { signedIn }),
    onEvent: (event, listener) => {
      if (event === 'session.changed') return state.subscribe(listener as SessionListener);
      if (isLiveEvent(event)) return liveEvents.on(event, listener as (payload: unknown) => void);
      return webhooks.on(event, listener as (payload: unknown) => void);
    },
    async handleOAuthCallback(params) {
      const result = await oauth.handleCallback(params);
      switch (result.kind) {
        case 'ignored':
          return 'ignored';
        case 'tokens':
          epoch++;
          live.stop(SIGNED_OUT_REASON);
          void sessions.clear();
          await vault.save(result.tokens);
          await enterSignedIn();
          return 'accepted';
        case 'declined':
          state.setAuth({ status: 'signed-out', reason: DECLINED_REASON });
          return 'accepted';
        case 'expired':
          state.setAuth({ status: 'signed-out', reason: SIGN_IN_EXPIRED_REASON });
          return 'accepted';
        case 'failed':
          state.setAuth({ status: 'signed-out', reason: result.reason });
          return 'accepted';
      }
    },
    async dispose() {
      lifetime.abort();
      live.dispose();
      liveEvents.clear();
      lan?.stop();
      oauth.dispose();
      webhooks.dispose();
      await restoring.catch(() => {});
      state.dispose();
    },
  };
}

const LIVE_EVENTS: ReadonlySet<string> = new Set<LiveEvent>(['hubs.live', 'hubs.deviceEvents', 'hubs.devicesRefreshed']);
const isLiveEvent = (event: string): event is LiveEvent => LIVE_EVENTS.has(event);
