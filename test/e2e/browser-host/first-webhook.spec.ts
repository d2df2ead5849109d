/**
 * The first webhook in one step, end to end: the browser host (real core and renderer) signed in against
 * the reference stack in its own process, driven in Chromium. "New webhook…" creates the webhook in the
 * developer portal through its JSON API with the user's access token, registers it with its secret and tap
 * credential (none typed), and shows the intake URL and a curl command; the request it shows, sent as is,
 * is listed in the inspector. A registration the forwarder does not know offers "Create it again", which
 * works. axe finds nothing in the dialog and the panel, light and dark. The portal's one-time secrets have
 * a Copy button that copies them, and wrap inside their card.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { axeViolations } from '../support/axe';
import type { StackInfo } from '../../../services/stack';
import { addWebhookInApp, openApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

// The page functions run in Chromium; tests are type-checked without the DOM library.
declare const navigator: { clipboard: { readText(): Promise<string> } };

async function signedInApp(info: StackInfo, context: BrowserContext, profile: string): Promise<{ host: RunningProgram; page: Page }> {
  const host = startBrowserHost(info, profile);
  const page = await openApp(context, host);
  await signInThroughBrowser(context, page, host, info.user);
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  return { host, page };
}

/** The panel's example, as the user would paste it: the URL and the body of its curl command. */
async function shownExample(page: Page): Promise<{ url: string; body: string }> {
  const panel = page.getByRole('region', { name: /is ready$/ });
  const url = (await panel.getByLabel('Intake URL').textContent())!;
  const curl = (await panel.getByLabel('Example curl command').textContent())!;
  expect(curl.startsWith(`curl '${url}'`)).toBe(true);
  const body = /--data-binary '([^']*)'$/.exec(curl)![1]!;
  return { url, body };
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the first webhook from an empty profile in one step, and its example arrives (${colorScheme})`, async ({ browser, info }) => {
    const context = await browser.newContext({ colorScheme, bypassCSP: true });
    const profile = tempDir(`e2e-first-webhook-${colorScheme}`);
    const { host, page } = await signedInApp(info, context, profile);
    try {
      await page.getByRole('button', { name: 'New webhook…' }).click();
      const dialog = page.getByRole('dialog', { name: 'New webhook' });
      await expect(dialog).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Create webhook' }).click();
      await expect(dialog).toBeHidden();

      const registration = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
      await expect(registration.getByRole('status')).toHaveText('Connected');
      await expect(registration.getByText('Tap credential set: routing decisions shown')).toBeVisible();
      const { url, body } = await shownExample(page);
      expect(url).toMatch(new RegExp(`^${info.webhook_url}/webhook/wh_[A-Za-z0-9_-]+$`));
      expect(JSON.parse(body)).toEqual({ device: { id: 'my-device' } });
      expect(await axeViolations(page)).toEqual([]);

      expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(202);
      await expect(page.getByRole('list', { name: 'Webhook messages' }).getByRole('button', { name: /this app \(key my-device\)/ })).toBeVisible();

      // The secrets never reached the page, and are on disk only encrypted.
      const settings = readFileSync(join(profile, 'settings.json'), 'utf8');
      expect(settings).not.toMatch(/tc_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16,}/);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByRole('region', { name: /is ready$/ })).toHaveCount(0);
    } finally {
      await context.close();
      await host.stop();
    }
  });
}

test('a webhook the forwarder does not know offers "Create it again", which works', async ({ browser, info }) => {
  const context = await browser.newContext({ bypassCSP: true });
  const { host, page } = await signedInApp(info, context, tempDir('e2e-first-webhook-gone'));
  try {
    await addWebhookInApp(page, { id: 'wh_no_longer_here', secret: 'a-secret-of-a-gone-webhook', values: 'my-device' });
    const registration = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
    await expect(registration.getByRole('status')).toHaveText(/This webhook no longer exists on the forwarder/);
    await expect(registration.getByRole('button', { name: 'Remove wh_no_longer_here' })).toBeVisible();
    await registration.getByRole('button', { name: 'Create wh_no_longer_here again' }).click();

    // A new webhook in its place: connected, with the same routing, and the old one removed (undoable).
    await expect(registration).toHaveCount(1);
    await expect(registration.getByRole('status')).toHaveText('Connected');
    await expect(registration.getByText('wh_no_longer_here')).toHaveCount(0);
    const { url, body } = await shownExample(page);
    expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(202);
    await expect(page.getByRole('list', { name: 'Webhook messages' }).getByRole('button', { name: /this app \(/ })).toBeVisible();
  } finally {
    await context.close();
    await host.stop();
  }
});

test('the portal’s one-time secrets have a Copy button that copies them, and wrap inside their card', async ({ browser, info }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const portalUrl = `${info.tools_url}/webhooks`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: info.tools_url });
  const page = await context.newPage();
  try {
    await page.goto(portalUrl);
    await page.getByLabel('Email').fill(info.user.email);
    await page.getByLabel('Password').fill(info.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Copied');
    await page.getByRole('button', { name: 'New Webhook' }).click();

    const secret = (await page.locator('#new-secret').textContent())!;
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied the secret' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const fits = (selector: string) =>
      page
        .locator(selector)
        .evaluate((code) => code.scrollWidth <= code.clientWidth && code.getBoundingClientRect().right <= code.closest('main')!.getBoundingClientRect().right);
    expect(await fits('#new-secret')).toBe(true);

    await page.getByRole('button', { name: 'New tap credential for Copied' }).click();
    const credential = (await page.locator('#new-tap-credential').textContent())!;
    await page.getByRole('button', { name: 'Copy the tap credential' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(credential);
    expect(await fits('#new-tap-credential')).toBe(true);
  } finally {
    await context.close();
  }
});
