/** Words for hubs and routes, shared by the hub list and the devices panel. */
import type { DeviceList, HubView, RouteKind, RouteOutcome } from '../../../common/ipc-contract';
import { formatAt } from './date-time';

const PLATFORM: Record<HubView['platform'], string> = { local: 'On your network', cloud: 'Cloud hub' };

const ROUTE: Record<RouteKind, string> = { 'local-secure': 'LAN (secure)', local: 'LAN (unencrypted)', remote: 'internet' };

/** The plain LAN route always says it is unencrypted: the session token crosses the LAN in the clear there. */
const ROUTE_NAME: Record<RouteKind, string> = { 'local-secure': 'Secure LAN', local: 'Unencrypted LAN', remote: 'Remote' };

/** Why a route was not the one in use, in the user's words. */
const NOT_TAKEN: Record<Exclude<RouteOutcome['outcome'], 'answered' | 'refused'>, string> = {
  'timed-out': 'no answer',
  'wrong-hub': 'another hub answers there',
  aborted: 'not needed',
  pending: 'still checking',
};

/** The choices of the route pin; `auto` lets the app choose. */
export const ROUTE_PIN_CHOICES: readonly { value: RouteKind | 'auto'; label: string }[] = [
  { value: 'auto', label: 'Automatic' },
  { value: 'local-secure', label: ROUTE_NAME['local-secure'] },
  { value: 'local', label: ROUTE_NAME.local },
  { value: 'remote', label: ROUTE_NAME.remote },
];

export function platformLabel(platform: HubView['platform']): string {
  return PLATFORM[platform] ?? 'Hub';
}

/** e.g. "Reachable over LAN (secure), internet"; says so when the hub has no address at all. */
export function routesLabel(routes: HubView['routes']): string {
  const available = (Object.keys(ROUTE) as RouteKind[]).filter((kind) => routes[kind]).map((kind) => ROUTE[kind]);
  return available.length > 0 ? `Reachable over ${available.join(', ')}` : 'No address known';
}

export function routeName(kind: RouteKind): string {
  return ROUTE_NAME[kind] ?? 'Unknown route';
}

/** e.g. "Secure LAN · 3 ms". */
export function routeInUseLabel(list: Pick<DeviceList, 'route' | 'rttMs'>): string {
  return `${routeName(list.route)} · ${Math.round(list.rttMs)} ms`;
}

/** e.g. "Unencrypted LAN: not needed", "Secure LAN: untrusted certificate", "Secure LAN heard at 10.0.0.5:8443: connection refused", "Remote: 170 ms". */
export function routeOutcomeLabel(outcome: RouteOutcome): string {
  const name = outcome.heardAt === undefined ? routeName(outcome.kind) : `${routeName(outcome.kind)} heard at ${outcome.heardAt}`;
  switch (outcome.outcome) {
    case 'answered':
      return `${name}: ${Math.round(outcome.rttMs ?? 0)} ms`;
    case 'refused':
      return `${name}: ${outcome.reason ?? 'refused'}`;
    case 'aborted':
    case 'pending':
    case 'timed-out':
    case 'wrong-hub':
      return `${name}: ${NOT_TAKEN[outcome.outcome] ?? outcome.outcome}`;
  }
}

/** Local time of day of an ISO timestamp (date-time.ts, made once: a formatter per call cost over half a second of a 1,000-device hub's first render), or null when it is not a date. */
export function formatFetchedAt(iso: string): string | null {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? null : formatAt(at, 'time');
}
