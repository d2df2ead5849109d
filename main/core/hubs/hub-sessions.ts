/**
 * Sessions on the user's hubs (docs/interface.md §5.7): GET /user/me → delegation token → login → calls with the
 * session token. One cached session per hub, created by at most one login at a time. A hub that
 * answers 401 gets one new session and the call is retried once; a hub that cannot be reached has its
 * addresses re-read from /user/me (they may have changed, docs/interface.md §2.2) before the app gives up. A session
 * moves to a better route when one answers later, keeping its token (it is valid on every route of its hub).
 * A route the user pinned is the only one tried. When mDNS hears a hub with an open session, the
 * session looks again for a better route (the laptop came home) and moves to it, keeping its token.
 * Every call on a hub (devices, control, flows, session/me) goes through one `withSession`, so the
 * retry rules hold for all of them; a refusal comes back as an AppError with the hub's own reason.
 */
import { AppError } from '../../../common/app-error';
import type { CapabilityEventData, FlowTriggerResult } from '../../../common/hub-control';
import { deviceLogId, deviceLogUri, type InsightsEntries, type InsightsLogMap, type InsightsResolution } from '../../../common/insights';
import type { DeviceList, FlowList, HubPermissions, HubView, RouteKind, RouteOutcome, SetCapabilityRequest } from '../../../common/ipc-contract';
import type { HubRecord } from '../../../common/wire';
import type { CloudClient } from '../sign-in';
import type { HubAddress, HubClient } from './hub-client';
import { FULL_PERMISSIONS, notAllowedToControl, notAllowedToStartFlows, permissionsFromScopes } from './hub-permissions';
import type { HttpOutcome } from '../shared';
import type { Clock, Logger } from '../shared';
import type { RoutePins } from './route-pins';
import { isUnencrypted, preferred, type RouteSelector, type Selection } from './route-selection';

/** The device list as the sessions know it; the user's favourites are added by the core. */
export type HubDevices = Omit<DeviceList, 'favourites'>;

/** Where and how the realtime channel of a hub connects: the session's current route (and its kind) and its token. */
export interface LiveEndpoint extends HubAddress {
  route: RouteKind;
  token: string;
}

export interface HubSessions {
  /** The user's hubs from the cloud: read afresh (addresses and hubs change), or the record sign-in read just now. */
  list(): Promise<HubView[]>;
  /** The hub's name from the last read of the user's hubs (kept until sign-out), or undefined before one. */
  hubName(hubId: string): string | undefined;
  /** The devices and what this session may do with them. */
  devices(hubId: string): Promise<HubDevices>;
  /** What this session may do (session/me, read once per session however many ask at once). */
  permissions(hubId: string): Promise<HubPermissions>;
  setCapability(hubId: string, request: SetCapabilityRequest): Promise<CapabilityEventData>;
  flows(hubId: string): Promise<FlowList>;
  triggerFlow(hubId: string, flowId: string): Promise<FlowTriggerResult>;
  /** The hub's insights logs, or null when it keeps none (404). */
  insightsLogs(hubId: string): Promise<InsightsLogMap | null>;
  /** One capability's history over a resolution, or null when the hub keeps none of it (404). */
  insightsEntries(hubId: string, deviceId: string, capabilityId: string, resolution: InsightsResolution): Promise<InsightsEntries | null>;
  /** The session for the realtime channel (opening one if needed). */
  liveEndpoint(hubId: string): Promise<LiveEndpoint>;
  /** The hub ended this session (e.g. the realtime channel was closed for it): the next call opens a new one. */
  expire(hubId: string, token: string): void;
  /**
   * This session's route stopped answering (the realtime channel could not even connect): the next call
   * chooses a route afresh, re-reading the addresses when none answers (the hub may have moved).
   */
  routeLost(hubId: string, token: string): void;
  /** Pins the route for a hub (null: automatic); the next call opens a session on it. */
  pinRoute(hubId: string, kind: RouteKind | null): void;
  /** The hub was heard on the LAN: an open session moves to a better route if one answers. */
  reselect(hubId: string): Promise<void>;
  /**
   * Forgets every session and cached address, e.g. on sign-out, and ends each session on its hub (so a
   * token left in memory or on the wire is worthless); resolves when every hub answered or gave up.
   */
  clear(): Promise<void>;
  /**
   * The user refused unencrypted routes: sessions on one are ended (on the hub too) and the next call
   * opens a new one on an allowed route. Returns the hubs whose session ended.
   */
  leaveUnencryptedRoutes(): string[];
  /**
   * The machine's network changed or it woke from sleep: every chosen route and cached address may be
   * stale. Sessions are ended (on their hubs too, where one still answers) and the next call per hub
   * reads the addresses and chooses a route afresh.
   */
  forgetRoutes(): void;
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
  /** session/me, read on first need and shared by every caller meanwhile; a session's scopes do not change. */
  permissions?: Promise<HttpOutcome<HubPermissions>>;
}

