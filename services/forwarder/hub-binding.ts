/**
 * Whether a listener may register with the hub id it names (docs/security.md, "A listener's hub id is
 * proven"). The webhook secret is shared by every installation of an app, so it proves nothing about
 * which hub a listener acts for; a delegation token of the cloud does (docs/interface.md §4.4). Three
 * policies, chosen by whoever runs the forwarder:
 * - `verify` (the default wherever the forwarder knows the cloud: the stack, `--cloud-url`): a hub id needs
 *   a fresh delegation token, checked against the cloud's key set (services/shared/delegation-token.ts)
 *   and accepted once;
 * - `refuse` (the default without a cloud): no registration may name a hub;
 * - `trust` (`--trust-hub-ids`, the behaviour before hub ids were bound): any secret holder may name any hub.
 *
 * The key set is fetched from `{cloud}/.well-known/jwks.json` by jose's createRemoteJWKSet: kept 10 minutes,
 * fetched again at most every 30 s for a token whose key it lacks (a cloud with new keys), each fetch
 * bounded in time (`jwksTimeoutMs`) and size (MAX_JWKS_BYTES), never following a redirect. A fetch that
 * fails is not tried again for JWKS_RETRY_AFTER_MS: meanwhile registrations naming a hub are refused at
 * once as retryable (CLOSE_HUB_CHECK_UNAVAILABLE), and the others go on.
 */
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey, errors } from 'jose';
import { CLOSE_HUB_CHECK_UNAVAILABLE, CLOSE_HUB_NOT_PROVEN } from '../../common/webhook-protocol';
import type { Logger } from '../../common/logger';
import { checkDelegationToken, KeySetUnavailable, type ReplayGuard } from '../shared/delegation-token';
import { errorMessage } from '../../common/error-message';

export type HubIdPolicy = { verify: { cloudUrl: string; jwksTimeoutMs?: number } } | 'refuse' | 'trust';

export interface HubRefusal {
  code: number;
  /** A close reason (at most 123 bytes): what was wrong, never the token. */
  reason: string;
}

export interface HubBinding {
  /** Undefined when a registration may name `hubId` with this `token`; otherwise how to close it. */
  check(hubId: string, token: string | undefined): Promise<HubRefusal | undefined>;
}

export const JWKS_PATH = '/.well-known/jwks.json';
/** The reference cloud's key set is some 200 bytes; a cloud that rotates keeps a few. */
export const MAX_JWKS_BYTES = 64 * 1024;
export const DEFAULT_JWKS_TIMEOUT_MS = 5_000;
export const JWKS_RETRY_AFTER_MS = 5_000;

export const NO_HUB_IDS = 'this forwarder takes no hub ids (it has no cloud to check them); register by key values';
export const HUB_NEEDS_TOKEN = 'a registration naming a hub needs a delegation token for that hub';

/** The cloud's issuer is its base URL, as the reference cloud signs (services/cloud/cloud.ts). */
export const issuerOf = (cloudUrl: string): string => cloudUrl.replace(/\/+$/, '');

export function createHubBinding(policy: HubIdPolicy, deps: { replays: ReplayGuard; now: () => number; logger: Logger; fetch?: typeof fetch }): HubBinding {
  if (policy === 'trust') return { check: async () => undefined };
  if (policy === 'refuse') return { check: async () => ({ code: CLOSE_HUB_NOT_PROVEN, reason: NO_HUB_IDS }) };
  const issuer = issuerOf(policy.verify.cloudUrl);
  const key = cloudKeySet(new URL(issuer + JWKS_PATH), { ...deps, timeoutMs: policy.verify.jwksTimeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS });
  return {
    async check(hubId, token) {
      if (token === undefined) return { code: CLOSE_HUB_NOT_PROVEN, reason: HUB_NEEDS_TOKEN };
      const checked = await checkDelegationToken(token, { key, issuer, hubId, now: deps.now, replays: deps.replays });
      if (checked.ok) return undefined;
      return checked.retryable
        ? { code: CLOSE_HUB_CHECK_UNAVAILABLE, reason: `cannot check the delegation token now: ${checked.reason}; reconnect` }
        : { code: CLOSE_HUB_NOT_PROVEN, reason: `delegation token refused: ${checked.reason}` };
    },
  };
}

/**
 * The cloud's key set, as a key resolver for jwtVerify: any failure to read it becomes KeySetUnavailable
 * (the token is then not judged), except a key set that lacks the token's key, which judges it.
 */
function cloudKeySet(url: URL, deps: { now: () => number; logger: Logger; timeoutMs: number; fetch?: typeof fetch }): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(url, { timeoutDuration: deps.timeoutMs, [customFetch]: boundedFetch(deps.fetch ?? fetch) });
  let failedAt = -Infinity;
  return async (header, token) => {
    if (deps.now() - failedAt < JWKS_RETRY_AFTER_MS) throw new KeySetUnavailable('the last fetch failed moments ago');
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      failedAt = deps.now();
      deps.logger.warn("forwarder: the cloud's key set could not be read; registrations naming a hub are refused until it can", {
        url: url.href,
        error: errorMessage(error),
      });
      throw new KeySetUnavailable('the key set could not be read', { cause: error });
    }
  };
}

/** fetch, reading at most MAX_JWKS_BYTES of the answer: a cloud (or what answers in its place) cannot fill the forwarder's memory. */
export function boundedFetch(fetchFn: typeof fetch): FetchImplementation {
  return async (url, init) => {
    const response = await fetchFn(url, init);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_JWKS_BYTES) {
      await response.body?.cancel();
      throw new Error(`the key set is ${declared} bytes; at most ${MAX_JWKS_BYTES} are read`);
    }
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for await (const chunk of response.body ?? []) {
      bytes += chunk.byteLength;
      if (bytes > MAX_JWKS_BYTES) throw new Error(`the key set is over ${MAX_JWKS_BYTES} bytes`);
      chunks.push(chunk);
    }
    return new Response(Buffer.concat(chunks), { status: response.status, headers: response.headers });
  };
}
