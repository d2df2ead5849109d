/**
 * Random credentials and how the services keep them: every code and token is 32 random bytes
 * (base64url) handed out once and stored only as its SHA-256 hash, so a leaked store holds nothing usable.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The key under which a credential is stored. High-entropy secrets need no salt or slow hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function matchesHash(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'utf8');
  const b = Buffer.from(storedHash, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Constant-time comparison of two secrets of any length (both hashed first, so no length leaks). */
export function secretsEqual(expected: string, presented: string): boolean {
  return matchesHash(presented, hashSecret(expected));
}
