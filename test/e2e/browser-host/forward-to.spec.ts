/**
 * Forward to and editing a registration end to end (docs/webhooks-app.md, "Forward to", "Editing a
 * registration"): the browser host and the reference stack in their own processes, driven in Chromium.
 * Forward to is set with Edit; a local server on loopback receives the exact bytes and the row shows its
 * status; a 500 is retried and shown; "Forward again" sends it once more. The signing secret set,
 * replaced and cleared with Edit changes the signature's verdict, the secret never shown.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { addWebhookInApp, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

const RUNNING = 'Hubdesk is running at ';
const SIGNING_SECRET = 'github-signing-secret-one';

let host: RunningProgram;

test.beforeEach(async ({ page, info }) => {
  host = startBrowserHost(info, tempDir('e2e-forward-to'));
  await page.goto(await host.line(RUNNING));
  await addWebhookInApp(page, { id: info.webhook.id, secret: info.webhook.secret, values: 'lamp-1' });
  await expect(registration(page).getByRole('status').first()).toHaveText('Connected');
});
test.afterEach(async () => {
  await host?.stop();
});

const registration = (page: Page) => page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
const messageRows = (page: Page) => page.getByRole('list', { name: 'Webhook messages' }).getByRole('listitem');
const details = (page: Page) => page.getByRole('region', { name: 'Message details' });

async function post(info: StackInfo, body: string | Buffer, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}?from=e2e`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  expect(response.status).toBe(202);
}

async function edit(page: Page, change: (dialog: ReturnType<Page['getByRole']>) => Promise<void>): Promise<void> {
  await registration(page)
    .getByRole('button', { name: /^Edit / })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Edit / });
  await change(dialog);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  respond: ServerResponse;
}

test('Forward to: the local server receives the exact bytes, the row shows its status, a 500 is retried and shown', async ({ page, info }) => {
  const received: Received[] = [];
  /** The answers to give, in order; when none is left, the request waits for the test. */
  const answers: number[] = [201];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks), respond: response });
      const status = answers.shift();
      if (status !== undefined) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const localUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    // A URL off this computer in the clear is refused, under its field.
    await registration(page)
      .getByRole('button', { name: /^Edit / })
      .click();
    const dialog = page.getByRole('dialog', { name: /^Edit / });
    await dialog.getByLabel('Forward to (optional)').fill('http://192.0.2.7/hook');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByLabel('Forward to (optional)')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(/on this computer only/)).toBeVisible();
    await dialog.getByLabel('Forward to (optional)').fill(localUrl);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(registration(page).getByLabel(/^Forward-to URL of/)).toHaveText(localUrl);

    const body = Buffer.from('{"device":{"id":"lamp-1"},"note":"ünïcode\\u0000"}');
    await post(info, body, { 'x-signature': 'sig-e2e' });
    await expect(messageRows(page)).toHaveCount(1);
    await expect(messageRows(page).first().locator('.forward-chip')).toHaveText(/^→ 201 · \d+ ms$/);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hook?from=e2e' });
    expect(received[0]!.body.equals(body)).toBe(true);
    expect(received[0]!.headers['x-signature']).toBe('sig-e2e');

    // The local server fails the first attempt: it is tried again, and the row says so.
    answers.push(500);
    await post(info, '{"device":{"id":"lamp-1"},"n":2}');
    await expect(messageRows(page)).toHaveCount(2);
    const second = messageRows(page).first();
    await expect(second.locator('.forward-chip')).toHaveText('→ sending (try 2)');
    expect(received).toHaveLength(3);
    received[2]!.respond.writeHead(200).end();
    await expect(second.locator('.forward-chip')).toHaveText(/^→ 200 · \d+ ms$/);
    await second.getByRole('button').click();
    const forward = details(page).getByRole('group', { name: 'Forward to' });
    await expect(forward.getByRole('status')).toHaveText(/^The local server answered 200 in \d+ ms at .+, at attempt 2\. Forward again$/);

    // One click sends it again.
    answers.push(202);
    await forward.getByRole('button', { name: 'Forward again' }).click();
    await expect(second.locator('.forward-chip')).toHaveText(/^→ 202 · \d+ ms$/);
    expect(received).toHaveLength(4);
    expect(received[3]!.body.toString()).toBe('{"device":{"id":"lamp-1"},"n":2}');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('editing the signing secret changes the verdict; the window only knows whether one is set', async ({ page, info }) => {
  const body = '{"device":{"id":"lamp-1"},"signed":true}';
  await post(info, body, { 'x-hub-signature-256': `sha256=${createHmac('sha256', SIGNING_SECRET).update(body).digest('hex')}` });
  await expect(messageRows(page)).toHaveCount(1);
  await messageRows(page).first().getByRole('button').click();
  await expect(details(page).getByText('Signed (GitHub), not checked', { exact: true })).toBeVisible();

  await edit(page, async (dialog) => {
    await expect(dialog.getByRole('group', { name: 'Signing secret: not set' })).toBeVisible();
    await dialog.getByRole('radio', { name: 'Set one' }).check();
    await dialog.getByLabel('New signing secret').fill(SIGNING_SECRET);
  });
  await expect(registration(page).getByText('Signing secret set: signatures checked')).toBeVisible();
  // The routing and the connection are as they were: no new registration.
  await expect(registration(page).getByRole('status').first()).toHaveText('Connected');
  // The selected message's verdict follows the edit.
  await expect(details(page).getByText('Valid signature (GitHub)', { exact: true })).toBeVisible();

  await edit(page, async (dialog) => {
    await expect(dialog.getByRole('group', { name: 'Signing secret: set' })).toBeVisible();
    await expect(dialog.getByLabel('New signing secret')).toHaveCount(0); // the secret is never shown, not even masked
    await dialog.getByRole('radio', { name: 'Replace it' }).check();
    await dialog.getByLabel('New signing secret').fill('another-signing-secret');
  });
  await expect(details(page).getByText('Invalid signature (GitHub)', { exact: true })).toBeVisible();

  await edit(page, async (dialog) => {
    await dialog.getByRole('radio', { name: 'Clear it' }).check();
  });
  await expect(registration(page).getByText('No signing secret: signatures not checked')).toBeVisible();
  await expect(details(page).getByText('Signed (GitHub), not checked', { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(SIGNING_SECRET);
});
