/**
 * The authorisation code flow of RFC 8252: the system browser (never an embedded view), PKCE S256,
 * and a `state` that is single-use and bound to the one pending sign-in. A redirect that nobody
 * asked for, or whose state does not match, is logged and ignored — and the real pending sign-in is
 * kept, so a forged redirect cannot cancel it. A matching one is consumed at once and its code
 * exchanged at once (codes live 30 s).
 */
import { z } from 'zod';
import type { TokenObject } from '../../../common/wire';
import { joinUrl } from '../shared';
import { createPkcePair, createState, secretsEqual } from './pkce';
import { type BackendConfig, type Clock, type Logger, type OpenExternal, realSchedule, type Schedule } from '../shared';
import type { TokenEndpoint } from './token-endpoint';
import { errorMessage } from '../../../common/error-message';

export const SIGN_IN_LIFETIME_MS = 10 * 60_000;

export type CallbackResult =
  | { kind: 'ignored' }
  /** The pending sign-in had run out; it is gone now. */
  | { kind: 'expired' }
  | { kind: 'declined' }
  | { kind: 'failed'; reason: string }
  | { kind: 'tokens'; tokens: TokenObject };

export interface OAuthFlow {
  /**
   * Starts a sign-in (replacing any pending one) and opens the authorisation page in the browser.
   * Resolves with the page's URL and whether the browser opened: when it did not, the sign-in stays
   * pending so the user can open the URL themselves (it holds no secret: the PKCE challenge, never the verifier, RFC 7636 §4.3).
   */
  start(): Promise<{ url: string; opened: boolean }>;
  /** Opens the pending sign-in's page again; false when no sign-in is pending. Throws when the browser cannot be opened. */
  reopen(): Promise<boolean>;
  /** Forgets the pending sign-in; returns whether there was one. */
  cancel(): boolean;
  handleCallback(params: unknown): Promise<CallbackResult>;
  dispose(): void;
}

export interface OAuthFlowDeps {
  backend: BackendConfig;
  tokenEndpoint: TokenEndpoint;
  openExternal: OpenExternal;
  clock: Clock;
  logger: Logger;
  /** Called when a pending sign-in runs out without a callback. */
  onExpired: () => void;
  /** Timers (the sign-in's lifetime); real timers by default. */
  schedule?: Schedule;
}

interface PendingSignIn {
  state: string;
  verifier: string;
  redirectUri: string;
  startedAt: number;
  url: string;
  cancelExpiry: () => void;
}

// Generous bounds: the host passes query values from a URL anyone can open.
const CallbackSchema = z.object({
  code: z.string().min(1).max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

export function createOAuthFlow({ backend, tokenEndpoint, openExternal, clock, logger, onExpired, schedule = realSchedule }: OAuthFlowDeps): OAuthFlow {
  let pending: PendingSignIn | null = null;

  const clear = () => {
    pending?.cancelExpiry();
    pending = null;
  };

  return {
    async start() {
      clear();
      const pkce = createPkcePair();
      const state = createState();
      const signIn: PendingSignIn = {
        state,
        verifier: pkce.verifier,
        redirectUri: backend.redirectUri,
        startedAt: clock.now(),
        url: authorizationUrl(backend, state, pkce.challenge),
        cancelExpiry: () => {},
      };
      signIn.cancelExpiry = schedule(() => {
        if (pending !== signIn) return;
        pending = null;
        logger.info('oauth: the pending sign-in expired');
        onExpired();
      }, SIGN_IN_LIFETIME_MS);
      pending = signIn;
      logger.info('oauth: sign-in started in the system browser', { origin: new URL(backend.authUrl).origin });
      try {
        await openExternal(signIn.url);
        return { url: signIn.url, opened: true };
      } catch (error) {
        // Still pending: the user can open the page themselves.
        logger.warn('oauth: could not open the system browser', { error: errorMessage(error) });
        return { url: signIn.url, opened: false };
      }
    },
    async reopen() {
      const signIn = pending;
      if (!signIn) return false;
      await openExternal(signIn.url);
      return true;
    },
    cancel() {
      const had = pending !== null;
      clear();
      return had;
    },
    async handleCallback(params) {
      const parsed = CallbackSchema.safeParse(params);
      if (!parsed.success) {
        logger.warn('oauth: malformed callback ignored');
        return { kind: 'ignored' };
      }
      const signIn = pending;
      if (!signIn) {
        logger.warn('oauth: unsolicited callback');
        return { kind: 'ignored' };
      }
      const { code, state, error } = parsed.data;
      if (state === undefined || !secretsEqual(signIn.state, state)) {
        logger.warn('oauth: callback with a state that does not match the pending sign-in ignored');
        return { kind: 'ignored' };
      }
      clear(); // single use: a replay of this redirect finds nothing pending
      if (clock.now() - signIn.startedAt > SIGN_IN_LIFETIME_MS) {
        logger.warn('oauth: callback for an expired sign-in ignored');
        return { kind: 'expired' };
      }
      if (error !== undefined) {
        logger.info('oauth: the authorisation server returned an error', { error: printable(error) });
        if (error === 'access_denied') return { kind: 'declined' };
        return { kind: 'failed', reason: `The cloud did not complete the sign-in (${printable(error)}). Please try again.` };
      }
      if (code === undefined) {
        logger.warn('oauth: callback without code or error');
        return { kind: 'failed', reason: 'The browser came back without a sign-in result. Please try again.' };
      }
      const result = await tokenEndpoint.exchangeCode(code, signIn.verifier, signIn.redirectUri);
      if (result.ok) return { kind: 'tokens', tokens: result.tokens };
      logger.warn('oauth: code exchange failed', { failure: result.failure, detail: result.detail });
      return { kind: 'failed', reason: EXCHANGE_FAILURE[result.failure] };
    },
    dispose: clear,
  };
}

const EXCHANGE_FAILURE = {
  rejected: 'The cloud did not accept the sign-in. Please try again.',
  unreachable: 'Hubdesk could not reach the cloud to finish signing in. Please try again.',
  failed: 'The cloud answered with an error while finishing the sign-in. Please try again.',
} as const;

/** docs/interface.md §4.1 plus PKCE (RFC 7636 §4.3). */
export function authorizationUrl(backend: BackendConfig, state: string, challenge: string): string {
  const url = new URL(joinUrl(backend.authUrl, '/oauth2/authorise'));
  url.search = new URLSearchParams({
    authorization_type: 'code',
    client_id: backend.clientId,
    redirect_uri: backend.redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

/** RFC 6749 error codes are printable ASCII; anything else is dropped before it reaches a log or the UI. */
function printable(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '').slice(0, 64) || 'unknown error';
}
