import { describe, expect, it } from 'vitest';
import { parseAuthorisationResponse } from '../../../../../main/core/sign-in/authorisation-response';

describe('an authorisation response, from a deep link or the loopback callback', () => {
  it('keeps code, state, error and error_description (form-decoded), and drops iss', () => {
    expect(parseAuthorisationResponse('code=a%2Fb&state=s+1&iss=https%3A%2F%2Fcloud')).toEqual({ ok: true, params: { code: 'a/b', state: 's 1' } });
    expect(parseAuthorisationResponse('error=access_denied&error_description=No+thanks&state=s')).toEqual({
      ok: true,
      params: { error: 'access_denied', error_description: 'No thanks', state: 's' },
    });
  });

  it.each([
    ['', 'needs exactly one of code or error'],
    ['code=1&error=x', 'needs exactly one of code or error'],
    ['code=1&redirect_uri=x', 'unexpected parameter'],
    ['code=1&code=2', 'duplicated parameter'],
    ['code=', 'empty parameter'],
    ['code', 'malformed parameter'],
    ['=1', 'malformed parameter'],
    ['code=%E0%A4', 'malformed percent-encoding'],
    ['code=a%00b', 'parameter contains control characters'],
    [`code=${'x'.repeat(4097)}`, 'too long'],
  ])('refuses %j: %s', (query, reason) => {
    expect(parseAuthorisationResponse(query)).toEqual({ ok: false, reason });
  });
});
