/**
 * The authorisation server's answer as it reaches the app: the query of a redirect to our callback,
 * by deep link (`io.hubdesk.app:/oauth/callback?…`, Electron) or on the loopback listener
 * (`http://127.0.0.1:<port>/oauth/callback?…`, browser host). Whoever can make the user open a link
 * can send one, so both hosts parse it here, with the same strict rules, into a typed result before
 * the core acts on it: only the parameters of an authorisation response (RFC 6749 §4.1.2, RFC 9207
 * `iss`), each once, non-empty, without control characters, and exactly one of `code` and `error`.
 */
/** The query parameters of an authorisation redirect, already parsed by the host. */
export interface OAuthCallbackParams {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/** Longer answers are no authorisation response (codes and states are short). */
export const MAX_RESPONSE_QUERY_LENGTH = 4096;

export type AuthorisationResponse = { ok: true; params: OAuthCallbackParams } | { ok: false; reason: string };

/** `iss` (RFC 9207) is allowed because servers may send it; the core does not use it, so it is dropped. */
const FORWARDED_PARAMS = ['code', 'state', 'error', 'error_description'] as const;
const ALLOWED_PARAMS = new Set<string>([...FORWARDED_PARAMS, 'iss']);

// C0 controls, DEL and C1 controls: never part of a URI the OS or a browser should hand us, and dangerous in logs.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

const refuse = (reason: string): AuthorisationResponse => ({ ok: false, reason });

/** `query`: the raw query string of the redirect, without the `?` (still percent-encoded). */
export function parseAuthorisationResponse(query: string): AuthorisationResponse {
  if (query.length > MAX_RESPONSE_QUERY_LENGTH) return refuse('too long');
  const values = new Map<string, string>();
  for (const pair of query === '' ? [] : query.split('&')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) return refuse('malformed parameter');
    const name = decodeComponent(pair.slice(0, separator));
    const value = decodeComponent(pair.slice(separator + 1));
    if (name === undefined || value === undefined) return refuse('malformed percent-encoding');
    if (!ALLOWED_PARAMS.has(name)) return refuse('unexpected parameter');
    if (values.has(name)) return refuse('duplicated parameter');
    if (value === '') return refuse('empty parameter');
    if (CONTROL_CHARACTERS.test(value)) return refuse('parameter contains control characters');
    values.set(name, value);
  }
  if (values.has('code') === values.has('error')) return refuse('needs exactly one of code or error');
  const params: OAuthCallbackParams = {};
  for (const name of FORWARDED_PARAMS) {
    const value = values.get(name);
    if (value !== undefined) params[name] = value;
  }
  return { ok: true, params };
}

/** application/x-www-form-urlencoded decoding ('+' is a space), or undefined when malformed. */
function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
