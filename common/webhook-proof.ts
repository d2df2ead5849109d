/**
 * The listener channel's proof of a secret (common/webhook-protocol.ts): `hex(HMAC-SHA256(secret,
 * nonce))` over the server's fresh challenge, so the secret itself never crosses the wire. One
 * definition for both credential kinds (the webhook secret of a listener, a tap credential's secret)
 * and both sides (the app and test clients make proofs, the reference forwarder checks them).
 * Node only (node:crypto).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function proofFor(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(nonce).digest('hex');
}

/**
 * Constant time: a proof that matches in its first bytes must not answer faster than one that does
 * not. The protocol's schema allows only 64 hex digits, so both sides are 32 bytes; anything else is
 * refused before the comparison (timingSafeEqual throws on a length mismatch).
 */
export function proofMatches(secret: string, nonce: string, proof: string): boolean {
  const presented = /^[0-9a-f]{64}$/.test(proof) ? Buffer.from(proof, 'hex') : undefined;
  return presented !== undefined && timingSafeEqual(Buffer.from(proofFor(secret, nonce), 'hex'), presented);
}
