import { describe, expect, it } from 'vitest';
import { createPkcePair, createState, s256Challenge, secretsEqual } from '../../../../../main/core/sign-in/pkce';

describe('PKCE (RFC 7636)', () => {
  it('computes the S256 challenge of the Appendix B example', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('creates 43-character unreserved verifiers whose challenge matches', () => {
    const pairs = Array.from({ length: 50 }, createPkcePair);
    for (const { verifier, challenge } of pairs) {
      expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
      expect(challenge).toBe(s256Challenge(verifier));
    }
    expect(new Set(pairs.map((p) => p.verifier)).size).toBe(pairs.length);
  });

  it('creates unguessable, distinct states', () => {
    const states = new Set(Array.from({ length: 100 }, createState));
    expect(states.size).toBe(100);
    for (const state of states) expect(state.length).toBeGreaterThanOrEqual(43);
  });

  it('compares secrets exactly', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('abc', '')).toBe(false);
  });
});
