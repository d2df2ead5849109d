/**
 * Signs delegation tokens (docs/interface.md §2.3) with an ES256 key pair; hubs verify them with the
 * public key, published at /.well-known/jwks.json. The key is made at start and lives in memory, unless
 * the stack keeps it in its state directory (docs/services.md, "Keeping state across a restart"), as a
 * real cloud keeps its signing key across restarts.
 */
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { z } from 'zod';
import type { DelegationClaims } from '../../common/wire';
import { randomToken } from '../shared/secrets';

const Base64UrlSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/** The private half (a P-256 JWK) and its key id, as kept in the stack's state directory. */
export const SigningKeySchema = z
  .object({
    kid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    privateJwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: Base64UrlSchema, y: Base64UrlSchema, d: Base64UrlSchema }).strict(),
  })
  .strict();
export type SigningKey = z.infer<typeof SigningKeySchema>;

export interface DelegationSigner {
  publicJwk: JWK;
  sign(claims: Omit<DelegationClaims, 'iss' | 'aud' | 'iat' | 'exp' | 'jti'>): Promise<string>;
}

export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { x, y, d } = await exportJWK(privateKey);
  return { kid: randomToken().slice(0, 16), privateJwk: { kty: 'EC', crv: 'P-256', x: x!, y: y!, d: d! } };
}

/** `issuer` is read at signing time: the cloud's URL is known only once it listens. `key`: a kept one; a new one without. */
export async function createDelegationSigner(issuer: () => string, ttlSec: number, now: () => number, key?: SigningKey): Promise<DelegationSigner> {
  const { kid, privateJwk } = key ?? (await generateSigningKey());
  const privateKey = await importJWK({ ...privateJwk, alg: 'ES256' }, 'ES256');
  const { d: _private, ...publicHalf } = privateJwk;
  const publicJwk: JWK = { ...publicHalf, kid, alg: 'ES256', use: 'sig' };
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
