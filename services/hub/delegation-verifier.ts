/**
 * Checks a delegation token from the cloud (docs/interface.md §2.3) before the hub opens a session, with
 * the check the forwarder shares (services/shared/delegation-token.ts: ES256 only, signed by the cloud's
 * key, issuer, audience `hub`, not expired by the hub's clock, naming this hub, each `jti` accepted once),
 * and reads the scopes it grants.
 */
import { importJWK, type JWK } from 'jose';
import type { Scope } from '../../common/wire';
import { checkDelegationToken, MemoryReplayGuard, type ReplayGuard } from '../shared/delegation-token';
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

export async function createDelegationVerifier(options: {
  hubId: string;
  issuer: string;
  publicJwk: JWK;
  now: () => number;
  replayGuard?: ReplayGuard;
}): Promise<DelegationVerifier> {
  const key = await importJWK(options.publicJwk, 'ES256');
  if (key instanceof Uint8Array) throw new Error('the cloud key must be a public key, not a shared secret');
  const replays = options.replayGuard ?? new MemoryReplayGuard();

  return {
    async verify(token) {
      const checked = await checkDelegationToken(token, { key, issuer: options.issuer, hubId: options.hubId, now: options.now, replays });
      if (!checked.ok) return { ok: false, reason: checked.reason };
      const { sub, scope, client_id } = checked.claims;
      // Our names or the official client's (`homey.device.readonly`); unknown ones are ignored.
      const scopes = [
        ...new Set(
          scope
            .split(' ')
            .map(scopeNamed)
            .filter((s) => s !== undefined),
        ),
      ];
      return { ok: true, delegation: { userId: sub, scopes, clientId: client_id } };
    },
  };
}
