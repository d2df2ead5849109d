/**
 * Hostile files and names in Chromium against the browser host (docs/security.md, "Hostile archive
 * files" and "Names from hubs, clouds and files"): each attack an import or a peer can make, and what
 * the app must do instead. No test here measures time: the page's freedom during an import is shown
 * by a ticker in the page that runs between the import's pieces.
 */
import { chmodSync, statSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { type RunningStack, startStack } from '../../../services/stack';
import { addWebhookInApp, openApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const RUNNING = 'Hubdesk is running at ';
const SIGNING_SECRET = 'a-signing-secret-for-slack';
const HOSTILE_CABIN = 'Holiday\u202Enibac\u2066\u00AD\u{E0041}';

let stack: RunningStack;
let host: RunningProgram | undefined;

test.beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0, cabinName: HOSTILE_CABIN });
});
test.afterAll(async () => {
  await stack?.close();
});
test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

const toolbarStatus = (page: Page) => page.locator('.inspector-toolbar').getByRole('status').last();
const importFile = (page: Page, name: string, text: string) =>
  page.getByLabel('HAR or NDJSON file to import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

/** An NDJSON line of a message to the stack's demo webhook. */
const archived = (id: string, overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    webhookId: stack.info.webhook.id,
    id,
    receivedAt: new Date().toISOString(),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    query: {},
    rawBody: Buffer.from('{"device":{"id":"lamp-1"}}').toString('base64'),
    routing: null,
    delivered: true,
    ...overrides,
  });

async function openInspector(page: Page): Promise<void> {
  host = startBrowserHost(stack.info, tempDir('e2e-hostile-input'));
  await page.goto(await host.line(RUNNING));
  await addWebhookInApp(page, { id: stack.info.webhook.id, secret: stack.info.webhook.secret, signingSecret: SIGNING_SECRET, values: 'lamp-1' });
  await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status').first()).toHaveText('Connected');
}

