/**
 * Accessibility of every main screen (docs/device-controls.md, "Every screen accessible"): axe-core (WCAG 2.1 A and AA rules) finds no
 * violation on the signed-out screen and its Webhooks and Settings tabs, the hubs view with a live hub
 * and its "What's on", the webhooks view and the settings view (each with one main landmark and one
 * first-level heading), and on the open command palette, shortcuts sheet and sign-out dialog, each in the light and the dark scheme, in Chromium against the reference stack; a skip link
 * leads past the header and the sidebar, and each favourite button names its device.
 */
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { axeViolations as violations } from '../support/axe';
import { addWebhookInApp, openApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

// The page functions run in Chromium; tests are type-checked without the DOM library.
declare const document: {
  body: { append(node: unknown): void };
  createElement(tag: string): { id: string };
  getElementById(id: string): { remove(): void } | null;
};

test.describe.configure({ mode: 'serial' });

/** Every screen has its main landmark and one first-level heading (axe's `region` and `page-has-heading-one` ask for the one; this, for only one). */
async function expectOneMainAndOneHeadingOne(page: Page, screen: string): Promise<void> {
  await expect(page.getByRole('main'), screen).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 }), screen).toHaveCount(1);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`no axe violation on the main screens, ${colorScheme}`, async ({ browser, info }) => {
    // Every screen, signed out and in, with axe run on each: more than the default minute on a busy machine.
    test.slow();
    // The app's CSP refuses inline scripts, axe's included: only this test's context lets it in.
    const context: BrowserContext = await browser.newContext({ colorScheme, bypassCSP: true });
    const host = startBrowserHost(info, tempDir(`e2e-accessibility-${colorScheme}`));
    try {
      const page = await openApp(context, host);
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      // The checker works on this page: a button without a name is found.
      await page.evaluate(() => document.body.append(Object.assign(document.createElement('button'), { id: 'nameless' })));
      expect((await violations(page)).join('\n')).toMatch(/^button-name .*#nameless/m);
      await page.evaluate(() => document.getElementById('nameless')?.remove());
      expect(await violations(page), 'signed out').toEqual([]);
      await expectOneMainAndOneHeadingOne(page, 'sign-in');
      // The signed-out tabs: Webhooks and Settings work without a sign-in, in the same landmarks.
      for (const tab of ['Webhooks', 'Settings'] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tabpanel', { name: tab })).toBeVisible();
        expect(await violations(page), `signed out, ${tab}`).toEqual([]);
        await expectOneMainAndOneHeadingOne(page, `signed out, ${tab}`);
      }
      await page.getByRole('tab', { name: 'Hubs' }).click();

      await signInThroughBrowser(context, page, host, info.user);
      const home = page.getByRole('region', { name: 'Devices on Home' });
      await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
      await expect(home.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
      expect(await violations(page), 'hubs').toEqual([]);
      await expectOneMainAndOneHeadingOne(page, 'hubs');
      // What's on: what is on, open or unlocked now, to turn off.
      await home.getByRole('button', { name: 'What’s on' }).click();
      await expect(page.getByRole('dialog', { name: 'What’s on at Home' }).getByRole('list', { name: 'On now' })).toBeVisible();
      expect(await violations(page), 'what’s on').toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'What’s on at Home' })).toBeHidden();
      // The first Tab reaches the skip link, which moves the focus past the header and the sidebar.
      await page.reload(); // the keyboard starts from the top of the page
      await expect(home.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Skip to the content' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('main')).toBeFocused();
      // Each favourite button says whose it is.
      await expect(home.getByRole('article', { name: 'Ceiling light', exact: true }).getByRole('button', { name: 'Favourite: Ceiling light' })).toBeVisible();

      await page.getByRole('tab', { name: 'Webhooks' }).click();
      await expect(page.getByRole('heading', { name: 'Inspector', exact: true })).toBeVisible();
      expect(await violations(page), 'webhooks').toEqual([]);
      await expectOneMainAndOneHeadingOne(page, 'webhooks');
      // With a message selected: its outcome, signature, actions, JSON tree and raw views (docs/webhooks-app.md, "The inspector").
      // The add dialog, with a problem said under its field.
      await page.getByRole('button', { name: 'Add a webhook…' }).click();
      await page.getByRole('dialog', { name: 'Add a webhook' }).getByRole('button', { name: 'Add webhook' }).click();
      await expect(page.getByRole('dialog', { name: 'Add a webhook' }).getByText('Enter the webhook ID the developer portal shows.')).toBeVisible();
      expect(await violations(page), 'add a webhook').toEqual([]);
      await page.keyboard.press('Escape');
      await addWebhookInApp(page, {
        id: info.webhook.id,
        secret: info.webhook.secret,
        tapCredential: info.webhook.tap_credential,
        signingSecret: 'a-signing-secret',
        values: 'lamp-1',
      });
      await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('status').first()).toHaveText('Connected');
      const posted = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
        body: '{"device":{"id":"lamp-1"},"list":[1,2]}',
      });
      expect(posted.status).toBe(202);
      await page.getByRole('list', { name: 'Webhook messages' }).getByRole('button').first().click();
      await expect(page.getByRole('region', { name: 'Message details' }).getByText(/^Invalid signature \(GitHub\)$/)).toBeVisible();
      expect(await violations(page), 'webhook message').toEqual([]);

      await page.getByRole('tab', { name: 'Settings' }).click();
      await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
      expect(await violations(page), 'settings').toEqual([]);
      await expectOneMainAndOneHeadingOne(page, 'settings');

      // The command palette and the shortcuts sheet (docs/architecture.md, "The desktop"), open over the page.
      await page.keyboard.press('Control+k');
      await page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').fill('lamp');
      await expect(page.getByRole('dialog', { name: 'Command palette' }).getByRole('option').first()).toBeVisible();
      expect(await violations(page), 'command palette').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'Settings', exact: true }).click();
      await page.keyboard.press('Shift+?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      expect(await violations(page), 'shortcuts').toEqual([]);
      await page.keyboard.press('Escape');

      // Sign out asks first: its dialog, then Escape keeps the user signed in.
      await page.getByRole('button', { name: 'Sign out' }).click();
      const signOut = page.getByRole('dialog', { name: 'Sign out of Hubdesk?' });
      await expect(signOut.getByRole('button', { name: 'Cancel' })).toBeFocused();
      expect(await violations(page), 'sign out').toEqual([]);
      await page.keyboard.press('Escape');
      await expect(signOut).toBeHidden();
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    } finally {
      await context.close();
      await host.stop();
    }
  });
}
