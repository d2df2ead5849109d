/**
 * How long ago something happened, as people say it beside a value: "just now" under a minute, then
 * "2 min ago", "3 h ago", "2 days ago" (docs/hub-realtime.md, "While the open hub is not live"). Whole
 * units, rounded down, so a label never claims a value is fresher than it is. A time ahead of `now`
 * (another clock a little ahead) is "just now".
 */
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export function formatAgo(at: number, now: number): string {
  const elapsed = now - at;
  if (!Number.isFinite(elapsed) || elapsed < MINUTE_MS) return 'just now';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)} min ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)} h ago`;
  const days = Math.floor(elapsed / DAY_MS);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** When a shown value was last known to be the hub's: its own time or, later, the last moment the whole view was (`confirmedAt`, epoch ms); null when neither is known. */
export function lastConfirmed(lastUpdated: string | null, confirmedAt: number | null): number | null {
  const own = lastUpdated === null ? Number.NaN : Date.parse(lastUpdated);
  if (Number.isNaN(own)) return confirmedAt;
  return confirmedAt === null ? own : Math.max(own, confirmedAt);
}
