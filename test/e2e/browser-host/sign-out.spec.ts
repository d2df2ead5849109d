/**
 * Sign out asks first, end to end in Chromium against the reference stack: the dialog names what it
 * ends (the hubs, by name) and what goes on (the webhook), Cancel has the focus and keeps the user
 * signed in, the dialog's "Sign out" signs out. Afterwards, and at every moment on the way, no hub is
 * shown by its raw id: the webhook routed to Home still says "Hub Home".
 */
import { expect, test } from '@playwright/test';
import { type SignedInApp, startSignedInApp } from '../support/browser-host';

// Runs in the page; the tests are type-checked without the DOM library.
declare const MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
declare const document: { body: { innerText: string } };

let app: SignedInApp | undefined;
test.afterEach(async () => {
  await app?.close();
});

test('Sign out asks, naming what it ends; Cancel keeps you signed in; confirming signs out and names stay names', async ({ browser }) => {
  app = await startSignedInApp(browser, 'e2e-sign-out');
  const { page, info } = app;
  const [home, cabin] = info.hubs;
  const header = page.getByRole('banner');

  // A webhook delivered to Home, added through the app while signed in.
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add a webhook…' }).click();
  const add = page.getByRole('dialog', { name: 'Add a webhook' });
  await add.getByLabel('Webhook ID').fill(info.webhook.id);
  await add.getByLabel('Webhook secret').fill(info.webhook.secret);
  await add.getByRole('radio', { name: 'Selected hub' }).check();
  await add.getByRole('combobox', { name: 'Hub' }).selectOption({ label: home!.name });
  await add.getByRole('button', { name: 'Add webhook' }).click();
  await expect(add).toBeHidden();
  const registrations = page.getByRole('list', { name: 'Webhooks' });
  await expect(registrations.getByText(`Hub ${home!.name}`, { exact: true })).toBeVisible();

  await header.getByRole('button', { name: 'Sign out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out of Hubdesk?' });
  await expect(dialog).toContainText(`This disconnects Hubdesk from your 2 hubs (${home!.name} and ${cabin!.name}) and ends the sessions it holds on them.`);
  await expect(dialog).toContainText('Your webhook keeps listening. It is paused at its next reconnection until you sign in again');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter'); // on Cancel
  await expect(dialog).toBeHidden();
  await expect(header.getByRole('button', { name: 'Sign out' })).toBeFocused(); // back where it was
  await page.getByRole('tab', { name: 'Hubs' }).click();
  await expect(page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: home!.name, exact: true })).toBeVisible();

  // Everything the page shows from here to signed out is recorded, so an id shown only for a moment is caught too.
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.evaluate(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __textSeen: string[] }).__textSeen = seen;
    new MutationObserver(() => seen.push(document.body.innerText)).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await header.getByRole('button', { name: 'Sign out' }).click();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await expect(registrations.getByText(`Hub ${home!.name}`, { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Hubs' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await expect(registrations.getByText(`Hub ${home!.name}`, { exact: true })).toBeVisible();

  const seen = await page.evaluate(() => (globalThis as unknown as { __textSeen: string[] }).__textSeen);
  expect(seen.length).toBeGreaterThan(0);
  // A "Selected hub" registration's intake URL names its hub for the sender (`?hub=<id>`): that is an address, not a label.
  for (const hub of info.hubs) expect(seen.filter((text) => text.replaceAll(`?hub=${encodeURIComponent(hub.id)}`, '').includes(hub.id))).toEqual([]);
});
