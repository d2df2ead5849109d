/**
 * Where the authorisation server sends the user back to Hubdesk (RFC 8252): one definition for the
 * app's two hosts and for the reference cloud's registration of the demo client.
 */

/** Private-use URI scheme in reverse-domain form (RFC 8252 §7.1). */
export const APP_SCHEME = 'io.hubdesk.app';
/** The path of the redirect URI in both hosts (§7.1 private-use scheme, §7.3 loopback). */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';
/** Electron: single slash, no authority, the form §7.1 recommends. */
export const OAUTH_REDIRECT_URI = `${APP_SCHEME}:${OAUTH_CALLBACK_PATH}`;
/** The browser host: the loopback redirect (§7.3); the server accepts it on any port. */
export const LOOPBACK_REDIRECT_URI = `http://127.0.0.1${OAUTH_CALLBACK_PATH}`;