/** What a call is: for the log, for the user when the hub says no, and whether it may be sent twice. */
interface CallInfo {
  what: string;
  /** The sentence for a 403: which access is missing. */
  forbidden(hubName: string): string;
  /** Whose refusal a 4xx is (e.g. the device's name), prefixed to the hub's reason; the hub's name otherwise. */
  subject?: string;
  /** A call that must not run twice (starting a flow) is not retried after a network failure: it may have arrived. */
  once?: boolean;
}

/** The hub list may use the user record read this recently (at sign-in) instead of reading it again. */
export const SIGN_IN_RECORD_REUSE_MS = 10_000;

const LOGIN_CALL: CallInfo = { what: 'login', forbidden: (hub) => `Hubdesk was not granted access to ${hub}.` };
const DEVICES_CALL: CallInfo = { what: 'device list', forbidden: (hub) => `Hubdesk was not granted access to the devices on ${hub}.` };
const SESSION_INFO_CALL: CallInfo = { what: 'session info', forbidden: (hub) => `Hubdesk was not granted access to ${hub}.` };
const FLOWS_CALL: CallInfo = { what: 'flow list', forbidden: (hub) => `Hubdesk was not granted access to the flows on ${hub}.` };
const INSIGHTS_CALL: CallInfo = { what: 'insights', forbidden: (hub) => `Hubdesk was not granted access to the history of ${hub}.` };

