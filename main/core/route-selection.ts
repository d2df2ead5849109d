/**
 * Chooses the address to reach a hub by. For now: ping every known address in parallel and take the
 * most preferred that answers as this hub (spec §2.2: local-secure, then local, then remote). The
 * `RouteSelector` interface is what the rest of the core depends on, so a fuller prober (grace period
 * for the secure route, mDNS) can replace this without touching hub-sessions.
 */
import type { RouteKind } from '../../common/ipc-contract';
import type { HubRecord } from '../../common/wire';

export interface Route {
  kind: RouteKind;
  baseUrl: string;
}

export interface RouteSelector {
  /** The best route that answered, or null when none did. */
  select(hub: HubRecord): Promise<Route | null>;
}

export type Ping = (baseUrl: string, hubId: string, signal: AbortSignal) => Promise<boolean>;

/** The hub's addresses in order of preference; only http(s) addresses can be a route. */
export function candidateRoutes(hub: HubRecord): Route[] {
  const addresses: [RouteKind, string | null][] = [
    ['local-secure', hub.localUrlSecure],
    ['local', hub.localUrl],
    ['remote', hub.remoteUrl],
  ];
  return addresses.flatMap(([kind, baseUrl]) => (baseUrl !== null && isHttp(baseUrl) ? [{ kind, baseUrl }] : []));
}

export function createParallelPingSelector(ping: Ping): RouteSelector {
  return {
    async select(hub) {
      const probing = new AbortController();
      const candidates = candidateRoutes(hub).map((route) => ({
        route,
        answered: ping(route.baseUrl, hub._id, probing.signal).catch(() => false),
      }));
      try {
        // All probes run at once; awaiting them in preference order returns as soon as every
        // better route has failed and this one has answered.
        for (const candidate of candidates) {
          if (await candidate.answered) return candidate.route;
        }
        return null;
      } finally {
        probing.abort(); // the slower, less preferred probes are no longer needed
      }
    },
  };
}

function isHttp(address: string): boolean {
  try {
    const { protocol } = new URL(address);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
