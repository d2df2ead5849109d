/**
 * The HTTP calls to the cloud's token endpoint (docs/interface.md §4.2): the code exchange and the refresh, both
 * authenticated with HTTP Basic as RFC 6749 §2.3.1 describes (id and secret form-encoded first).
 */
import { type TokenObject, TokenObjectSchema } from '../../../common/wire';
import { type FetchFn, joinUrl, requestJson } from '../shared';
import type { BackendConfig } from '../shared';

export const CLOUD_TIMEOUT_MS = 15_000;

export type TokenResult =
  | { ok: true; tokens: TokenObject }
  /**
   * `rejected`: the grant or the client is not (or no longer) accepted — the user must sign in again.
   * `unreachable`: no answer; nothing is lost. `failed`: an answer we cannot use.
   */
  | { ok: false; failure: 'rejected' | 'unreachable' | 'failed'; detail: string };

export interface TokenEndpoint {
  exchangeCode(code: string, verifier: string, redirectUri: string): Promise<TokenResult>;
  refresh(refreshToken: string): Promise<TokenResult>;
}

export function createTokenEndpoint(backend: BackendConfig, fetchFn: FetchFn, lifetime: AbortSignal): TokenEndpoint {
  const url = joinUrl(backend.authUrl, '/oauth2/token');
  const authorization = basicAuthorization(backend.clientId, backend.clientSecret);

  const post = async (form: Record<string, string>): Promise<TokenResult> => {
    const outcome = await requestJson(
      fetchFn,
      {
        method: 'POST',
        url,
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
        timeoutMs: CLOUD_TIMEOUT_MS,
        signal: lifetime,
      },
      TokenObjectSchema,
    );
    switch (outcome.kind) {
      case 'ok':
        return { ok: true, tokens: outcome.value };
      case 'network':
        return { ok: false, failure: 'unreachable', detail: outcome.detail };
      case 'malformed':
        return { ok: false, failure: 'failed', detail: `token response: ${outcome.detail}` };
      case 'status': {
        const code = outcome.error?.error;
        const rejected = outcome.status === 401 || code === 'invalid_grant' || code === 'invalid_client';
        return { ok: false, failure: rejected ? 'rejected' : 'failed', detail: `HTTP ${outcome.status}${code ? ` ${code}` : ''}` };
      }
    }
  };

  return {
    exchangeCode: (code, verifier, redirectUri) =>
      post({ grant_type: 'authorization_code', authorization_code: code, code_verifier: verifier, redirect_uri: redirectUri }),
    refresh: (refreshToken) => post({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined and base64-encoded. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}
