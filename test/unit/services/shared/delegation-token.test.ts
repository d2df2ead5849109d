import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDelegationToken, type DelegationCheckOptions, KeySetUnavailable, MemoryReplayGuard } from '../../../../services/shared/delegation-token';

const ISSUER = 'http://127.0.0.1:4000';
const NOW = 1_800_000_000_000;
const nowSec = NOW / 1000;
let cloudKey: Awaited<ReturnType<typeof generateKeyPair>>;
let otherKey: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  cloudKey = await generateKeyPair('ES256');
  otherKey = await generateKeyPair('ES256');
});

let jtis = 0;
/** A token as the cloud signs one (services/cloud/delegation-signer.ts), with `changes` on top. */
async function token(changes: { claims?: JWTPayload; key?: CryptoKey; alg?: string; omit?: string[] } = {}): Promise<string> {
  const claims: JWTPayload = {
    iss: ISSUER,
    aud: 'hub',
    sub: 'user-1',
    iat: nowSec,
    exp: nowSec + 60,
    jti: `jti-${String(++jtis).padStart(16, '0')}`,
    scope: 'devices',
    hubs: ['hub-1'],
    client_id: 'app',
    ...changes.claims,
  };
  for (const name of changes.omit ?? []) delete claims[name];
  return new SignJWT(claims).setProtectedHeader({ alg: changes.alg ?? 'ES256', kid: 'k1' }).sign(changes.key ?? cloudKey.privateKey);
}

const options = (overrides: Partial<DelegationCheckOptions> = {}): DelegationCheckOptions => ({
  key: cloudKey.publicKey,
  issuer: ISSUER,
  hubId: 'hub-1',
  now: () => NOW,
  replays: new MemoryReplayGuard(),
  ...overrides,
});

describe('checkDelegationToken', () => {
  it("accepts the cloud's token for the hub once, with its claims", async () => {
    const replays = new MemoryReplayGuard();
    const good = await token();
    expect(await checkDelegationToken(good, options({ replays }))).toEqual({
      ok: true,
      claims: expect.objectContaining({ sub: 'user-1', hubs: ['hub-1'], scope: 'devices', client_id: 'app' }),
    });
    expect(await checkDelegationToken(good, options({ replays }))).toEqual({ ok: false, reason: 'the token was used before', retryable: false });
  });

  it('refuses, for good, a malformed, expired, wrongly signed, wrong-audience, wrong-issuer or other-hub token', async () => {
    const cases: [string, string | Promise<string>, string][] = [
      ['malformed', 'not.a-token', 'not a signed token'],
      ['empty', '', 'not a signed token'],
      ['expired', token({ claims: { exp: nowSec - 1 } }), 'the token has expired'],
      ['another key', token({ key: otherKey.privateKey }), "the token's signature is not the cloud's"],
      ['audience', token({ claims: { aud: 'forwarder' } }), "the token's aud claim is missing or wrong"],
      ['issuer', token({ claims: { iss: 'https://elsewhere.example' } }), "the token's iss claim is missing or wrong"],
      ['no jti', token({ omit: ['jti'] }), "the token's jti claim is missing or wrong"],
      ['hubs without the hub', token({ claims: { hubs: ['hub-2'] } }), 'the token is for another hub'],
      ['hubs not a list', token({ claims: { hubs: 'hub-1' } }), "the token's claims are malformed"],
    ];
    for (const [name, text, reason] of cases) {
      expect(await checkDelegationToken(await text, options()), name).toEqual({ ok: false, reason, retryable: false });
    }
  });

  it('refuses a token signed with another algorithm (HS256 with the public key as secret is the classic)', async () => {
    const raw = new TextEncoder().encode(JSON.stringify(await exportJWK(cloudKey.publicKey)));
    const forged = await new SignJWT({
      iss: ISSUER,
      aud: 'hub',
      sub: 'u',
      iat: nowSec,
      exp: nowSec + 60,
      jti: 'j'.repeat(16),
      scope: '',
      hubs: ['hub-1'],
      client_id: 'c',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(raw);
    expect(await checkDelegationToken(forged, options())).toMatchObject({ ok: false, retryable: false, reason: 'the token is not signed with ES256' });
  });

  it('says "try again" when the key set cannot be read or used tokens cannot be looked up, and judges nothing', async () => {
    const unreadable = async () => {
      throw new KeySetUnavailable('down');
    };
    expect(await checkDelegationToken(await token(), options({ key: unreadable }))).toEqual({
      ok: false,
      reason: "the cloud's keys could not be read",
      retryable: true,
    });
    const broken = { accept: async () => Promise.reject(new Error('Redis is away')) };
    expect(await checkDelegationToken(await token(), options({ replays: broken }))).toEqual({
      ok: false,
      reason: 'used tokens cannot be looked up just now',
      retryable: true,
    });
  });
});

describe('MemoryReplayGuard', () => {
  it('remembers a jti until it expires, then forgets it', () => {
    const guard = new MemoryReplayGuard();
    expect(guard.accept('a', 100, 50)).toBe('first');
    expect(guard.accept('a', 100, 99)).toBe('replayed');
    expect(guard.accept('b', 200, 100)).toBe('first'); // 'a' expired at 100
    expect(guard.size).toBe(1);
    expect(guard.accept('a', 300, 150)).toBe('first');
  });

  it('holds at most maxEntries: a full guard refuses (never lets a token through) until entries expire', () => {
    const guard = new MemoryReplayGuard(3);
    for (const jti of ['a', 'b', 'c']) expect(guard.accept(jti, 100 + jti.charCodeAt(0), 0)).toBe('first');
    expect(guard.accept('d', 200, 0)).toBe('full');
    expect(guard.accept('a', 200, 0)).toBe('replayed');
    expect(guard.size).toBe(3);
    // Out of issue order: 'b' expires while 'a' before it has not; a full guard looks at every entry.
    const mixed = new MemoryReplayGuard(2);
    mixed.accept('late', 500, 0);
    mixed.accept('early', 10, 0);
    expect(mixed.accept('new', 600, 20)).toBe('first');
    expect(mixed.accept('early', 600, 20)).toBe('full');
  });
});
