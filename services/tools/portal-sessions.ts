/**
 * Browser sessions of the tools portal: a random id in an HttpOnly, SameSite=Lax cookie, and a CSRF
 * token that every form POST must carry. A session starts anonymous (so the sign-in form is protected
 * too) and is replaced by a new one on sign-in (no session fixation). Sessions expire after an hour
 * without use and their number is bounded; a session allows MAX_FAILED_SIGN_INS wrong passwords.
 */
import { randomToken, secretsEqual } from '../shared/secrets';

export const SESSION_TTL_MS = 60 * 60_000;
export const MAX_SESSIONS = 10_000;
export const MAX_FAILED_SIGN_INS = 5;

export interface PortalSession {
  readonly id: string;
  readonly csrf: string;
  readonly userId: string | undefined;
  expiresAt: number;
  failedSignIns: number;
}

export class PortalSessions {
  private readonly sessions = new Map<string, PortalSession>();

  constructor(private readonly now: () => number) {}

  /** The live session the cookie names (its lifetime extended), or undefined. */
  find(id: string | undefined): PortalSession | undefined {
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session || session.expiresAt <= this.now()) return undefined;
    session.expiresAt = this.now() + SESSION_TTL_MS;
    return session;
  }

  open(userId: string | undefined): PortalSession {
    this.prune();
    const session = { id: randomToken(), csrf: randomToken(), userId, expiresAt: this.now() + SESSION_TTL_MS, failedSignIns: 0 };
    this.sessions.set(session.id, session);
    return session;
  }

  end(session: PortalSession): void {
    this.sessions.delete(session.id);
  }

  csrfMatches(session: PortalSession, presented: string | undefined): boolean {
    return presented !== undefined && secretsEqual(session.csrf, presented);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
    for (const id of this.sessions.keys()) {
      if (this.sessions.size < MAX_SESSIONS) break;
      this.sessions.delete(id);
    }
  }
}
