/**
 * Calls to the cloud API with the user's access token (docs/interface.md §4.3, §4.4). A 401 means the access
 * token ran out: concurrent 401s share one refresh (single flight), then each call is retried once.
 * A refresh the cloud refuses ends the session; a refresh that gets no answer loses nothing.
 */
import { AppError } from '../../../common/app-error';
import { JsonStringTokenSchema, type UserRecord, UserRecordSchema } from '../../../common/wire';
import type { z } from 'zod';
import { type FetchFn, type HttpOutcome, type HttpRequest, joinUrl, requestJson } from '../shared';
import type { BackendConfig, Clock, Logger } from '../shared';
import { CLOUD_TIMEOUT_MS, type TokenEndpoint } from './token-endpoint';
import type { TokenVault } from './token-vault';

export const SESSION_REVOKED_REASON = 'Your sign-in has expired or was revoked. Please sign in again.';
/** The embedded demo cloud starts afresh with the app, so a refused sign-in is its restart, not an expiry (docs/device-controls.md, "Connection state and deadlines"). */
export const EMBEDDED_CLOUD_RESTARTED_REASON = 'The demo cloud built into Hubdesk restarted, so its sign-ins were reset. Please sign in again.';
const NOT_SIGNED_IN = 'You are not signed in.';

export interface CloudClient {
  /**
   * The user's record (GET /user/me). Concurrent calls share one request; `maxAgeMs` accepts the last
   * record read, if read that recently with the same tokens and not used by such a call before (the
   * hub list right after sign-in reuses the one sign-in read). Fresh by default.
   */
  getUser(options?: { maxAgeMs?: number }): Promise<UserRecord>;
  /** A delegation token for one hub only (least privilege). */
  delegationToken(hubId: string): Promise<string>;
}

/** The cloud client as the core makes it: also for a service that takes the user's access token. */
export interface AccessTokenCaller {
  /**
   * A request to a service that takes the user's access token too (the developer portal's JSON API,
   * webhook-creation.ts), with the same refresh on a 401 and the same end of a session the cloud refuses.
   */
  withAccessToken<T>(build: (accessToken: string) => HttpRequest, schema: z.ZodType<T>): Promise<HttpOutcome<T>>;
}

export interface CloudClientDeps {
  backend: BackendConfig;
  fetch: FetchFn;
  vault: TokenVault;
  tokenEndpoint: TokenEndpoint;
  logger: Logger;
  lifetime: AbortSignal;
  clock: Clock;
  /** Called once when the cloud no longer accepts the sign-in; the core forgets it and tells the user. */
  onSessionEnded: (reason: string) => void;
}

