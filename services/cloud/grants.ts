/**
 * What the user allowed, and the credentials that carry it. A grant is born when a code is redeemed;
 * its access and refresh tokens hang off it, so revoking the grant ends every one of them. Codes and
 * tokens are stored only as SHA-256 hashes.
 *
 * Reuse rules (RFC 6749 §4.1.2, OAuth 2.0 Security BCP §4.14): a code is presented once — a second
 * presentation fails and revokes the grant the first one created; a refresh token is used once — each
 * refresh rotates it, and presenting a rotated one revokes the whole grant.
 *
 * Grants and their tokens can be kept across a restart (docs/services.md, "Keeping state across a
 * restart"): `snapshot` gives them, hashes only, and `persistence.onChange` is told after every change a
 * client must not lose (a new grant, a rotation, a revocation) before the answer leaves. Codes are not
 * kept: they live for seconds.
 */
import { z } from 'zod';
import { type Scope, SCOPES } from '../../common/wire';
import { hashSecret, randomToken } from '../shared/secrets';
import { verifyS256 } from './pkce';

export interface GrantLifetimes {
  accessTokenTtlSec: number;
  codeTtlSec: number;
  refreshInactivitySec: number;
}

export interface CodeRequest {
  clientId: string;
  userId: string;
  scopes: readonly Scope[];
  redirectUri: string;
  /** S256 challenge, when the client sent one. */
  codeChallenge: string | undefined;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
}

/** Who an access token speaks for. */
export interface Authorisation {
  grantId: string;
  clientId: string;
  userId: string;
  scopes: readonly Scope[];
}

export type GrantResult = { ok: true; tokens: IssuedTokens } | { ok: false; reason: string; revokedGrant?: boolean };

interface StoredCode extends CodeRequest {
  expiresAt: number;
  /** Set once the code has been presented; the grant it created, if any, lives in `grantId`. */
  presented: boolean;
  grantId: string | undefined;
}

const HashSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/); // SHA-256, base64url
const IdSchema = z.string().min(1).max(256);
const TimeSchema = z.number().int().nonnegative();

/** Grants and their tokens as kept on disk: SHA-256 hashes of the tokens, never the tokens. */
export const GrantSnapshotSchema = z
  .object({
    grants: z.array(z.object({ grantId: IdSchema, clientId: IdSchema, userId: IdSchema, scopes: z.array(z.enum(SCOPES)), lastUsedAt: TimeSchema }).strict()),
    accessTokens: z.array(z.object({ hash: HashSchema, grantId: IdSchema, expiresAt: TimeSchema }).strict()),
    refreshTokens: z.array(z.object({ hash: HashSchema, grantId: IdSchema, current: z.boolean() }).strict()),
  })
  .strict();
export type GrantSnapshot = z.infer<typeof GrantSnapshotSchema>;

export interface GrantPersistence {
  /** What a previous run kept. */
  restored?: GrantSnapshot;
  /** Told synchronously after every change to keep. */
  onChange(snapshot: GrantSnapshot): void;
}

interface Grant extends Authorisation {
  lastUsedAt: number;
}

interface StoredRefreshToken {
  grantId: string;
  /** False once rotated: presenting it again is the theft signal. */
  current: boolean;
}

