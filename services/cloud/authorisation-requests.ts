/**
 * Server-side state of the consent pages. A pending authorisation request (validated query of
 * GET /oauth2/authorise) is kept here and named by a random id in a hidden field; it is bound to the
 * browser's login session (a random id in an HttpOnly, SameSite=Lax cookie), whose CSRF token must
 * come back with every POST. Both expire, and their number is bounded so a flood of page loads
 * cannot grow memory without limit.
 */
import type { Scope } from '../../common/wire';
import { randomToken, secretsEqual } from '../shared/secrets';

export const REQUEST_TTL_MS = 10 * 60_000;
export const MAX_PENDING = 10_000;
/** Wrong passwords allowed per request before it is dropped (the user starts again from the app). */
export const MAX_LOGIN_ATTEMPTS = 5;

export interface AuthorisationRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  scopes: readonly Scope[];
}

export interface PendingRequest extends AuthorisationRequest {
  id: string;
  sessionId: string;
  expiresAt: number;
  failedLogins: number;
  /** Set once the user signed in on this request; consent needs it. */
  userId: string | undefined;
}

export interface LoginSession {
  id: string;
  csrf: string;
  expiresAt: number;
}

export class AuthorisationRequests {
  private readonly sessions = new Map<string, LoginSession>();
  private readonly pending = new Map<string, PendingRequest>();

  constructor(private readonly now: () => number) {}

  /** The browser's session when its cookie names a live one, otherwise a new one. */
  session(cookieValue: string | undefined): LoginSession {
    const existing = cookieValue === undefined ? undefined : this.liveSession(cookieValue);
    if (existing) {
      existing.expiresAt = this.now() + REQUEST_TTL_MS;
      return existing;
    }
    prune(this.sessions, this.now());
    const session = { id: randomToken(), csrf: randomToken(), expiresAt: this.now() + REQUEST_TTL_MS };
    this.sessions.set(session.id, session);
    return session;
  }

  open(request: AuthorisationRequest, session: LoginSession): PendingRequest {
    prune(this.pending, this.now());
    const pending: PendingRequest = {
      ...request,
      id: randomToken(),
      sessionId: session.id,
      expiresAt: this.now() + REQUEST_TTL_MS,
      failedLogins: 0,
      userId: undefined,
    };
    this.pending.set(pending.id, pending);
    return pending;
  }

  /**
   * The pending request a form POST continues, provided the cookie's session is live, the request
   * belongs to it, and the CSRF token matches. Undefined otherwise.
   */
  continue(
    requestId: string | undefined,
    cookieValue: string | undefined,
    csrf: string | undefined,
  ): { request: PendingRequest; session: LoginSession } | undefined {
    const session = cookieValue === undefined ? undefined : this.liveSession(cookieValue);
    const request = requestId === undefined ? undefined : this.pending.get(requestId);
    if (!session || !request || csrf === undefined) return undefined;
    if (request.expiresAt <= this.now() || request.sessionId !== session.id || !secretsEqual(session.csrf, csrf)) return undefined;
    return { request, session };
  }

  /** Counts a wrong password; returns false when the request has been dropped for too many. */
  failedLogin(request: PendingRequest): boolean {
    request.failedLogins++;
    if (request.failedLogins < MAX_LOGIN_ATTEMPTS) return true;
    this.pending.delete(request.id);
    return false;
  }

  /** Ends a request: consent is given or refused once. */
  close(request: PendingRequest): void {
    this.pending.delete(request.id);
  }

  private liveSession(id: string): LoginSession | undefined {
    const session = this.sessions.get(id);
    return session && session.expiresAt > this.now() ? session : undefined;
  }
}

/** Drops expired entries, then the oldest ones while over the bound (maps keep insertion order). */
function prune<T extends { expiresAt: number }>(map: Map<string, T>, now: number): void {
  for (const [key, value] of map) if (value.expiresAt <= now) map.delete(key);
  for (const key of map.keys()) {
    if (map.size < MAX_PENDING) break;
    map.delete(key);
  }
}
