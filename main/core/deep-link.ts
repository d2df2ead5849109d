/**
 * Deep links into the app (`io.hubdesk.app:…`) come from the operating system on behalf of anyone who
 * can make the user click a link, so they are hostile input. Each one is parsed here into a typed
 * action before anything acts on it; everything that is not exactly our OAuth redirect is refused.
 * No `electron` import: the host only hands the raw string over.
 */
import type { OAuthCallbackParams } from './hubdesk-core';

/** Private-use URI scheme in reverse-domain form (RFC 8252 §7.1). */
export const APP_SCHEME = 'io.hubdesk.app';
export const OAUTH_CALLBACK_PATH = '/oauth/callback';
/** Single slash, no authority: the form RFC 8252 §7.1 recommends. */
export const OAUTH_REDIRECT_URI = `${APP_SCHEME}:${OAUTH_CALLBACK_PATH}`;
export const MAX_DEEP_LINK_LENGTH = 4096;

export type DeepLinkAction = { kind: 'oauth-callback'; params: OAuthCallbackParams };
export type DeepLinkResult = { ok: true; action: DeepLinkAction } | { ok: false; reason: string };

/** `iss` (RFC 9207) is allowed because servers may send it; the core does not use it, so it is dropped. */
const FORWARDED_PARAMS = ['code', 'state', 'error', 'error_description'] as const;
const ALLOWED_PARAMS = new Set<string>([...FORWARDED_PARAMS, 'iss']);

// C0 controls, DEL and C1 controls: never part of a URI the OS should hand us, and dangerous in logs.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

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

  const query = queryStart === -1 ? '' : rest.slice(queryStart + 1);
  const params = parseQuery(query);
  if (!params.ok) return params;
  const { values } = params;
  if (values.has('code') === values.has('error')) return refuse('needs exactly one of code or error');

  const callback: OAuthCallbackParams = {};
  for (const name of FORWARDED_PARAMS) {
    const value = values.get(name);
    if (value !== undefined) callback[name] = value;
  }
  return { ok: true, action: { kind: 'oauth-callback', params: callback } };
}

/** The deep link in a process's argv (Windows and Linux pass it as an argument), if there is one. */
export function findDeepLinkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => typeof arg === 'string' && hasOurScheme(arg));
}

function hasOurScheme(value: string): boolean {
  return value.slice(0, APP_SCHEME.length + 1).toLowerCase() === `${APP_SCHEME}:`;
}

type QueryResult = { ok: true; values: Map<string, string> } | { ok: false; reason: string };

function parseQuery(query: string): QueryResult {
  const values = new Map<string, string>();
  if (query === '') return { ok: true, values };
  for (const pair of query.split('&')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) return { ok: false, reason: 'malformed parameter' };
    const name = decodeComponent(pair.slice(0, separator));
    const value = decodeComponent(pair.slice(separator + 1));
    if (name === undefined || value === undefined) return { ok: false, reason: 'malformed percent-encoding' };
    if (!ALLOWED_PARAMS.has(name)) return { ok: false, reason: 'unexpected parameter' };
    if (values.has(name)) return { ok: false, reason: 'duplicated parameter' };
    if (value === '') return { ok: false, reason: 'empty parameter' };
    if (CONTROL_CHARACTERS.test(value)) return { ok: false, reason: 'parameter contains control characters' };
    values.set(name, value);
  }
  return { ok: true, values };
}

/** application/x-www-form-urlencoded decoding ('+' is a space), or undefined when malformed. */
function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
