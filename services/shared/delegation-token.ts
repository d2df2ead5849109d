/**
 * Checks a delegation token from the cloud (docs/interface.md §2.3, §4.4): the one check shared by the hub,
 * which opens a session with it, and the forwarder, which binds a listener registration to a hub with it
 * (docs/security.md, "A listener's hub id is proven"). ES256 only, signed by the cloud's key, its issuer,
 * audience `hub`, not expired by the checker's clock, naming the hub in `hubs`, and never seen before:
 * each `jti` is accepted once, and remembered until the token expires.
 */
import { type CryptoKey, errors, type JWTVerifyGetKey, type JWTVerifyOptions, jwtVerify, type KeyObject } from 'jose';
import { z } from 'zod';

export const DelegationClaimsSchema = z.object({
  sub: z.string().min(1),
  jti: z.string().min(16).max(256),
  exp: z.number(),
  scope: z.string().max(1024),
  hubs: z.array(z.string()).max(1000),
  client_id: z.string().min(1),
});
export type CheckedDelegationClaims = z.infer<typeof DelegationClaimsSchema>;

/** `first`: accepted now; `replayed`: seen before; `full`: too many tokens remembered to take one more now. */
export type ReplayVerdict = 'first' | 'replayed' | 'full';

/** Where the accepted `jti`s are remembered (in memory, or in Redis for several forwarder instances). */
export interface ReplayGuard {
  /** Remembers `jti` until `exp` (seconds) unless it is remembered already. */
  accept(jti: string, exp: number, nowSec: number): ReplayVerdict | Promise<ReplayVerdict>;
}

/**
 * Tokens remembered at once: a token lives a minute (the cloud's `delegationTtlSec`), so this is about 170
 * checks a second, sustained, at most some 6 MB (a `jti` of up to 256 characters, two bytes each, and its entry).
 */
export const DEFAULT_MAX_REMEMBERED_TOKENS = 10_000;

/**
 * The accepted `jti`s in memory, until they expire, and at most `maxEntries` of them: past that a token is
 * refused as `full` (the caller says "try again"), never let through. A real hub keeps its guard across
 * restarts, so a token used before a restart or a move cannot be replayed.
 */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>(); // jti → exp (seconds), oldest first

  constructor(private readonly maxEntries = DEFAULT_MAX_REMEMBERED_TOKENS) {}

  get size(): number {
    return this.seen.size;
  }

  accept(jti: string, exp: number, nowSec: number): ReplayVerdict {
    this.forgetExpired(nowSec, false);
    if (this.seen.has(jti)) return 'replayed';
    if (this.seen.size >= this.maxEntries) this.forgetExpired(nowSec, true);
    if (this.seen.size >= this.maxEntries) return 'full';
    this.seen.set(jti, exp);
    return 'first';
  }

  /**
   * Tokens of one cloud expire in the order they were issued, so the expired ones are at the front: the
   * usual sweep stops at the first one still valid; `all` looks at every entry (only when the guard is full).
   */
  private forgetExpired(nowSec: number, all: boolean): void {
    for (const [jti, exp] of this.seen) {
      if (exp <= nowSec) this.seen.delete(jti);
      else if (!all) return;
    }
  }
}

export type DelegationCheck = { ok: true; claims: CheckedDelegationClaims } | { ok: false; reason: string; retryable: boolean };

export interface DelegationCheckOptions {
  /** The cloud's public key (a hub is given it), or a resolver of the cloud's key set (the forwarder fetches it). */
  key: KeyObject | CryptoKey | JWTVerifyGetKey;
  issuer: string;
  /** The hub the token must name in `hubs`. */
  hubId: string;
  /** Milliseconds since the epoch. */
  now: () => number;
  replays: ReplayGuard;
}

/**
 * Thrown by a key resolver that could not read the cloud's key set (down, slow, not a key set): the token
 * is not judged, and the caller says "try again" (a retryable refusal).
 */
export class KeySetUnavailable extends Error {}

/** Words for jose's error codes: close reasons and logs name what was wrong, never the token. */
const JOSE_REASONS: Readonly<Record<string, string>> = {
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the token's signature is not the cloud's",
  ERR_JWS_INVALID: 'not a signed token',
  ERR_JWT_INVALID: 'not a signed token',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token is not signed with ES256',
  ERR_JOSE_NOT_SUPPORTED: 'the token is not signed with ES256',
};

function refusalOf(error: unknown): { reason: string; retryable: boolean } {
  if (error instanceof errors.JWKSNoMatchingKey) return { reason: "no key of the cloud's matches the token (it may have new keys)", retryable: true };
  if (error instanceof errors.JWTClaimValidationFailed) return { reason: `the token's ${error.claim} claim is missing or wrong`, retryable: false };
  if (error instanceof errors.JOSEError) return { reason: JOSE_REASONS[error.code] ?? `the token is not valid (${error.code})`, retryable: false };
  if (error instanceof KeySetUnavailable) return { reason: "the cloud's keys could not be read", retryable: true };
  return { reason: 'the token could not be checked', retryable: false };
}

export async function checkDelegationToken(token: string, options: DelegationCheckOptions): Promise<DelegationCheck> {
  const verifyOptions: JWTVerifyOptions = {
    algorithms: ['ES256'],
    issuer: options.issuer,
    audience: 'hub',
    currentDate: new Date(options.now()),
    requiredClaims: ['sub', 'jti', 'exp', 'iat'],
  };
  const { key } = options;
  let payload: unknown;
  try {
    // The same call twice: jwtVerify's overloads take a key or a resolver, not a union of both.
    ({ payload } = typeof key === 'function' ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions));
  } catch (error) {
    return { ok: false, ...refusalOf(error) };
  }
  const claims = DelegationClaimsSchema.safeParse(payload);
  if (!claims.success) return { ok: false, reason: "the token's claims are malformed", retryable: false };
  if (!claims.data.hubs.includes(options.hubId)) return { ok: false, reason: 'the token is for another hub', retryable: false };
  let verdict: ReplayVerdict;
  try {
    verdict = await options.replays.accept(claims.data.jti, claims.data.exp, options.now() / 1000);
  } catch {
    return { ok: false, reason: 'used tokens cannot be looked up just now', retryable: true };
  }
  if (verdict === 'replayed') return { ok: false, reason: 'the token was used before', retryable: false };
  if (verdict === 'full') return { ok: false, reason: 'too many tokens in the last minute', retryable: true };
  return { ok: true, claims: claims.data };
}
