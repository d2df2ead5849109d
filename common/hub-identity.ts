/**
 * How a hub proves who it is before the app sends it any credential (docs/security.md, "Route
 * trust"). The cloud publishes each hub's public key in its record (`identityKey`, an Ed25519 JWK);
 * the app pings an address with a fresh random nonce, and the hub answers with its id and a signature
 * over both. A device that is not the hub (an mDNS impostor, whoever now answers at a stale address)
 * cannot produce that signature, so it never gets a delegation or session token.
 *
 * Shared by the reference hub (signing) and the app core (verifying); Node only (node:crypto).
 */
import { createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { z } from 'zod';
import type { HubIdentityKey } from './wire';

/** The query parameter of the ping that carries the client's nonce. */
export const PING_NONCE_PARAM = 'nonce';

/** 32 random bytes, base64url without padding: 43 characters. A hub accepts 16..128 such characters. */
export const PingNonceSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'nonce must be 16 to 128 base64url characters');

/** The hub's answer to a ping with a nonce. */
export const PingProofSchema = z.object({
  id: z.string().min(1).max(200),
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'signature must be a 64-byte base64url value'),
});
export type PingProof = z.infer<typeof PingProofSchema>;

export function newPingNonce(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is signed: a fixed context string (so the signature means nothing in any other protocol), the
 * hub's id and the client's nonce, each on its own line (neither can hold a newline: ids are printable
 * ASCII without spaces in the app's checks, nonces base64url).
 */
function signedBytes(hubId: string, nonce: string): Buffer {
  return Buffer.from(`hubdesk-hub-ping-v1\n${hubId}\n${nonce}`, 'utf8');
}

export function signPing(privateKey: KeyObject, hubId: string, nonce: string): PingProof {
  return { id: hubId, signature: sign(null, signedBytes(hubId, nonce), privateKey).toString('base64url') };
}

/** True only when `proof` is the hub's signature over its id and this nonce, made with the key the cloud published. */
export function verifyPing(key: HubIdentityKey, hubId: string, nonce: string, proof: PingProof): boolean {
  if (proof.id !== hubId) return false;
  try {
    const publicKey = createPublicKey({ key, format: 'jwk' });
    return verify(null, signedBytes(hubId, nonce), publicKey, Buffer.from(proof.signature, 'base64url'));
  } catch {
    return false; // a key Node cannot import proves nothing
  }
}

/** The name a hub's TLS certificate carries (a URI subject alternative name) to say which hub it is. */
export function hubCertificateName(hubId: string): string {
  return `urn:hubdesk:hub:${encodeURIComponent(hubId)}`;
}
