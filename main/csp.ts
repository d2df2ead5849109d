/**
 * The renderer's Content-Security-Policy, for each host, from one place. Both hosts serve the same
 * built renderer and send this policy as a response header (renderer/index.html carries no CSP meta
 * tag, so there is no second copy to drift). They differ in one directive only, `connect-src`:
 *
 * - the Electron app (its `app://hubdesk` origin, or electron-vite's dev server) talks to main over
 *   IPC and opens no socket, so it may connect to nothing but its own origin;
 * - the browser host's page carries the contract over its loopback WebSocket, so it may also connect to
 *   that one bridge (the host answers on `127.0.0.1:<port>` and `localhost:<port>`, see server.ts),
 *   on its own port and no other.
 *
 * No host kind allows inline or evaluated script; everything not listed falls back to `default-src 'none'`.
 */

export type CspHost =
  /** The Electron window: the packaged app's `app://hubdesk` origin, or the dev server's. */
  | { kind: 'electron' }
  /** The browser host's page, served at `http://127.0.0.1:<port>`, with its bridge on the same port. */
  | { kind: 'browser-host'; port: number };

/** Directives every host shares. */
const COMMON: readonly string[] = [
  "default-src 'none'",
  "script-src 'self'",
  // React's `style` props are set through the CSSOM, which CSP does not govern; kept for attribute styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

/** The origins the browser host's page may open its bridge WebSocket to. */
export function browserHostBridgeOrigins(port: number): string[] {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`not a TCP port: ${String(port)}`);
  return [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`];
}

export function contentSecurityPolicy(host: CspHost): string {
  const connect = host.kind === 'electron' ? ["'self'"] : ["'self'", ...browserHostBridgeOrigins(host.port)];
  return [...COMMON, `connect-src ${connect.join(' ')}`].join('; ');
}
