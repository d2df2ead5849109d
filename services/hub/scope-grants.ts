/**
 * What a hub's scopes grant: a wider scope implies its read-only one (`devices` → `devices.readonly`,
 * `flow.start` → `flow.readonly`). Read by the session checks (hub-access.ts, the realtime channels) and
 * by the official client's scope names (official-scopes.ts). Apart from hub-access.ts: that module
 * reaches official-scopes.ts through the sessions and the delegation check, so it cannot be imported
 * back from there.
 */
import type { Scope } from '../../common/wire';

/** The scope a wider one implies, keyed by the narrower: `devices` grants `devices.readonly`. */
export const IMPLIED_BY: Partial<Record<Scope, Scope>> = { 'devices.readonly': 'devices', 'flow.readonly': 'flow.start' };

/** Whether scopes granted to a session include `required`, directly or through a wider scope. */
export function grants(scopes: readonly Scope[], required: Scope): boolean {
  const wider = IMPLIED_BY[required];
  return scopes.includes(required) || (wider !== undefined && scopes.includes(wider));
}
