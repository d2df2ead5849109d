/**
 * The portal's HTML, in the cloud pages' shell (strict CSP, no script, no-store) and escaped everywhere.
 * A new webhook's secret, and a new tap credential, appear on the one page that answers their creation,
 * never again: later pages list a tap credential by id and creation time only.
 */
import type { FastifyReply } from 'fastify';
import { formatTapCredential } from '../../common/webhook-protocol';
import { credentialFields, escape, sendPage } from '../cloud/pages';
import type { TapCredential, TapCredentialInfo, WebhookRecord } from '../forwarder/webhook-store';

export const WEBHOOKS_PATH = '/webhooks';
export const SIGN_IN_PATH = '/sign-in';
export const SIGN_OUT_PATH = '/sign-out';
const webhookPath = (webhookId: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(webhookId)}`;
export const keyPathAction = (webhookId: string) => `${webhookPath(webhookId)}/key-path`;
export const tapCredentialsAction = (webhookId: string) => `${webhookPath(webhookId)}/tap-credentials`;
export const revokeTapCredentialAction = (webhookId: string, credentialId: string) =>
  `${tapCredentialsAction(webhookId)}/${encodeURIComponent(credentialId)}/revoke`;

export interface SignInPage {
  csrf: string;
  email?: string;
  error?: string;
  demoHint?: { email: string; password: string };
}

export interface KeyPathProblem {
  webhookId: string;
  source: string;
  message: string;
  position: number;
}

export interface WebhooksPage {
  csrf: string;
  email: string;
  webhooks: readonly WebhookRecord[];
  /** Each listed webhook's tap credentials, by webhook id (never their secrets). */
  tapCredentials: ReadonlyMap<string, readonly TapCredentialInfo[]>;
  /** Shown once, right after "New Webhook". */
  created?: WebhookRecord;
  /** Shown once, right after "New tap credential". */
  createdTap?: { webhook: WebhookRecord; credential: TapCredential };
  error?: string;
  keyPathProblem?: KeyPathProblem;
}

export function sendSignInPage(reply: FastifyReply, status: number, page: SignInPage): FastifyReply {
  const hint = page.demoHint
    ? `<p class="hint">Demo account: <strong>${escape(page.demoHint.email)}</strong>, password <strong>${escape(page.demoHint.password)}</strong></p>`
    : '';
  const body = `<h1>Sign in to the developer tools</h1>${alert(page.error)}
<form method="post" action="${SIGN_IN_PATH}">
${csrfField(page.csrf)}
${credentialFields(page.email)}
</form>${hint}`;
  return sendPage(reply, status, 'Sign in', body, []);
}

/**
 * The Copy buttons of the one-time secrets: hidden until this script shows them (a page without script
 * has nothing that does not work), each copies the `<code>` its `data-copy` names and says so in
 * `#copy-status`; where the clipboard is refused it selects the text for Ctrl+C instead.
 */
export const COPY_SCRIPT = `for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const code = document.getElementById(button.dataset.copy);
    const status = document.getElementById('copy-status');
    try {
      await navigator.clipboard.writeText(code.textContent);
      status.textContent = button.getAttribute('aria-label').replace(/^Copy/, 'Copied');
    } catch {
      getSelection().selectAllChildren(code);
      status.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
    }
  });
}`;

/** A one-time value in its card: the value wraps (no overflow), with a Copy button beside its label. */
function oneTimeValue(label: string, id: string, value: string): string {
  return `<div class="one-time"><p>${escape(label)}: <button type="button" class="secondary" data-copy="${id}" aria-label="Copy the ${escape(label.toLowerCase())}" hidden>Copy</button></p>
<code id="${id}">${escape(value)}</code></div>`;
}

