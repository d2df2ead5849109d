import { describe, expect, it } from 'vitest';
import { type GrantSnapshot, GrantStore } from '../../../../services/cloud/grants';

const LIFETIMES = { accessTokenTtlSec: 3600, codeTtlSec: 30, refreshInactivitySec: 86_400 };
const REQUEST = { clientId: 'app', userId: 'u1', scopes: ['devices'] as const, redirectUri: 'app:/cb', codeChallenge: undefined };

/** A store whose every kept change is recorded, and a sign-in on it. */
function signedIn(now: () => number) {
  const kept: GrantSnapshot[] = [];
  const store = new GrantStore(LIFETIMES, now, { onChange: (snapshot) => kept.push(snapshot) });
  const result = store.redeemCode(store.issueCode(REQUEST), 'app', undefined, undefined);
  if (!result.ok) throw new Error(result.reason);
  return { store, kept, tokens: result.tokens };
}

describe('grants kept across a restart', () => {
  it('are told on a new grant, a rotation and a revocation, and hold hashes, never the tokens', () => {
    const { store, kept, tokens } = signedIn(() => 1_000);
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept[0])).not.toContain(tokens.accessToken);
    expect(JSON.stringify(kept[0])).not.toContain(tokens.refreshToken);
    store.authorise(tokens.accessToken);
    expect(kept).toHaveLength(1); // a call with the access token is no change to keep
    const rotated = store.refresh(tokens.refreshToken, 'app');
    expect(rotated.ok).toBe(true);
    expect(kept).toHaveLength(2);
    expect(store.refresh(tokens.refreshToken, 'app')).toMatchObject({ ok: false, revokedGrant: true });
    expect(kept).toHaveLength(3);
    expect(kept[2]).toEqual({ grants: [], accessTokens: [], refreshTokens: [] });
  });

  it('restored, the tokens work as before: the access token authorises, the refresh token rotates once, a replayed one revokes', () => {
    let now = 1_000;
    const { kept, tokens } = signedIn(() => now);
    const restored = new GrantStore(LIFETIMES, () => now, { restored: kept.at(-1), onChange: () => {} });
    expect(restored.authorise(tokens.accessToken)).toMatchObject({ clientId: 'app', userId: 'u1', scopes: ['devices'] });
    const rotated = restored.refresh(tokens.refreshToken, 'app');
    expect(rotated.ok).toBe(true);
    expect(restored.refresh(tokens.refreshToken, 'app')).toMatchObject({ ok: false, revokedGrant: true });
    if (rotated.ok) expect(restored.authorise(rotated.tokens.accessToken)).toBeUndefined(); // the grant is gone with all its tokens
    now += LIFETIMES.accessTokenTtlSec * 1000;
    expect(restored.snapshot().accessTokens).toEqual([]);
  });

  it('leave out access tokens that expired', () => {
    let now = 1_000;
    const { store } = signedIn(() => now);
    expect(store.snapshot().accessTokens).toHaveLength(1);
    now += LIFETIMES.accessTokenTtlSec * 1000;
    expect(store.snapshot().accessTokens).toEqual([]);
    expect(store.snapshot().refreshTokens).toHaveLength(1);
  });
});
