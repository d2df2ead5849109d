/**
 * Deep links into the app (`io.hubdesk.app:…`) come from the operating system on behalf of anyone who
 * can make the user click a link, so they are hostile input. Each one is parsed here into a typed
 * action before anything acts on it; everything that is not exactly our OAuth redirect is refused.
 * No `electron` import: the host only hands the raw string over.
 */
import { APP_SCHEME, OAUTH_CALLBACK_PATH } from '../../../common/oauth-redirect';
import { CONTROL_CHARACTERS, MAX_RESPONSE_QUERY_LENGTH, parseAuthorisationResponse } from './authorisation-response';
import type { OAuthCallbackParams } from './authorisation-response';

export { APP_SCHEME, OAUTH_REDIRECT_URI } from '../../../common/oauth-redirect';
export const MAX_DEEP_LINK_LENGTH = MAX_RESPONSE_QUERY_LENGTH;

export type DeepLinkAction = { kind: 'oauth-callback'; params: OAuthCallbackParams };
export type DeepLinkResult = { ok: true; action: DeepLinkAction } | { ok: false; reason: string };

const refuse = (reason: string): DeepLinkResult => ({ ok: false, reason });

export function parseDeepLink(raw: unknown): DeepLinkResult {
  if (typeof raw !== 'string') return refuse('not a string');
  if (raw.length > MAX_DEEP_LINK_LENGTH) return refuse('too long');
  if (CONTROL_CHARACTERS.test(raw)) return refuse('contains control characters');
  // Schemes are case-insensitive (RFC 3986 §3.1); everything after it is compared exactly.
  if (!hasOurScheme(raw)) return refuse('not our scheme');
  if (raw.includes('#')) return refuse('has a fragment');

  const rest = raw.slice(APP_SCHEME.length + 1);
  const queryStart = rest.indexOf('?');
  const path = queryStart === -1 ? rest : rest.slice(0, queryStart);
  if (path.startsWith('//')) return refuse('has an authority');
  if (path !== OAUTH_CALLBACK_PATH) return refuse('unknown path');

  const response = parseAuthorisationResponse(queryStart === -1 ? '' : rest.slice(queryStart + 1));
  return response.ok ? { ok: true, action: { kind: 'oauth-callback', params: response.params } } : response;
}

/** The deep link in a process's argv (Windows and Linux pass it as an argument), if there is one. */
export function findDeepLinkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => typeof arg === 'string' && hasOurScheme(arg));
}

function hasOurScheme(value: string): boolean {
  return value.slice(0, APP_SCHEME.length + 1).toLowerCase() === `${APP_SCHEME}:`;
}
