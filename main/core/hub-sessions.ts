/**
 * Sessions on the user's hubs (spec §5.7): GET /user/me → delegation token → login → calls with the
 * session token. One cached session per hub, created by at most one login at a time. A hub that
 * answers 401 gets one new session and the call is retried once; a hub that cannot be reached has its
 * addresses re-read from /user/me (they may have changed, §2.2) before the app gives up. A session
 * moves to a better route when one answers later, keeping its token (it is valid on every route of its hub).
 * A route the user pinned is the only one tried. When mDNS hears a hub with an open session, the
 * session looks again for a better route (the laptop came home) and moves to it, keeping its token.
 */
import { AppError } from '../../common/app-error';
import type { DeviceList, HubView, RouteKind, RouteOutcome } from '../../common/ipc-contract';
import type { HubRecord } from '../../common/wire';
import type { CloudClient } from './cloud-client';
import type { HubClient } from './hub-client';
import type { HttpOutcome } from './http';
import type { Clock, Logger } from './ports';
import type { RoutePins } from './route-pins';
import { preferred, type RouteSelector, type Selection } from './route-selection';

export interface HubSessions {
  /** Reads the user's hubs from the cloud (always fresh: addresses and hubs change). */
  list(): Promise<HubView[]>;
  devices(hubId: string): Promise<DeviceList>;
  /** Pins the route for a hub (null: automatic); the next call opens a session on it. */
  pinRoute(hubId: string, kind: RouteKind | null): void;
  /** The hub was heard on the LAN: an open session moves to a better route if one answers. */
  reselect(hubId: string): Promise<void>;
  /** Forgets every session and cached address, e.g. on sign-out. */
  clear(): void;
}

export interface HubSessionsDeps {
  cloud: CloudClient;
  hubClient: HubClient;
  routes: RouteSelector;
  pins: RoutePins;
  clock: Clock;
  logger: Logger;
}

interface Session {
  /** The route in use now and how it was chosen: the first selection, or a better route that answered since. */
  selection: () => Selection;
  token: string;
}

