/**
 * Chooses the address to reach a hub by (docs/interface.md §2.2 order: local-secure, then local, then remote).
 * Every candidate is pinged at once, each with its own deadline, and the selection resolves with the
 * first route that is *acceptable* rather than waiting for better ones, so a dead route never costs
 * its whole deadline once an acceptable one answered:
 * - a route answered when the hub proved who it is there (the ping, route-trust.ts);
 * - an answered route is acceptable when every more preferred candidate has failed, or, for the remote
 *   route, when its grace has passed since probing started (200 ms by default);
 * - the plain LAN route carries the session token unencrypted, so it has no grace: it is taken only
 *   once every secure LAN route has failed or when there is none (docs/security.md, "Route trust");
 * - after resolving with a worse route the better ones keep probing until their deadline, and the
 *   caller hears of each one that answers (`onBetter`); probes that can no longer matter are aborted.
 * Candidates are the hub's addresses in its record (/user/me) and the secure LAN routes mDNS heard
 * for its id (`lanRoutes`).
 * The timing rules are written down in docs/decisions.md ("Route selection").
 */
import type { RouteKind } from '../../../common/ipc-contract';
import type { HubRecord } from '../../../common/wire';
import { type HubAddress, HUB_PING_TIMEOUT_MS, type PingOutcome } from './hub-client';
import { type Clock, realSchedule, type Schedule, systemClock } from '../shared';
import { errorMessage } from '../../../common/error-message';

export interface Route extends HubAddress {
  kind: RouteKind;
}

/** Why a route was or was not taken; `pending` only for better routes still probing after the choice. */
export type ProbeOutcome =
  | { status: 'answered'; rttMs: number }
  | { status: 'timed-out' }
  | { status: 'refused'; detail: string }
  | { status: 'wrong-hub' }
  | { status: 'aborted' }
  | { status: 'pending' };

export interface Selection {
  route: Route;
  rttMs: number;
  /** One entry per candidate, in order of preference, as known when this selection was made. */
  outcomes: { route: Route; outcome: ProbeOutcome }[];
}

export interface SelectOptions {
  /** Called when a more preferred route answers after the selection resolved (each time a better one does). */
  onBetter?: (better: Selection) => void;
  /** Stops every probe, including the ones still looking for a better route. */
  signal?: AbortSignal;
  /** Probe only routes of this kind (the user pinned it), whether from the record or from mDNS. */
  only?: RouteKind | null;
}

export interface RouteSelector {
  /** The first acceptable route, or null when none answered before its deadline. */
  select(hub: HubRecord, options?: SelectOptions): Promise<Selection | null>;
}

/** Asks the address whether the hub is there and proves it (route-trust.ts); `signal` ends the probe. */
export type Ping = (route: Route, hub: HubRecord, signal: AbortSignal) => Promise<PingOutcome>;

export interface RouteSelectorOptions {
  /** Deadline of each probe (default: the hub ping timeout). */
  deadlineMs?: number;
  /**
   * How long the remote route waits for a LAN one (default 200 ms, at most 250 ms). A LAN route that
   * has not answered by then is taken as missing; if it answers later, the session moves to it (onBetter).
   */
  remoteGraceMs?: number;
  /** The secure LAN routes announced over mDNS for a hub id (lan-directory.ts); none by default. */
  lanRoutes?: (hubId: string) => Route[];
  clock?: Clock;
  /** Timers of the deadlines and the grace; real timers by default. */
  schedule?: Schedule;
}

export const MAX_REMOTE_GRACE_MS = 250;
const DEFAULT_REMOTE_GRACE_MS = 200;

const PREFERENCE: readonly RouteKind[] = ['local-secure', 'local', 'remote'];

/** Whether tokens sent on this route travel in the clear (plain HTTP). */
export function isUnencrypted(route: HubAddress): boolean {
  return !route.baseUrl.startsWith('https:');
}

/** The more preferred of two routes (docs/interface.md §2.2 order); `a` when they are of the same kind. */
export function preferred(a: Route, b: Route): Route {
  return PREFERENCE.indexOf(b.kind) < PREFERENCE.indexOf(a.kind) ? b : a;
}

/**
 * The hub's addresses and the LAN routes heard for it, in order of preference (within a kind, the
 * record's address first, so an address the record gives is never treated as merely heard); only
 * http(s) addresses can be a route (https for the secure LAN one), and each address is probed once.
 */
export function candidateRoutes(hub: HubRecord, lanRoutes: readonly Route[] = []): Route[] {
  const addresses: [RouteKind, string | null | undefined][] = [
    ['local-secure', hub.localUrlSecure],
    ['local', hub.localUrl],
    ['remote', hub.remoteUrl],
  ];
  const recorded = addresses.flatMap(([kind, baseUrl]) => (baseUrl && schemeFits(kind, baseUrl) ? [{ kind, baseUrl }] : []));
  const all = [...recorded, ...lanRoutes].sort((a, b) => PREFERENCE.indexOf(a.kind) - PREFERENCE.indexOf(b.kind));
  return all.filter((route, index) => all.findIndex((other) => other.baseUrl === route.baseUrl) === index);
}