export function createCloudClient(deps: CloudClientDeps): CloudClient & AccessTokenCaller {
  const { backend, vault, tokenEndpoint, logger } = deps;
  const origin = new URL(backend.authUrl).origin;
  const refusedReason = backend.embedded ? EMBEDDED_CLOUD_RESTARTED_REASON : SESSION_REVOKED_REASON;
  let refreshing: Promise<void> | null = null;
  /** The last record read, with the tokens it was read with and when; and the read in flight. */
  let lastUser: { record: UserRecord; tokens: unknown; at: number } | null = null;
  let readingUser: Promise<UserRecord> | null = null;

  const endSession = (reason: string): AppError => {
    deps.onSessionEnded(reason);
    return new AppError('signed-out', reason);
  };

  const refresh = async (stale: NonNullable<ReturnType<TokenVault['current']>>) => {
    const result = await tokenEndpoint.refresh(stale.refresh_token);
    // A sign-out or a new sign-in may have happened meanwhile: never resurrect or overwrite it.
    if (vault.current() !== stale) {
      if (!vault.current()) throw new AppError('signed-out', NOT_SIGNED_IN);
      return;
    }
    if (result.ok) {
      await vault.save(result.tokens); // the whole object: the refresh token may have rotated
      logger.info('cloud: access token refreshed');
      return;
    }
    logger.warn('cloud: refresh failed', { failure: result.failure, detail: result.detail });
    if (result.failure === 'rejected') throw endSession(refusedReason);
    if (result.failure === 'unreachable') throw unreachable();
    throw new AppError('cloud-error', 'The cloud answered with an error while renewing your sign-in. Please try again.');
  };

  /** Makes sure the access token that just failed is replaced, by at most one refresh at a time. */
  const refreshOnce = (failedAccessToken: string): Promise<void> => {
    if (refreshing) return refreshing;
    const current = vault.current();
    if (!current) return Promise.reject(new AppError('signed-out', NOT_SIGNED_IN));
    if (current.access_token !== failedAccessToken) return Promise.resolve(); // already refreshed
    refreshing = refresh(current).finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  const authorized = async <T>(build: (accessToken: string) => HttpRequest, schema: z.ZodType<T>): Promise<HttpOutcome<T>> => {
    await vault.settled(); // a call made while the saved sign-in is restored uses the tokens it restores
    for (let attempt = 1; ; attempt++) {
      const tokens = vault.current();
      if (!tokens) throw new AppError('signed-out', NOT_SIGNED_IN);
      const outcome = await requestJson(deps.fetch, build(tokens.access_token), schema);
      if (outcome.kind !== 'status' || outcome.status !== 401) return outcome;
      if (attempt === 1) {
        await refreshOnce(tokens.access_token);
        continue;
      }
      logger.warn('cloud: a fresh access token was refused');
      // Only end the session this call belongs to, not one that replaced it meanwhile.
      if (vault.current() === tokens) throw endSession(refusedReason);
      throw new AppError('signed-out', NOT_SIGNED_IN);
    }
  };

  const request =
    (method: HttpRequest['method'], path: string) =>
    (accessToken: string): HttpRequest => ({
      method,
      url: joinUrl(backend.authUrl, path),
      headers: { authorization: `Bearer ${accessToken}` },
      timeoutMs: CLOUD_TIMEOUT_MS,
      signal: deps.lifetime,
    });

  const unreachable = () => new AppError('cloud-unreachable', `Hubdesk could not reach the cloud at ${origin}.`);

  const expectOk = <T>(outcome: HttpOutcome<T>, what: string): T => {
    switch (outcome.kind) {
      case 'ok':
        return outcome.value;
      case 'network':
        logger.warn(`cloud: ${what} failed`, { detail: outcome.detail });
        throw unreachable();
      case 'malformed':
        logger.warn(`cloud: ${what} returned an unusable response`, { detail: outcome.detail });
        throw new AppError('cloud-error', 'The cloud sent a response Hubdesk could not understand.');
      case 'status':
        logger.warn(`cloud: ${what} failed`, { status: outcome.status, error: outcome.error?.error });
        if (outcome.status === 403) throw new AppError('forbidden', 'The cloud refused this request: Hubdesk was not granted access to it.');
        throw new AppError('cloud-error', `The cloud answered with an error (HTTP ${outcome.status}).`);
    }
  };

  return {
    getUser({ maxAgeMs = 0 } = {}) {
      const kept = lastUser;
      lastUser = null; // a record serves one later caller at most: every other read is fresh
      if (kept && maxAgeMs > 0 && kept.tokens === vault.current() && deps.clock.now() - kept.at <= maxAgeMs) return Promise.resolve(kept.record);
      readingUser ??= authorized(request('GET', '/user/me'), UserRecordSchema)
        .then((outcome) => {
          const record = expectOk(outcome, 'GET /user/me');
          lastUser = { record, tokens: vault.current(), at: deps.clock.now() };
          return record;
        })
        .finally(() => (readingUser = null));
      return readingUser;
    },
    async delegationToken(hubId) {
      const query = new URLSearchParams({ audience: 'hub', hub: hubId }).toString();
      const outcome = await authorized(request('POST', `/delegation/token?${query}`), JsonStringTokenSchema);
      if (outcome.kind === 'status' && outcome.status === 404) {
        throw new AppError('hub-not-found', 'This hub is no longer in your account.');
      }
      return expectOk(outcome, 'POST /delegation/token');
    },
    withAccessToken: (build, schema) => authorized(build, schema),
  };
}
