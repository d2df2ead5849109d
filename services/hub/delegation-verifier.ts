/**
 * Checks a delegation token from the cloud (docs/interface.md §2.3) before the hub opens a session: ES256 only,
 * signed by the cloud's key, issuer, audience `hub`, not expired by the hub's clock, naming this hub,
 * and never seen before (each `jti` is accepted once; it is remembered until the token expires).
 */
import { errors, importJWK, type JWK, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Scope } from '../../common/wire';
import { scopeNamed } from './official-scopes';

export interface VerifiedDelegation {
  userId: string;
  scopes: Scope[];
  clientId: string;
}

export type VerifyResult = { ok: true; delegation: VerifiedDelegation } | { ok: false; reason: string };

export interface DelegationVerifier {
  verify(token: string): Promise<VerifyResult>;
}

const ClaimsSchema = z.object({
  sub: z.string().min(1),
  jti: z.string().min(16).max(256),
  exp: z.number(),
  scope: z.string().max(1024),
  hubs: z.array(z.string()).max(1000),
  client_id: z.string().min(1),
});

/**
 * The delegation tokens a hub has accepted, by `jti`, until they expire. It outlives one run of the hub
 * (a real hub keeps it across restarts), so a token used before a restart or a move cannot be replayed.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>(); // jti → exp (seconds)

  /** True the first time a jti is offered before its expiry; false for a replay. */
  accept(jti: string, exp: number, nowSec: number): boolean {
    for (const [id, expiry] of this.seen) if (expiry <= nowSec) this.seen.delete(id);
    if (this.seen.has(jti)) return false;
    this.seen.set(jti, exp);
    return true;
  }
}

export async function createDelegationVerifier(options: {
  hubId: string;
  issuer: string;
  publicJwk: JWK;
  now: () => number;
  replayGuard?: ReplayGuard;
}): Promise<DelegationVerifier> {
  const key = await importJWK(options.publicJwk, 'ES256');
  const replays = options.replayGuard ?? new ReplayGuard();

  return {
    async verify(token) {
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: ['ES256'],
          issuer: options.issuer,
          audience: 'hub',
          currentDate: new Date(options.now()),
          requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        }));
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JOSEError ? error.code : 'unverifiable token' };
      }
      const claims = ClaimsSchema.safeParse(payload);
      if (!claims.success) return { ok: false, reason: 'malformed claims' };
      const { sub, jti, exp, scope, hubs, client_id } = claims.data;
      if (!hubs.includes(options.hubId)) return { ok: false, reason: 'token is for another hub' };
      if (!replays.accept(jti, exp, options.now() / 1000)) return { ok: false, reason: 'token replayed' };
      // Our names or the official client's (`homey.device.readonly`); unknown ones are ignored.
      const scopes = [...new Set(scope.split(' ').map(scopeNamed).filter((s) => s !== undefined))];
      return { ok: true, delegation: { userId: sub, scopes, clientId: client_id } };
    },
  };
}