export function createParallelPingSelector(ping: Ping, options: RouteSelectorOptions = {}): RouteSelector {
  const { deadlineMs = HUB_PING_TIMEOUT_MS, clock = systemClock, schedule = realSchedule, lanRoutes = () => [] } = options;
  const remoteGraceMs = options.remoteGraceMs ?? DEFAULT_REMOTE_GRACE_MS;
  if (!(remoteGraceMs >= 0 && remoteGraceMs <= MAX_REMOTE_GRACE_MS)) throw new RangeError(`remoteGraceMs must be within 0..${MAX_REMOTE_GRACE_MS}`);
  if (!(deadlineMs > 0)) throw new RangeError('deadlineMs must be positive');

  return {
    select: (hub, { onBetter, signal, only = null } = {}) =>
      new Promise((resolve) => {
        const startedAt = clock.now();
        const probes = candidateRoutes(hub, lanRoutes(hub._id))
          .filter((route) => only === null || route.kind === only)
          .map((route): Probe => ({ route, outcome: { status: 'pending' }, probing: new AbortController(), stopDeadline: () => {} }));
        const timers: (() => void)[] = [];
        // Set by timers rather than compared with the clock, so a timer firing a millisecond early cannot strand a route.
        // The plain LAN route never stops waiting: it is taken only when no secure LAN route can answer.
        const waited: Record<RouteKind, boolean> = { 'local-secure': true, local: false, remote: false };
        /** Index of the route in use; `probes.length` until one is chosen. */
        let chosen = probes.length;
        let resolved = false;
        /** Set when the caller cancelled: late answers (and the aborts' own rejections) decide nothing. */
        let stopped = false;

        const settle = (probe: Probe, outcome: ProbeOutcome, abort: boolean) => {
          if (probe.outcome.status !== 'pending') return; // a late answer after a deadline or an abort
          probe.outcome = outcome;
          probe.stopDeadline();
          if (abort) probe.probing.abort();
        };
        const snapshot = (index: number): Selection => {
          const { route, outcome } = probes[index]!;
          return {
            route,
            rttMs: outcome.status === 'answered' ? outcome.rttMs : 0,
            outcomes: probes.map((probe) => ({ route: probe.route, outcome: probe.outcome })),
          };
        };
        const finish = (selection: Selection | null) => {
          if (resolved) return;
          resolved = true;
          resolve(selection);
        };
        const stopTimers = () => {
          for (const cancel of timers) cancel();
          signal?.removeEventListener('abort', stopAll);
        };
        function stopAll() {
          stopped = true;
          for (const probe of probes) settle(probe, { status: 'aborted' }, true);
          stopTimers();
          finish(null);
        }

        /** Re-evaluates after every probe result and grace timer. */
        const decide = () => {
          if (stopped) return;
          const acceptable = probes.findIndex(
            (probe, index) =>
              index < chosen &&
              probe.outcome.status === 'answered' &&
              (resolved || probes.slice(0, index).every((better) => better.outcome.status !== 'pending' || waited[probe.route.kind])),
          );
          if (acceptable !== -1) {
            chosen = acceptable;
            // Routes worse than the chosen one can no longer matter.
            probes.slice(chosen + 1).forEach((probe) => settle(probe, { status: 'aborted' }, true));
            if (resolved) onBetter?.(snapshot(chosen));
            else finish(snapshot(chosen));
          }
          const stillLooking = probes.slice(0, chosen).some((probe) => probe.outcome.status === 'pending');
          if (!stillLooking) {
            stopTimers();
            finish(null); // every candidate settled and none answered (no-op when already resolved)
          }
        };

        if (signal?.aborted) return stopAll();
        signal?.addEventListener('abort', stopAll, { once: true });
        for (const probe of probes) {
          probe.stopDeadline = schedule(() => {
            settle(probe, { status: 'timed-out' }, true);
            decide();
          }, deadlineMs);
          ping(probe.route, hub, probe.probing.signal).then(
            (answer) => {
              settle(probe, toOutcome(answer, clock.now() - startedAt), false);
              decide();
            },
            (error: unknown) => {
              settle(probe, { status: 'refused', detail: errorMessage(error) }, false);
              decide();
            },
          );
        }
        // The grace only matters while the remote route has answered and a LAN route is still silent.
        timers.push(
          schedule(() => {
            waited.remote = true;
            decide();
          }, remoteGraceMs),
        );
        decide(); // no candidates at all: null at once
      }),
  };
}

interface Probe {
  route: Route;
  outcome: ProbeOutcome;
  probing: AbortController;
  stopDeadline: () => void;
}

function toOutcome(answer: PingOutcome, rttMs: number): ProbeOutcome {
  switch (answer.kind) {
    case 'hub':
      return { status: 'answered', rttMs };
    case 'wrong-hub':
      return { status: 'wrong-hub' };
    case 'failed':
      return { status: 'refused', detail: answer.detail };
  }
}

/** Whether the address can be a route of this kind: http(s), and https for the one that calls itself secure. */
function schemeFits(kind: RouteKind, address: string): boolean {
  try {
    const { protocol } = new URL(address);
    return protocol === 'https:' || (protocol === 'http:' && kind !== 'local-secure');
  } catch {
    return false;
  }
}
