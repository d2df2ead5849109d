/**
 * Who may do what on the hub: the session behind a bearer token and the scopes it carries (a wider
 * scope implies its read-only one: scope-grants.ts).
 * Refusals are RFC 6750 errors with the WWW-Authenticate header the app reads.
 */
import type { FastifyRequest } from 'fastify';
import type { Scope } from '../../common/wire';
import { bearerToken } from '../shared/http-app';
import { HttpError } from '../shared/http-error';
import type { HubSession, HubSessionStore } from './hub-sessions';
import { grants } from './scope-grants';

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
