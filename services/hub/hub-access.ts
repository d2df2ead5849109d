/**
 * Who may do what on the hub: the session behind a bearer token and the scopes it carries. A wider
 * scope implies its read-only one (`devices` → `devices.readonly`, `flow.start` → `flow.readonly`).
 * Refusals are RFC 6750 errors with the WWW-Authenticate header the app reads.
 */
import type { FastifyRequest } from 'fastify';
import type { Scope } from '../../common/wire';
import { bearerToken } from '../shared/http-app';
import { HttpError } from '../shared/http-error';
import type { HubSession, HubSessionStore } from './hub-sessions';

/** The scope a wider one implies, keyed by the narrower: `devices` grants `devices.readonly`. */
export const IMPLIED_BY: Partial<Record<Scope, Scope>> = { 'devices.readonly': 'devices', 'flow.readonly': 'flow.start' };

/** Whether scopes granted to a session include `required`, directly or through a wider scope. */
export function grants(scopes: readonly Scope[], required: Scope): boolean {
  const wider = IMPLIED_BY[required];
  return scopes.includes(required) || (wider !== undefined && scopes.includes(wider));
}

/** The request's session, or a 401; with `required`, a 403 when the session lacks that scope. */
export function authorise(sessions: HubSessionStore, request: FastifyRequest, required?: Scope): HubSession {
  const token = bearerToken(request);
  const session = token === undefined ? undefined : sessions.find(token);
  if (!session) {
    throw new HttpError(401, 'invalid_token', 'The session is missing, invalid or expired.', {
      'www-authenticate': `Bearer realm="hub"${token === undefined ? '' : ', error="invalid_token"'}`,
    });
  }
  if (required !== undefined && !grants(session.scopes, required)) {
    throw new HttpError(403, 'insufficient_scope', `The ${required} scope is required.`, {
      'www-authenticate': `Bearer realm="hub", error="insufficient_scope", scope="${required}"`,
    });
  }
  return session;
}