export function sendWebhooksPage(reply: FastifyReply, status: number, page: WebhooksPage): FastifyReply {
  const created = page.created
    ? `<section class="created" aria-labelledby="created-heading"><h2 id="created-heading">Webhook created</h2>
<p>Id: <code>${escape(page.created.id)}</code></p>
${oneTimeValue('Secret', 'new-secret', page.created.secret)}
<p class="alert" role="status">Copy the secret now: it is not shown again.</p></section>`
    : '';
  const createdTap = page.createdTap
    ? `<section class="created" aria-labelledby="created-tap-heading"><h2 id="created-tap-heading">Tap credential created for ${escape(page.createdTap.webhook.name)}</h2>
${oneTimeValue('Tap credential', 'new-tap-credential', formatTapCredential(page.createdTap.credential))}
<p>Give it to Hubdesk's Webhooks form (optional field "Tap credential") to see every request to this webhook with its routing decision. Hubs never need it.</p>
<p class="alert" role="status">Copy the tap credential now: it is not shown again.</p></section>`
    : '';
  const copyStatus = created || createdTap ? '<p id="copy-status" class="hint" role="status" aria-live="polite"></p>' : '';
  const list = page.webhooks.length === 0 ? '<p>No webhooks yet.</p>' : page.webhooks.map((webhook) => webhookSection(webhook, page)).join('\n');
  const body = `<h1>Webhooks</h1>
<p>Signed in as <strong>${escape(page.email)}</strong>.</p>
<form method="post" action="${SIGN_OUT_PATH}">${csrfField(page.csrf)}<button type="submit" class="secondary">Sign out</button></form>
${alert(page.error)}${created}${createdTap}${copyStatus}
<form method="post" action="${WEBHOOKS_PATH}">
${csrfField(page.csrf)}
<label for="name">Name</label>
<input id="name" name="name" required maxlength="100">
<button type="submit">New Webhook</button>
</form>
${list}`;
  return sendPage(reply, status, 'Webhooks', body, [], created || createdTap ? COPY_SCRIPT : undefined);
}

function webhookSection(webhook: WebhookRecord, page: WebhooksPage): string {
  const headingId = `webhook-${escape(webhook.id)}`;
  const inputId = `key-path-${escape(webhook.id)}`;
  const problem = page.keyPathProblem?.webhookId === webhook.id ? page.keyPathProblem : undefined;
  const legacy = webhook.legacyFunction
    ? `<details><summary>Legacy function (read-only)</summary><pre><code>${escape(webhook.legacyFunction)}</code></pre></details>`
    : '';
  const problemText = problem
    ? `<p class="alert" role="alert" id="${inputId}-error">Key path not saved: ${escape(problem.message)} (position ${problem.position})</p>
<pre aria-hidden="true">${escape(problem.source)}\n${' '.repeat(problem.position)}^</pre>`
    : '';
  return `<section aria-labelledby="${headingId}">
<h2 id="${headingId}">${escape(webhook.name)}</h2>
<p>Id: <code>${escape(webhook.id)}</code></p>
<p>Key path: ${webhook.keyPath === null ? 'none' : `<code>${escape(webhook.keyPath)}</code>`}</p>
<p>Legacy function: ${webhook.legacyFunction ? 'yes' : 'no'}</p>
${legacy}
<form method="post" action="${keyPathAction(webhook.id)}">
${csrfField(page.csrf)}
<label for="${inputId}">Key path of ${escape(webhook.name)}</label>
<input id="${inputId}" name="keyPath" placeholder="body.device.id" maxlength="512" value="${escape(problem?.source ?? webhook.keyPath ?? '')}"${problem ? ` aria-invalid="true" aria-describedby="${inputId}-error"` : ''}>
${problemText}
<button type="submit">Save key path</button>
</form>
${tapCredentialsPart(webhook, page)}
</section>`;
}

/**
 * The tap sees every intake of the webhook, other hubs' traffic and `Authorization` headers included,
 * so it has its own credentials, listed here by id and creation time (the secret was shown once).
 */
function tapCredentialsPart(webhook: WebhookRecord, page: WebhooksPage): string {
  const credentials = page.tapCredentials.get(webhook.id) ?? [];
  const items = credentials
    .map(
      (credential) => `<li><code>${escape(credential.id)}</code>, created ${escape(new Date(credential.createdAt).toISOString())}
<form method="post" action="${revokeTapCredentialAction(webhook.id, credential.id)}">${csrfField(page.csrf)}<button type="submit" class="secondary" aria-label="Revoke ${escape(credential.id)}">Revoke</button></form></li>`,
    )
    .join('\n');
  return `<h3>Tap credentials</h3>
<p class="hint">A tap credential lets its holder see every request to this webhook with its routing decision (the inspector in Hubdesk). Hubs and listeners use the webhook secret, never a tap credential.</p>
${credentials.length === 0 ? '<p>No tap credentials.</p>' : `<ul aria-label="Tap credentials of ${escape(webhook.name)}">\n${items}\n</ul>`}
<form method="post" action="${tapCredentialsAction(webhook.id)}">
${csrfField(page.csrf)}
<button type="submit" aria-label="New tap credential for ${escape(webhook.name)}">New tap credential</button>
</form>`;
}

function alert(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escape(message)}</p>` : '';
}

function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escape(csrf)}">`;
}