test.describe('Import of hostile archive files', () => {
  test('a HAR whose routing value is 5,000 levels deep: the entry is skipped by its number and the import ends', async ({ page }) => {
    await openInspector(page);
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const entry = (value: string) =>
      `{"startedDateTime":"2026-11-24T10:00:00.000Z","request":{"method":"POST","url":"http://x/webhook/${stack.info.webhook.id}","headers":[]},"_hubdesk":{"routing":{"option":"key-path","matched":[],"value":${value}}}}`;
    await importFile(page, 'deep.har', `{"log":{"version":"1.2","entries":[${entry(deep)},${entry('"lamp-1"')}]}}`);
    await expect(toolbarStatus(page)).toHaveText('Imported 1 message from deep.har (HAR); 1 skipped (entry 1: nested deeper than 72 levels).');
  });

  test('a message over 1 MiB (120,000 headers) is skipped with its reason; the bridge stays and the next message is imported', async ({ page }) => {
    await openInspector(page);
    const headers = Object.fromEntries(Array.from({ length: 120_000 }, (_, i) => [`h${i}`, '']));
    const big = archived('big', { headers });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    await importFile(page, 'big.ndjson', `${big}\n${archived('small')}\n`);
    await expect(toolbarStatus(page)).toHaveText(
      /^Imported 1 message from big\.ndjson \(NDJSON\); 1 skipped \(line 1: too large: \d+ KiB as a message, at most 768 KiB\)\.$/,
    );
    await expect(page.getByRole('list', { name: 'Webhook messages' }).getByRole('listitem').filter({ hasText: 'imported · ' })).toHaveCount(1);
  });

  test('600,000 junk lines: the page has its turn between pieces, and the import stops after 1,000 bad lines, naming the first', async ({ page }) => {
    await openInspector(page);
    // A ticker that runs whenever the page gets a task, and a record of each status the page shows with the ticks so far.
    // (A string: this project's Node types have no DOM.)
    await page.evaluate(`(() => {
      window.ticks = 0;
      window.seen = [];
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        window.ticks++;
        if (window.ticks < 1000000) channel.port2.postMessage(null);
      };
      channel.port2.postMessage(null);
      const statuses = document.querySelectorAll('.inspector-toolbar [role="status"]');
      const status = statuses[statuses.length - 1];
      new MutationObserver(() => window.seen.push([status.textContent ?? '', window.ticks])).observe(status, { childList: true, characterData: true, subtree: true });
    })()`);
    const junk = Array.from({ length: 600_000 }, (_, i) => `junk ${i}`).join('\n');
    await importFile(page, 'junk.ndjson', junk);
    await expect(toolbarStatus(page)).toHaveText(
      /^Imported 0 messages from junk\.ndjson \(NDJSON\); 1000 skipped \(line 1: not JSON; line 2: not JSON; line 3: not JSON; …\); stopped at line 1000: 1000 entries could not be read; the rest was not read\.$/,
    );
    const seen = await page.evaluate(() => (globalThis as unknown as { seen: [string, number][] }).seen);
    const progress = seen.filter(([text]) => /^Working… \d+ entries read/.test(text));
    expect(new Set(progress.map(([text]) => text)).size).toBeGreaterThanOrEqual(2);
    // Between the first progress shown and the last, the page ran other tasks: it was not held for the whole file.
    expect(progress.at(-1)![1]).toBeGreaterThan(progress[0]![1]);
  });

  test('an imported capture signed an hour ago is checked against now: invalid, with the archived time beside it', async ({ page }) => {
    await openInspector(page);
    const signedAt = Math.floor(Date.now() / 1000) - 3600;
    const body = '{"device":{"id":"lamp-1"}}';
    const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${signedAt}:${body}`).digest('hex')}`;
    const line = archived('captured', {
      receivedAt: new Date(signedAt * 1000).toISOString(),
      headers: { 'x-slack-request-timestamp': String(signedAt), 'x-slack-signature': signature },
    });
    await importFile(page, 'capture.ndjson', `${line}\n`);
    await expect(toolbarStatus(page)).toHaveText('Imported 1 message from capture.ndjson (NDJSON).');
    await page.getByRole('list', { name: 'Webhook messages' }).getByRole('listitem').first().getByRole('button').click();
    const details = page.getByRole('region', { name: 'Message details' });
    await expect(details.getByText('Invalid signature (Slack)', { exact: true })).toBeVisible();
    await expect(details.locator('.signature')).toContainText(/Signed \d+ minutes ago; at most 5 minutes is accepted\. Checked now; the file says it arrived /);
  });

  test('a file name with a right-to-left override is shown without it', async ({ page }) => {
    await openInspector(page);
    await importFile(page, 'notes\u202Edhn.ndjson', `${archived('named')}\n`);
    await expect(toolbarStatus(page)).toHaveText('Imported 1 message from notesdhn.ndjson (NDJSON).');
  });
});

test('the hub list shows a hub name without its bidi and invisible characters', async ({ browser }) => {
  host = startBrowserHost(stack.info, tempDir('e2e-hostile-names'));
  const context = await browser.newContext();
  const app = await openApp(context, host);
  await signInThroughBrowser(context, app, host, stack.info.user);
  const hubs = app.getByRole('navigation', { name: 'Hubs' });
  await expect(hubs.getByRole('button', { name: 'Holidaynibac', exact: true })).toBeVisible();
  expect(await hubs.innerText()).not.toMatch(/[\u202E\u2066\u00AD]|\u{E0041}/u);
  await context.close();
});

test('an existing profile folder made 0755 is 0700 once the host has started', async () => {
  const profile = tempDir('e2e-profile-mode');
  chmodSync(profile, 0o755);
  host = startBrowserHost(stack.info, profile);
  await host.line(RUNNING);
  expect(statSync(profile).mode & 0o777).toBe(0o700);
});
