/** Session tokens of a hub (docs/interface.md §2.4): random, stored only as hashes, with the user and scopes they carry. */
import type { Scope } from '../../common/wire';
import { hashSecret, randomToken } from '../shared/secrets';
import type { VerifiedDelegation } from './delegation-verifier';

export interface HubSession {
  userId: string;
  scopes: readonly Scope[];
  expiresAt: number;
}

export class HubSessionStore {
  private readonly sessions = new Map<string, HubSession>();

  constructor(
    private readonly ttlSec: number,
    private readonly now: () => number,
  ) {}

  open(delegation: VerifiedDelegation): string {
    const now = this.now();
    for (const [hash, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(hash);
    const token = randomToken();
    this.sessions.set(hashSecret(token), { userId: delegation.userId, scopes: delegation.scopes, expiresAt: now + this.ttlSec * 1000 });
    return token;
  }

  find(token: string): HubSession | undefined {
    const session = this.sessions.get(hashSecret(token));
    return session && session.expiresAt > this.now() ? session : undefined;
  }

  /** Ends one session (its client logged out). */
  end(token: string): void {
    this.sessions.delete(hashSecret(token));
  }

  /** Ends every session (tests, and a hub that restarts). */
  clear(): void {
    this.sessions.clear();
  }
}
