/**
 * What a hub session may do, from the scopes the hub reports for it (GET session/me), in the terms the
 * renderer shows: may it control devices, may it read or start flows, and if not, why — in a sentence
 * that tells the user what to do about it.
 */
import type { HubPermissions } from '../../../common/ipc-contract';

/** A hub without session/me: assume everything is allowed and let a later 403 say otherwise. */
export const FULL_PERMISSIONS: HubPermissions = { control: true, flows: 'start' };

/** Why controls are off; also the message of a control call the hub refuses with 403. */
export const notAllowedToControl = (hubName: string): string => `Hubdesk has read-only access to ${hubName}, so its devices cannot be controlled from here.`;
/** Why flows cannot be started; also the message of a flow start the hub refuses with 403. */
export const notAllowedToStartFlows = (hubName: string): string => `Hubdesk may not start flows on ${hubName}: the access you granted does not include it.`;

export function permissionsFromScopes(scopes: readonly string[], hubName: string): HubPermissions {
  const has = new Set(scopes);
  const control = has.has('devices');
  const flows = has.has('flow.start') ? 'start' : has.has('flow.readonly') ? 'read' : 'none';
  const permissions: HubPermissions = { control, flows };
  if (!control) permissions.reason = notAllowedToControl(hubName);
  else if (flows !== 'start') permissions.reason = notAllowedToStartFlows(hubName);
  return permissions;
}
