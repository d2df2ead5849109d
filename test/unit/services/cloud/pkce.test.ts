import { describe, expect, it } from 'vitest';
import { isValidPkceValue, verifyS256 } from '../../../../services/cloud/pkce';

describe('PKCE S256 check', () => {
  it('accepts the RFC 7636 Appendix B example', () => {
    expect(verifyS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });

  it('rejects another verifier, and a verifier equal to the challenge (plain)', () => {
    expect(verifyS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXX', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifyS256('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
  });

  it('allows 43 to 128 unreserved characters only', () => {
    expect(isValidPkceValue('a'.repeat(43))).toBe(true);
    expect(isValidPkceValue('a'.repeat(128))).toBe(true);
    expect(isValidPkceValue('a'.repeat(42))).toBe(false);
    expect(isValidPkceValue('a'.repeat(129))).toBe(false);
    expect(isValidPkceValue(`${'a'.repeat(42)}~._-`.slice(0, 46))).toBe(true);
    expect(isValidPkceValue(`${'a'.repeat(42)}+`)).toBe(false);
  });
});
