/**
 * The portal's HTML, in the cloud pages' shell (strict CSP, no script, no-store) and escaped everywhere.
 * A new webhook's secret appears on the one page that answers its creation, never again.
 */
import type { FastifyReply } from 'fastify';
import { credentialFields, escape, sendPage } from '../cloud/pages';
import type { WebhookRecord } from '../forwarder/webhook-store';

export const WEBHOOKS_PATH = '/webhooks';
export const SIGN_IN_PATH = '/sign-in';
export const SIGN_OUT_PATH = '/sign-out';
export const keyPathAction = (webhookId: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(webhookId)}/key-path`;

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
  /** Shown once, right after "New Webhook". */
  created?: WebhookRecord;
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

export function sendWebhooksPage(reply: FastifyReply, status: number, page: WebhooksPage): FastifyReply {
  const created = page.created
    ? `<section class="created" aria-labelledby="created-heading"><h2 id="created-heading">Webhook created</h2>
<p>Id: <code>${escape(page.created.id)}</code></p>
<p>Secret: <code id="new-secret">${escape(page.created.secret)}</code></p>
<p class="alert" role="status">Copy the secret now: it is not shown again.</p></section>`
    : '';
  const list = page.webhooks.length === 0 ? '<p>No webhooks yet.</p>' : page.webhooks.map((webhook) => webhookSection(webhook, page)).join('\n');
  const body = `<h1>Webhooks</h1>
<p>Signed in as <strong>${escape(page.email)}</strong>.</p>
<form method="post" action="${SIGN_OUT_PATH}">${csrfField(page.csrf)}<button type="submit" class="secondary">Sign out</button></form>
${alert(page.error)}${created}
<form method="post" action="${WEBHOOKS_PATH}">
${csrfField(page.csrf)}
<label for="name">Name</label>
<input id="name" name="name" required maxlength="100">
<button type="submit">New Webhook</button>
</form>
${list}`;
  return sendPage(reply, status, 'Webhooks', body, []);
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
</section>`;
}

function alert(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escape(message)}</p>` : '';
}

function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escape(csrf)}">`;
}
