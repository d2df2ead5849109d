/**
 * Sessions on the user's hubs (spec §5.7): GET /user/me → delegation token → login → calls with the
 * session token. One cached session per hub, created by at most one login at a time. A hub that
 * answers 401 gets one new session and the call is retried once; a hub that cannot be reached has its
 * addresses re-read from /user/me (they may have changed, §2.2) before the app gives up. A session
 * moves to a better route when one answers later, keeping its token (it is valid on every route of its hub).
 */
import { AppError } from '../../common/app-error';
import type { DeviceList, HubView } from '../../common/ipc-contract';
import type { HubRecord } from '../../common/wire';
import type { CloudClient } from './cloud-client';
import type { HubClient } from './hub-client';
import type { HttpOutcome } from './http';
import type { Clock, Logger } from './ports';
import type { Route, RouteSelector, Selection } from './route-selection';

export interface HubSessions {
  /** Reads the user's hubs from the cloud (always fresh: addresses and hubs change). */
  list(): Promise<HubView[]>;
  devices(hubId: string): Promise<DeviceList>;
  /** Forgets every session and cached address, e.g. on sign-out. */
  clear(): void;
}

export interface HubSessionsDeps {
  cloud: CloudClient;
  hubClient: HubClient;
  routes: RouteSelector;
  clock: Clock;
  logger: Logger;
}

interface Session {
  /** The route in use now: the one chosen, or a better one that answered since. */
  route: () => Route;
  token: string;
}

export function createHubSessions({ cloud, hubClient, routes, clock, logger }: HubSessionsDeps): HubSessions {
  let records = new Map<string, HubRecord>();
  const sessions = new Map<string, Session>();
  const opening = new Map<string, Promise<Session>>();
  /** Per hub, the selection still looking for a better route; a new selection or clear() stops it. */
  const watching = new Map<string, AbortController>();
  /** Bumped by clear(): a login that finishes after a sign-out must not leave its session behind. */
  let generation = 0;

  const readRecords = async (): Promise<Map<string, HubRecord>> => {
    const user = await cloud.getUser();
    records = new Map(user.hubs.map((hub) => [hub._id, hub]));
    return records;
  };

  const record = async (hubId: string, fresh: boolean): Promise<HubRecord> => {
    const known = fresh ? undefined : records.get(hubId);
    const hub = known ?? (await readRecords()).get(hubId);
    if (!hub) throw new AppError('hub-not-found', 'This hub is no longer in your account.');
    return hub;
  };

  /** The first acceptable route that answers; when none does, the addresses are re-read once (they may have moved). */
  const reachableRoute = async (hubId: string): Promise<{ hub: HubRecord; route: () => Route }> => {
    for (const fresh of [false, true]) {
      const hub = await record(hubId, fresh);
      watching.get(hubId)?.abort();
      const watch = new AbortController();
      watching.set(hubId, watch);
      let better: Route | null = null;
      const selection = await routes.select(hub, {
        signal: watch.signal,
        onBetter: (moved) => {
          better = moved.route;
          logger.info('hubs: moved to a better route', describe(hubId, moved));
        },
      });
      if (selection) {
        logger.info('hubs: route chosen', describe(hubId, selection));
        return { hub, route: () => better ?? selection.route };
      }
      logger.warn('hubs: no address answered', { hubId, reread: fresh });
    }
    const hub = await record(hubId, false);
    throw new AppError('hub-unreachable', `Hubdesk cannot reach ${hub.name}. Make sure it is switched on and connected; every address it has was tried.`);
  };

  const login = async (hubId: string): Promise<Session> => {
    const { hub, route } = await reachableRoute(hubId);
    const delegation = await cloud.delegationToken(hubId);
    const outcome = await hubClient.login(route().baseUrl, delegation);
    if (outcome.kind === 'ok') return { route, token: outcome.value };
    throw failure(outcome, hub, 'login');
  };

  const session = (hubId: string): Promise<Session> => {
    const cached = sessions.get(hubId);
    if (cached) return Promise.resolve(cached);
    const pending = opening.get(hubId);
    if (pending) return pending;
    const started = generation;
    const attempt = login(hubId)
      .then((created) => {
        if (generation === started) sessions.set(hubId, created);
        return created;
      })
      .finally(() => opening.delete(hubId));
    opening.set(hubId, attempt);
    return attempt;
  };

  const failure = (outcome: Exclude<HttpOutcome<unknown>, { kind: 'ok' }>, hub: HubRecord, what: string): AppError => {
    logger.warn(`hubs: ${what} failed`, { hubId: hub._id, kind: outcome.kind, status: outcome.kind === 'status' ? outcome.status : undefined });
    switch (outcome.kind) {
      case 'network':
        return new AppError('hub-unreachable', `Hubdesk lost the connection to ${hub.name}. Please try again.`);
      case 'malformed':
        return new AppError('hub-session-lost', `${hub.name} sent an answer Hubdesk could not understand.`);
      case 'status':
        if (outcome.status === 403) return new AppError('forbidden', `Hubdesk was not granted access to the devices on ${hub.name}.`);
        if (outcome.status === 401) return new AppError('hub-session-lost', `${hub.name} did not accept a new session. Please try again; if it keeps happening, sign out and in again.`);
        return new AppError('hub-session-lost', `${hub.name} answered with an error (HTTP ${outcome.status}).`);
    }
  };

  return {
    async list() {
      const hubs = await readRecords();
      return [...hubs.values()].map(toHubView);
    },
    async devices(hubId) {
      // Attempt 1 uses the cached session; a 401 or a lost route costs one new session and one retry.
      for (let attempt = 1; ; attempt++) {
        const current = await session(hubId);
        const route = current.route();
        const outcome = await hubClient.devices(route.baseUrl, current.token);
        if (outcome.kind === 'ok') {
          return { hubId, route: route.kind, fetchedAt: new Date(clock.now()).toISOString(), devices: Object.values(outcome.value) };
        }
        const retryable = (outcome.kind === 'status' && outcome.status === 401) || outcome.kind === 'network';
        if (retryable && sessions.get(hubId) === current) sessions.delete(hubId);
        if (!retryable || attempt === 2) throw failure(outcome, await record(hubId, false), 'device list');
        logger.info('hubs: starting a new session', { hubId, why: outcome.kind === 'network' ? 'address stopped answering' : 'session expired' });
      }
    },
    clear() {
      generation++;
      for (const watch of watching.values()) watch.abort();
      watching.clear();
      sessions.clear();
      opening.clear();
      records = new Map();
    },
  };
}

/** For the log: which route, how fast, and what every candidate did (addresses only; no secret is in them). */
function describe(hubId: string, selection: Selection): Record<string, unknown> {
  const outcomes = Object.fromEntries(selection.outcomes.map(({ route, outcome }) => [route.kind, outcome.status]));
  return { hubId, route: selection.route.kind, rttMs: selection.rttMs, outcomes };
}

function toHubView(hub: HubRecord): HubView {
  return {
    id: hub._id,
    name: hub.name,
    platform: hub.platform,
    routes: { 'local-secure': hub.localUrlSecure !== null, local: hub.localUrl !== null, remote: hub.remoteUrl !== null },
  };
}
