/**
 * What a hub session may do, from the scopes the hub reports for it (GET session/me), in the terms the
 * renderer shows: may it control devices, may it read or start flows, and if not, why — in a sentence
 * that tells the user what to do about it.
 */
import type { HubPermissions } from '../../common/ipc-contract';

/** A hub without session/me: assume everything is allowed and let a later 403 say otherwise. */
export const FULL_PERMISSIONS: HubPermissions = { control: true, flows: 'start' };

export function permissionsFromScopes(scopes: readonly string[], hubName: string): HubPermissions {
  const has = new Set(scopes);
  const control = has.has('devices');
  const flows = has.has('flow.start') ? 'start' : has.has('flow.readonly') ? 'read' : 'none';
  const permissions: HubPermissions = { control, flows };
  if (!control) permissions.reason = `Hubdesk has read-only access to ${hubName}: sign in with a client that may control devices.`;
  else if (flows !== 'start') permissions.reason = `Hubdesk may not start flows on ${hubName}: the access you granted does not include it.`;
  return permissions;
}
