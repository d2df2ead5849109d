/**
 * Signs delegation tokens (docs/interface.md §2.3) with an ES256 key pair made at start; hubs verify them with the
 * public key, published at /.well-known/jwks.json. Keys live only in memory: a restarted cloud has a
 * new key, and tokens live for a minute anyway.
 */
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { DelegationClaims } from '../../common/wire';
import { randomToken } from '../shared/secrets';

export interface DelegationSigner {
  publicJwk: JWK;
  sign(claims: Omit<DelegationClaims, 'iss' | 'aud' | 'iat' | 'exp' | 'jti'>): Promise<string>;
}

/** `issuer` is read at signing time: the cloud's URL is known only once it listens. */
export async function createDelegationSigner(issuer: () => string, ttlSec: number, now: () => number): Promise<DelegationSigner> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomToken().slice(0, 16);
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return {
    publicJwk,
    sign: ({ sub, scope, hubs, client_id }) => {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ scope, hubs, client_id })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuer(issuer())
        .setAudience('hub')
        .setSubject(sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSec)
        .setJti(randomToken())
        .sign(privateKey);
    },
  };
}
