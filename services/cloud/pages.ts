/**
 * The HTML the user sees during authorisation: sign-in, consent and error pages. Small, accessible
 * (labels, lang, headings, role=alert for errors) and escaped everywhere. Served with a strict
 * Content-Security-Policy: no scripts (but the portal's one Copy script, by its hash), the one inline style allowed by its hash, forms posting
 * only to this server — and, on the consent page, to the client's redirect target, because browsers
 * apply form-action to the redirect that follows the POST.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Scope } from '../../common/wire';

const SCOPE_WORDS: Record<Scope, string> = {
  'devices.readonly': 'See your devices and their state',
  devices: 'Control your devices',
  'flow.readonly': 'See your flows',
  'flow.start': 'Start your flows',
  'insights.readonly': 'See the history of your devices',
};

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}',
  'main{max-width:26rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}',
  'h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .25rem;font-weight:600}',
  'input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #8a93a6;border-radius:6px}',
  'button{font:inherit;padding:.6rem 1.2rem;margin:1.2rem .5rem 0 0;border-radius:6px;border:1px solid #2d5bd8;background:#2d5bd8;color:#fff;cursor:pointer}',
  'button.secondary{background:#fff;color:#2d5bd8}.alert{color:#a30d1e;font-weight:600}.hint{color:#4a5263;font-size:.9rem}',
  // A long secret or id wraps inside its card instead of running out of it.
  'code{overflow-wrap:anywhere;word-break:break-all}.one-time code{display:block;padding:.4rem;background:#eef0f4;border-radius:4px}',
].join('');
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

export interface LoginPage {
  requestId: string;
  csrf: string;
  clientName: string;
  email?: string;
  error?: string;
  demoHint?: { email: string; password: string };
}

export interface ConsentPage {
  requestId: string;
  csrf: string;
  clientName: string;
  userEmail: string;
  scopes: readonly Scope[];
  /** Where the consent POST will redirect: allowed by the page's form-action. */
  redirectUri: string;
}

export const LOGIN_PATH = '/oauth2/authorise/login';
export const CONSENT_PATH = '/oauth2/authorise/consent';

export function sendLoginPage(reply: FastifyReply, page: LoginPage, status = 200): FastifyReply {
  const hint = page.demoHint
    ? `<p class="hint">Demo account: <strong>${escape(page.demoHint.email)}</strong>, password <strong>${escape(page.demoHint.password)}</strong></p>`
    : '';
  const error = page.error ? `<p class="alert" role="alert">${escape(page.error)}</p>` : '';
  const body = `<h1>Sign in to continue to ${escape(page.clientName)}</h1>${error}
<form method="post" action="${LOGIN_PATH}">
${hidden(page.requestId, page.csrf)}
${credentialFields(page.email)}
</form>${hint}`;
  return sendPage(reply, status, 'Sign in', body, []);
}

/** The e-mail and password fields and the "Sign in" button, shared by the consent and portal sign-in pages. */
export function credentialFields(email: string | undefined): string {
  return `<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" required value="${escape(email ?? '')}">
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>`;
}

export function sendConsentPage(reply: FastifyReply, page: ConsentPage): FastifyReply {
  const scopes = page.scopes.map((scope) => `<li>${escape(SCOPE_WORDS[scope])}</li>`).join('');
  const body = `<h1>Allow ${escape(page.clientName)} to use your account?</h1>
<p>Signed in as <strong>${escape(page.userEmail)}</strong>. ${escape(page.clientName)} asks to:</p>
<ul>${scopes}</ul>
<p>After you choose, you return ${escape(returnTarget(page.redirectUri, page.clientName))}.</p>
<form method="post" action="${CONSENT_PATH}">
${hidden(page.requestId, page.csrf)}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`;
  return sendPage(reply, 200, 'Allow access', body, [formActionSource(page.redirectUri)]);
}

export function sendErrorPage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendPage(reply, status, 'Cannot continue', `<h1>Cannot continue</h1><p class="alert" role="alert">${escape(message)}</p>`, []);
}

/**
 * The page shell every server-rendered page of the services uses (the tools portal too). `script`: one
 * inline script, allowed by its hash and nothing else (the portal's Copy buttons); none by default.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string, extraFormTargets: string[], script?: string): FastifyReply {
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    ...(script === undefined ? [] : [`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`]),
    `form-action ${["'self'", ...extraFormTargets].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return reply
    .code(status)
    .headers({
      'content-security-policy': csp,
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    })
    .type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} – Hubdesk</title><style>${STYLE}</style></head>
<body><main>${body}</main>${script === undefined ? '' : `<script>${script}</script>`}</body></html>`);
}

function hidden(requestId: string, csrf: string): string {
  return `<input type="hidden" name="request" value="${escape(requestId)}">\n<input type="hidden" name="csrf" value="${escape(csrf)}">`;
}

/** A CSP source for the redirect target: the origin of an http(s) URI, or the scheme of a private-use one. */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

/**
 * Where the consent POST sends the browser, in words the user can check against what they expect: a
 * loopback redirect (RFC 8252 §7.3) is an app on this computer, listening on a port; a private-use
 * scheme (RFC 8252 §7.1) is an app on this computer; anything else is named by its origin.
 */
export function returnTarget(redirectUri: string, clientName: string): string {
  const url = new URL(redirectUri);
  if (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]')) {
    return `to ${clientName} on this computer, port ${url.port || '80'}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `to the ${clientName} app on this computer`;
  return `to ${url.origin}`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
