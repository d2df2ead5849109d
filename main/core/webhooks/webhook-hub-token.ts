/**
 * Where a webhook listener that names a hub gets the delegation token proving it acts for that hub
 * (docs/webhooks-app.md, "Proving the hub"; docs/security.md, "A listener's hub id is proven"): a fresh one from
 * the cloud for each registration (cloud-client.ts `delegationToken`, valid on that hub only), and, when
 * there is none, words for the registration's state and whether only another sign-in can help.
 */
import { AppError, type ErrorCode } from '../../../common/app-error';
import type { HubTokenResult } from './webhook-channel';

export const SIGN_IN_FOR_HUB = 'Sign in to register as this hub: the forwarder needs the cloud’s proof that this app acts for it.';
export const HUB_NOT_IN_ACCOUNT = 'The signed-in account has no such hub: sign in with the account that has it, or register by key values.';
export const NO_TOKEN = 'Hubdesk could not get the cloud’s proof for this hub.';

/** Failures only a different sign-in can mend: the channel waits for one instead of retrying. */
const WAIT_FOR_SIGN_IN: Partial<Record<ErrorCode, string>> = {
  'signed-out': SIGN_IN_FOR_HUB,
  'hub-not-found': HUB_NOT_IN_ACCOUNT,
};

export function hubTokenSource(delegationToken: (hubId: string) => Promise<string>, hubId: string): () => Promise<HubTokenResult> {
  return async () => {
    try {
      return { ok: true, token: await delegationToken(hubId) };
    } catch (error) {
      if (!(error instanceof AppError)) return { ok: false, reason: NO_TOKEN, wait: false };
      const waitReason = WAIT_FOR_SIGN_IN[error.code];
      if (waitReason !== undefined) return { ok: false, reason: waitReason, wait: true };
      // The cloud refused this client the token (403): a sign-in with more access may help, retrying does not.
      if (error.code === 'forbidden') return { ok: false, reason: error.message, wait: true };
      // Unreachable, or an error answer: the cloud's own words (they name no token), and a retry.
      return { ok: false, reason: error.message, wait: false };
    }
  };
}
