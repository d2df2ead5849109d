/**
 * PKCE (RFC 7636) and the OAuth `state` value. The verifier is 32 random bytes in base64url, which
 * gives the 43 unreserved characters RFC 7636 §4.1 recommends; only S256 is ever used (§4.2).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

/** code_challenge = BASE64URL(SHA256(ASCII(code_verifier))), RFC 7636 §4.2. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable `state` binding a redirect to the sign-in that asked for it (RFC 6749 §10.12). */
export function createState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Compares two secrets in constant time. Both sides are hashed first so that neither the content
 * nor the length of the expected value leaks through timing.
 */
export function secretsEqual(expected: string, received: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(received).digest();
  return timingSafeEqual(a, b);
}