export class GrantStore {
  private readonly codes = new Map<string, StoredCode>();
  private readonly grants = new Map<string, Grant>();
  private readonly accessTokens = new Map<string, { grantId: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, StoredRefreshToken>();

  constructor(
    private readonly lifetimes: GrantLifetimes,
    private readonly now: () => number,
    private readonly persistence?: GrantPersistence,
  ) {
    const restored = persistence?.restored;
    if (!restored) return;
    for (const { scopes, ...grant } of restored.grants) this.grants.set(grant.grantId, { ...grant, scopes: [...scopes] });
    for (const { hash, ...token } of restored.accessTokens) this.accessTokens.set(hash, token);
    for (const { hash, ...token } of restored.refreshTokens) this.refreshTokens.set(hash, token);
  }

  /** Every grant and token the store holds (tokens as hashes), access tokens that expired left out. */
  snapshot(): GrantSnapshot {
    const now = this.now();
    return {
      grants: [...this.grants.values()].map(({ grantId, clientId, userId, scopes, lastUsedAt }) => ({
        grantId,
        clientId,
        userId,
        scopes: [...scopes],
        lastUsedAt,
      })),
      accessTokens: [...this.accessTokens].filter(([, token]) => now < token.expiresAt).map(([hash, token]) => ({ hash, ...token })),
      refreshTokens: [...this.refreshTokens].map(([hash, token]) => ({ hash, ...token })),
    };
  }

  issueCode(request: CodeRequest): string {
    this.pruneCodes();
    const code = randomToken();
    this.codes.set(hashSecret(code), { ...request, expiresAt: this.now() + this.lifetimes.codeTtlSec * 1000, presented: false, grantId: undefined });
    return code;
  }

  redeemCode(code: string, clientId: string, verifier: string | undefined, redirectUri: string | undefined): GrantResult {
    const stored = this.codes.get(hashSecret(code));
    if (!stored || stored.clientId !== clientId) return { ok: false, reason: 'The authorization code is not valid.' };
    if (stored.presented) {
      const revokedGrant = stored.grantId !== undefined && this.revoke(stored.grantId);
      return { ok: false, reason: 'The authorization code was already used.', revokedGrant };
    }
    stored.presented = true; // one presentation, whatever its outcome
    if (this.now() >= stored.expiresAt) return { ok: false, reason: 'The authorization code has expired.' };
    // RFC 6749 §4.1.3. A mismatch has consumed the code (above), like every other failed presentation:
    // a code offered with a foreign redirect URI is likely stolen, so its rightful client must start
    // again rather than race the thief. An absent redirect_uri is accepted (the interface's exchange
    // sends none); PKCE or the client secret binds the code to its client.
    if (redirectUri !== undefined && redirectUri !== stored.redirectUri) return { ok: false, reason: 'redirect_uri does not match the authorisation request.' };
    if (stored.codeChallenge !== undefined) {
      if (verifier === undefined) return { ok: false, reason: 'code_verifier is required for this code.' };
      if (!verifyS256(verifier, stored.codeChallenge)) return { ok: false, reason: 'code_verifier does not match the code challenge.' };
    }
    const grantId = randomToken();
    this.grants.set(grantId, { grantId, clientId, userId: stored.userId, scopes: stored.scopes, lastUsedAt: this.now() });
    stored.grantId = grantId;
    const tokens = this.issueTokens(grantId);
    this.changed();
    return { ok: true, tokens };
  }

  refresh(refreshToken: string, clientId: string): GrantResult {
    const stored = this.refreshTokens.get(hashSecret(refreshToken));
    const grant = stored && this.grants.get(stored.grantId);
    if (!stored || !grant || grant.clientId !== clientId) return { ok: false, reason: 'The refresh token is not valid.' };
    if (!stored.current) {
      this.revoke(grant.grantId);
      return { ok: false, reason: 'The refresh token was already used; the grant has been revoked.', revokedGrant: true };
    }
    if (this.now() - grant.lastUsedAt > this.lifetimes.refreshInactivitySec * 1000) {
      this.revoke(grant.grantId);
      return { ok: false, reason: 'The grant expired after a long time without use.', revokedGrant: true };
    }
    stored.current = false;
    grant.lastUsedAt = this.now();
    const tokens = this.issueTokens(grant.grantId);
    this.changed();
    return { ok: true, tokens };
  }

  /** The authorisation behind a live access token, or undefined (unknown, expired or revoked). */
  authorise(accessToken: string): Authorisation | undefined {
    const stored = this.accessTokens.get(hashSecret(accessToken));
    const grant = stored && this.grants.get(stored.grantId);
    if (!stored || !grant) return undefined;
    if (this.now() >= stored.expiresAt) {
      this.accessTokens.delete(hashSecret(accessToken));
      return undefined;
    }
    grant.lastUsedAt = this.now(); // an API call keeps the refresh token alive (docs/interface.md §5.5)
    const { grantId, clientId, userId, scopes } = grant;
    return { grantId, clientId, userId, scopes };
  }

  /** Ends a grant and every token issued under it. Returns whether it was live. */
  revoke(grantId: string): boolean {
    const existed = this.grants.delete(grantId);
    for (const [hash, token] of this.accessTokens) if (token.grantId === grantId) this.accessTokens.delete(hash);
    for (const [hash, token] of this.refreshTokens) if (token.grantId === grantId) this.refreshTokens.delete(hash);
    if (existed) this.changed();
    return existed;
  }

  private changed(): void {
    this.persistence?.onChange(this.snapshot());
  }

  private issueTokens(grantId: string): IssuedTokens {
    const accessToken = randomToken();
    const refreshToken = randomToken();
    this.accessTokens.set(hashSecret(accessToken), { grantId, expiresAt: this.now() + this.lifetimes.accessTokenTtlSec * 1000 });
    this.refreshTokens.set(hashSecret(refreshToken), { grantId, current: true });
    return { accessToken, refreshToken };
  }

  /**
   * Forgets codes that can no longer matter: expired ones never presented. Presented codes are kept
   * while their grant lives, so a late replay still revokes it.
   */
  private pruneCodes(): void {
    const now = this.now();
    for (const [hash, code] of this.codes) {
      const live = code.presented ? code.grantId !== undefined && this.grants.has(code.grantId) : now < code.expiresAt;
      if (!live) this.codes.delete(hash);
    }
  }
}
