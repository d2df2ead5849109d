/** Words for hubs and routes, shared by the hub list and the devices panel. */
import type { HubView, RouteKind } from '../../../common/ipc-contract';

const PLATFORM: Record<HubView['platform'], string> = { local: 'On your network', cloud: 'Cloud hub' };

const ROUTE: Record<RouteKind, string> = { 'local-secure': 'LAN (secure)', local: 'LAN', remote: 'internet' };

const ROUTE_USED: Record<RouteKind, string> = {
  'local-secure': 'via LAN',
  local: 'via LAN (unencrypted)',
  remote: 'via cloud',
};

export function platformLabel(platform: HubView['platform']): string {
  return PLATFORM[platform] ?? 'Hub';
}

/** e.g. "Reachable over LAN (secure), internet"; says so when the hub has no address at all. */
export function routesLabel(routes: HubView['routes']): string {
  const available = (Object.keys(ROUTE) as RouteKind[]).filter((kind) => routes[kind]).map((kind) => ROUTE[kind]);
  return available.length > 0 ? `Reachable over ${available.join(', ')}` : 'No address known';
}

export function routeUsedLabel(route: RouteKind): string {
  return ROUTE_USED[route] ?? '';
}

/** Local time of day of an ISO timestamp, or null when it is not a date. */
export function formatFetchedAt(iso: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
