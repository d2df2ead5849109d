/** PKCE checks of the authorisation server (RFC 7636). Only S256 is accepted: `plain` protects nothing. */
import { createHash } from 'node:crypto';
import { secretsEqual } from '../shared/secrets';

/** RFC 7636 §4.1/§4.2: 43 to 128 unreserved characters. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isValidPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/** True when BASE64URL(SHA256(ASCII(verifier))) equals the challenge (RFC 7636 §4.6). */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isValidPkceValue(verifier)) return false;
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return secretsEqual(challenge, computed);
}