/** A 404 is an answer here (no history kept), not a failure. */
const notFoundAsNull = <T>(outcome: HttpOutcome<T>): HttpOutcome<T | null> =>
  outcome.kind === 'status' && outcome.status === 404 ? { kind: 'ok', value: null } : outcome;

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
  /** Per hub, the devices of the last list (id → name): for error messages. */
  const knownDevices = new Map<string, Map<string, string>>();

  /** The names of the user's hubs; unlike `records`, kept when routes are forgotten (only sign-out clears them). */
  let names = new Map<string, string>();

  /** `maxAgeMs`: a record read that recently may serve (the first hub list after sign-in); fresh otherwise. */
  const readRecords = async (maxAgeMs = 0): Promise<Map<string, HubRecord>> => {
    const user = await cloud.getUser({ maxAgeMs });
    records = new Map(user.hubs.map((hub) => [hub._id, hub]));
    names = new Map(user.hubs.map((hub) => [hub._id, hub.name]));
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
      throw new AppError(
        'hub-unreachable',
        `${hub.name} does not answer on the route you pinned (${PINNED_NAMES[pinned]}). Choose "Automatic" to let Hubdesk use any route.`,
      );
    }
    throw new AppError('hub-unreachable', `Hubdesk cannot reach ${hub.name}. Make sure it is switched on and connected; every address it has was tried.`);
  };

  const login = async (hubId: string): Promise<Session> => {
    const { hub, selection } = await reachableRoute(hubId);
    const delegation = await cloud.delegationToken(hubId);
    const outcome = await hubClient.login(selection().route, delegation);
    if (outcome.kind === 'ok') return { selection, token: outcome.value };
    throw failure(outcome, hub, LOGIN_CALL);
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

  /** Ends a session on its hub; a hub that cannot be reached or has no logout lets the session expire on its own. */
  const logout = async (hubId: string, ending: Session): Promise<void> => {
    const outcome = await hubClient.logout(ending.selection().route, ending.token);
    if (outcome.kind === 'ok') logger.info('hubs: session ended on the hub', { hubId });
    else logger.warn('hubs: the hub did not end the session', { hubId, kind: outcome.kind, status: outcome.kind === 'status' ? outcome.status : undefined });
  };

  const failure = (outcome: Exclude<HttpOutcome<unknown>, { kind: 'ok' }>, hub: HubRecord, call: CallInfo): AppError => {
    logger.warn(`hubs: ${call.what} failed`, { hubId: hub._id, kind: outcome.kind, status: outcome.kind === 'status' ? outcome.status : undefined });
    switch (outcome.kind) {
      case 'network':
        return new AppError('hub-unreachable', `Hubdesk lost the connection to ${hub.name}. Please try again.`);
      case 'malformed':
        return new AppError('hub-session-lost', `${hub.name} sent an answer Hubdesk could not understand.`);
      case 'status': {
        if (outcome.status === 403) return new AppError('forbidden', call.forbidden(hub.name));
        if (outcome.status === 401)
          return new AppError('hub-session-lost', `${hub.name} did not accept a new session. Please try again; if it keeps happening, sign out and in again.`);
        const reason = outcome.error?.error_description;
        if (outcome.status < 500 && reason) return new AppError('invalid-argument', withSubject(call.subject ?? hub.name, reason));
        return new AppError('hub-session-lost', `${hub.name} answered with an error (HTTP ${outcome.status}).`);
      }
    }
  };

  /**
   * Runs one call on the hub's session. Attempt 1 uses the cached session; a 401 or a lost route
   * costs one new session and one retry (a lost route only for calls that may run twice).
   */
  const withSession = async <T>(
    hubId: string,
    call: CallInfo,
    run: (session: Session, at: HubAddress) => Promise<HttpOutcome<T>>,
  ): Promise<{ value: T; selection: Selection }> => {
    for (let attempt = 1; ; attempt++) {
      const current = await session(hubId);
      const chosen = current.selection();
      const outcome = await run(current, chosen.route);
      if (outcome.kind === 'ok') return { value: outcome.value, selection: chosen };
      const expired = outcome.kind === 'status' && outcome.status === 401;
      const lost = outcome.kind === 'network';
      if ((expired || lost) && sessions.get(hubId) === current) sessions.delete(hubId);
      if (!(expired || (lost && !call.once)) || attempt === 2) throw failure(outcome, await record(hubId, false), call);
      logger.info('hubs: starting a new session', { hubId, why: lost ? 'address stopped answering' : 'session expired' });
    }
  };

  /** session/me as permissions; a hub without session/me is assumed to allow everything. */
  const readPermissions = async (at: HubAddress, token: string, hubName: string): Promise<HttpOutcome<HubPermissions>> => {
    const outcome = await hubClient.sessionInfo(at, token);
    if (outcome.kind === 'status' && outcome.status === 404) return { kind: 'ok', value: FULL_PERMISSIONS };
    if (outcome.kind === 'ok') return { kind: 'ok', value: permissionsFromScopes(outcome.value.scopes, hubName) };
    return outcome;
  };

  /** What the session may do, read once per session (a failed read is tried again by the next caller). */
  const permissions = async (hubId: string): Promise<HubPermissions> => {
    const hubName = (await record(hubId, false)).name;
    const { value } = await withSession(hubId, SESSION_INFO_CALL, async (current, at) => {
      const read = (current.permissions ??= readPermissions(at, current.token, hubName));
      const outcome = await read;
      if (outcome.kind !== 'ok' && current.permissions === read) current.permissions = undefined;
      return outcome;
    });
    return value;
  };

  return {
    async list() {
      const hubs = await readRecords(SIGN_IN_RECORD_REUSE_MS);
      return [...hubs.values()].map((hub) => toHubView(hub, pins.get(hub._id)));
    },
    hubName: (hubId) => names.get(hubId),
    async devices(hubId) {
      // The list and the permissions go out together once the session is open: one round trip, not two.
      const [{ value, selection }, granted] = await Promise.all([
        withSession(hubId, DEVICES_CALL, (current, at) => hubClient.devices(at, current.token)),
        permissions(hubId),
      ]);
      const devices = Object.values(value);
      knownDevices.set(hubId, new Map(devices.map((device) => [device.id, device.name])));
      return {
        hubId,
        route: selection.route.kind,
        rttMs: selection.rttMs,
        routeOutcomes: selection.outcomes.map(toRouteOutcome),
        fetchedAt: new Date(clock.now()).toISOString(),
        devices,
        permissions: granted,
      };
    },
    permissions,
    async setCapability(hubId, { deviceId, capabilityId, value, transactionId }) {
      const call: CallInfo = { what: 'setting a capability', forbidden: notAllowedToControl, subject: knownDevices.get(hubId)?.get(deviceId) };
      const result = await withSession(hubId, call, (current, at) =>
        hubClient.setCapability(at, current.token, deviceId, capabilityId, { value, transactionId }),
      );
      return result.value;
    },
    async flows(hubId) {
      const [{ value }, granted] = await Promise.all([withSession(hubId, FLOWS_CALL, (current, at) => hubClient.flows(at, current.token)), permissions(hubId)]);
      const flows = Object.values(value).sort((a, b) => a.name.localeCompare(b.name));
      return { hubId, flows, canStart: granted.flows === 'start' };
    },
    async triggerFlow(hubId, flowId) {
      const call: CallInfo = { what: 'starting a flow', forbidden: notAllowedToStartFlows, once: true };
      return (await withSession(hubId, call, (current, at) => hubClient.triggerFlow(at, current.token, flowId))).value;
    },
    async insightsLogs(hubId) {
      return (await withSession(hubId, INSIGHTS_CALL, async (current, at) => notFoundAsNull(await hubClient.insightsLogs(at, current.token)))).value;
    },
    async insightsEntries(hubId, deviceId, capabilityId, resolution) {
      const run = async (current: Session, at: HubAddress) =>
        notFoundAsNull(await hubClient.insightsEntries(at, current.token, deviceLogUri(deviceId), deviceLogId(deviceId, capabilityId), resolution));
      return (await withSession(hubId, INSIGHTS_CALL, run)).value;
    },
    async liveEndpoint(hubId) {
      const current = await session(hubId);
      const { baseUrl, namedHub, kind } = current.selection().route;
      return { baseUrl, ...(namedHub !== undefined && { namedHub }), route: kind, token: current.token };
    },
    expire(hubId, token) {
      if (sessions.get(hubId)?.token === token) sessions.delete(hubId);
    },
    routeLost(hubId, token) {
      if (sessions.get(hubId)?.token !== token) return;
      logger.info('hubs: the route in use stopped answering; choosing again', { hubId });
      watching.get(hubId)?.abort();
      watching.delete(hubId);
      sessions.delete(hubId);
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
    async clear() {
      generation++;
      const ended = [...sessions.entries()];
      for (const watch of watching.values()) watch.abort();
      watching.clear();
      sessions.clear();
      opening.clear();
      knownDevices.clear();
      records = new Map();
      names = new Map();
      await Promise.all(ended.map(([hubId, ending]) => logout(hubId, ending)));
    },
    forgetRoutes() {
      generation++; // a login under way chose its route before the change: it is not kept
      const left = [...sessions.entries()];
      for (const watch of watching.values()) watch.abort();
      watching.clear();
      sessions.clear();
      opening.clear();
      records = new Map();
      for (const [hubId, ending] of left) void logout(hubId, ending);
    },
    leaveUnencryptedRoutes() {
      const left = [...sessions.entries()].filter(([, open]) => open.selection().route.kind === 'local' && isUnencrypted(open.selection().route));
      for (const [hubId, open] of left) {
        watching.get(hubId)?.abort();
        watching.delete(hubId);
        sessions.delete(hubId);
        void logout(hubId, open);
      }
      return left.map(([hubId]) => hubId);
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

/** The hub's reason, prefixed with whose it is unless the hub already named it. */
function withSubject(subject: string, reason: string): string {
  return reason.startsWith(subject) ? reason : `${subject}: ${reason}`;
}

const PINNED_NAMES: Record<RouteKind, string> = { 'local-secure': 'Secure LAN', local: 'LAN', remote: 'Remote' };

function toRouteOutcome({ route, outcome }: Selection['outcomes'][number]): RouteOutcome {
  const view: RouteOutcome = { kind: route.kind, outcome: outcome.status };
  if (outcome.status === 'answered') view.rttMs = outcome.rttMs;
  if (outcome.status === 'refused') view.reason = outcome.detail;
  if (route.namedHub !== undefined) view.heardAt = new URL(route.baseUrl).host;
  return view;
}