export function createHubSessions({ cloud, hubClient, routes, pins, clock, logger }: HubSessionsDeps): HubSessions {
  let records = new Map<string, HubRecord>();
  const sessions = new Map<string, Session>();
  const opening = new Map<string, Promise<Session>>();
  /** Per hub, the selection still looking for a better route; a new selection or clear() stops it. */
  const watching = new Map<string, AbortController>();
  /** Bumped by clear(): a login that finishes after a sign-out must not leave its session behind. */
  let generation = 0;
  /** Bumped per hub when its route is pinned: a login that started before the pin is not cached. */
  const hubGenerations = new Map<string, number>();

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

  /** Selects a route for the hub and keeps watching for a better one (replacing the previous watch); null: none answered. */
  const watchedSelection = async (hub: HubRecord, pinned: RouteKind | null): Promise<(() => Selection) | null> => {
    const hubId = hub._id;
    watching.get(hubId)?.abort();
    const watch = new AbortController();
    watching.set(hubId, watch);
    let better: Selection | null = null;
    const selection = await routes.select(hub, {
      signal: watch.signal,
      only: pinned,
      onBetter: (moved) => {
        better = moved;
        logger.info('hubs: moved to a better route', describe(hubId, moved));
      },
    });
    if (!selection) return null;
    logger.info('hubs: route chosen', describe(hubId, selection));
    return () => better ?? selection;
  };

  /** The first acceptable route that answers; when none does, the addresses are re-read once (they may have moved). */
  const reachableRoute = async (hubId: string): Promise<{ hub: HubRecord; selection: () => Selection }> => {
    const pinned = pins.get(hubId);
    for (const fresh of [false, true]) {
      const hub = await record(hubId, fresh);
      const selection = await watchedSelection(hub, pinned);
      if (selection) return { hub, selection };
      logger.warn('hubs: no address answered', { hubId, reread: fresh, pinned });
    }
    const hub = await record(hubId, false);
    if (pinned !== null) {
      throw new AppError('hub-unreachable', `${hub.name} does not answer on the route you pinned (${PINNED_NAMES[pinned]}). Choose "Automatic" to let Hubdesk use any route.`);
    }
    throw new AppError('hub-unreachable', `Hubdesk cannot reach ${hub.name}. Make sure it is switched on and connected; every address it has was tried.`);
  };

  const login = async (hubId: string): Promise<Session> => {
    const { hub, selection } = await reachableRoute(hubId);
    const delegation = await cloud.delegationToken(hubId);
    const outcome = await hubClient.login(selection().route.baseUrl, delegation);
    if (outcome.kind === 'ok') return { selection, token: outcome.value };
    throw failure(outcome, hub, 'login');
  };

  const session = (hubId: string): Promise<Session> => {
    const cached = sessions.get(hubId);
    if (cached) return Promise.resolve(cached);
    const pending = opening.get(hubId);
    if (pending) return pending;
    const started = generation;
    const startedForHub = hubGenerations.get(hubId) ?? 0;
    const attempt = login(hubId)
      .then((created) => {
        // A sign-out (generation) or a new pin for this hub (hubGenerations) while logging in: do not keep it.
        if (generation === started && (hubGenerations.get(hubId) ?? 0) === startedForHub) sessions.set(hubId, created);
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
      return [...hubs.values()].map((hub) => toHubView(hub, pins.get(hub._id)));
    },
    async devices(hubId) {
      // Attempt 1 uses the cached session; a 401 or a lost route costs one new session and one retry.
      for (let attempt = 1; ; attempt++) {
        const current = await session(hubId);
        const chosen = current.selection();
        const outcome = await hubClient.devices(chosen.route.baseUrl, current.token);
        if (outcome.kind === 'ok') {
          return {
            hubId,
            route: chosen.route.kind,
            rttMs: chosen.rttMs,
            routeOutcomes: chosen.outcomes.map(toRouteOutcome),
            fetchedAt: new Date(clock.now()).toISOString(),
            devices: Object.values(outcome.value),
          };
        }
        const retryable = (outcome.kind === 'status' && outcome.status === 401) || outcome.kind === 'network';
        if (retryable && sessions.get(hubId) === current) sessions.delete(hubId);
        if (!retryable || attempt === 2) throw failure(outcome, await record(hubId, false), 'device list');
        logger.info('hubs: starting a new session', { hubId, why: outcome.kind === 'network' ? 'address stopped answering' : 'session expired' });
      }
    },
    async reselect(hubId) {
      const active = sessions.get(hubId);
      const hub = records.get(hubId); // only the user's hubs: an id heard on the LAN but not in the record is ignored
      if (!active || !hub || pins.get(hubId) !== null || active.selection().route.kind === 'local-secure') return;
      const before = active.selection();
      const found = await watchedSelection(hub, null);
      if (!found || sessions.get(hubId) !== active) return;
      // The old route stays in use unless the new selection (or a better route it hears of later) beats it.
      active.selection = () => {
        const now = found();
        return preferred(before.route, now.route) === now.route ? now : before;
      };
    },
    pinRoute(hubId, kind) {
      pins.set(hubId, kind);
      // The session stays valid (its token works on every route), but its route may not be the pinned one.
      watching.get(hubId)?.abort();
      watching.delete(hubId);
      sessions.delete(hubId);
      opening.delete(hubId);
      hubGenerations.set(hubId, (hubGenerations.get(hubId) ?? 0) + 1);
      logger.info('hubs: route pinned', { hubId, route: kind ?? 'automatic' });
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

function toHubView(hub: HubRecord, pinnedRoute: RouteKind | null): HubView {
  return {
    id: hub._id,
    name: hub.name,
    platform: hub.platform,
    routes: { 'local-secure': hub.localUrlSecure !== null, local: hub.localUrl !== null, remote: hub.remoteUrl !== null },
    pinnedRoute,
  };
}

const PINNED_NAMES: Record<RouteKind, string> = { 'local-secure': 'Secure LAN', local: 'LAN', remote: 'Remote' };

function toRouteOutcome({ route, outcome }: Selection['outcomes'][number]): RouteOutcome {
  const view: RouteOutcome = { kind: route.kind, outcome: outcome.status };
  if (outcome.status === 'answered') view.rttMs = outcome.rttMs;
  if (outcome.status === 'refused') view.reason = outcome.detail;
  return view;
}
