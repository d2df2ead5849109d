/**
 * Webhooks end to end: the browser host (real core and renderer) and the reference stack (with its
 * forwarder) in their own processes, driven in Chromium. No sign-in: the forwarder authenticates a
 * webhook by its id and secret, so the Webhooks view works signed out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { CLOSE_HUB_NOT_PROVEN } from '../../../common/webhook-protocol';
import type { StackInfo } from '../../../services/stack';
import { addWebhookInApp, clearHistoryInApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';
import { ChannelClosed, TestListener } from '../../support/webhook-listener';

const test = stackPerFile();

const RUNNING = 'Hubdesk is running at ';

const startHost = (info: StackInfo, profile: string): RunningProgram => startBrowserHost(info, profile);

/** Adds the demo webhook; with the demo tap credential unless `tap` is false (then no routing decisions). */
async function addDemoWebhook(info: StackInfo, page: Page, values: string, tap = true) {
  await addWebhookInApp(page, {
    id: info.webhook.id,
    secret: info.webhook.secret,
    ...(tap && { tapCredential: info.webhook.tap_credential }),
    values,
  });
  await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status')).toHaveText('Connected');
}

const postDemo = (info: StackInfo, body: unknown) =>
  fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('a webhook added in the app shows a POSTed message with its body and routing', async ({ page, info }) => {
  const profile = tempDir('e2e-webhooks');
  const host = startHost(info, profile);
  try {
    await page.goto(await host.line(RUNNING));
    await addDemoWebhook(info, page, 'lamp-1');
    // The forwarder names the webhook as its owner did in the portal; the id stays beside it.
    const registration = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
    await expect(registration.getByText(info.webhook.name, { exact: true })).toBeVisible();
    await expect(registration.getByText(info.webhook.id, { exact: true })).toBeVisible();
    expect((await postDemo(info, { device: { id: 'lamp-1' }, on: true })).status).toBe(202);

    const messages = page.getByRole('list', { name: 'Webhook messages' });
    const row = messages.getByRole('button', { name: /this app \(key lamp-1\)/ });
    await expect(row).toBeVisible();
    await expect(row.getByText(info.webhook.name, { exact: true })).toBeVisible();
    await row.click();
    // The row carries a summary only; the details pane fetches the full message from main.
    const details = page.getByRole('region', { name: 'Message details' });
    const body = details.getByRole('group', { name: 'Body' });
    await expect(body.getByText('"lamp-1"', { exact: true })).toBeVisible();
    await expect(body.getByText('true', { exact: true })).toBeVisible();
    await expect(details.getByText('{"device":{"id":"lamp-1"},"on":true}', { exact: true })).toBeVisible();
    await expect(details.getByRole('definition').filter({ hasText: /^key-path$/ })).toBeVisible();
    await expect(details.getByRole('definition').filter({ hasText: 'body.device.id' })).toBeVisible();

    // The JSON tree folds from the keyboard.
    const device = body.getByRole('button', { name: /"device"/ });
    await expect(device).toHaveAttribute('aria-expanded', 'true');
    await device.focus();
    await page.keyboard.press('Enter');
    await expect(device).toHaveAttribute('aria-expanded', 'false');

    // Pause holds new messages back and counts them; Resume shows them.
    await page.getByRole('button', { name: 'Pause' }).click();
    await postDemo(info, { device: { id: 'lamp-1' }, on: false });
    await expect(page.getByText('paused, 1 new')).toBeVisible();
    await expect(messages.getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(messages.getByRole('listitem')).toHaveCount(2);
    await clearHistoryInApp(page);
    await expect(messages.getByRole('listitem')).toHaveCount(0);

    // The secret and the tap credential are on disk only encrypted.
    const settings = readFileSync(join(profile, 'settings.json'), 'utf8');
    expect(settings).not.toContain(info.webhook.secret);
    expect(settings).not.toContain(info.webhook.tap_credential.split('.')[1]);
    await expect(page.getByRole('note', { name: 'About tap credentials' })).toHaveCount(0);
  } finally {
    await host.stop();
  }
});

test('a webhook for the selected hub: signed in, the app proves the hub and receives its ?hub= requests; the secret alone cannot register as that hub', async ({
  page,
  info,
}) => {
  const host = startHost(info, tempDir('e2e-webhooks-hub'));
  try {
    await page.goto(await host.line(RUNNING));
    await signInThroughBrowser(page.context(), page, host, info.user);
    const home = info.hubs.find((hub) => hub.name === 'Home')!;
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add a webhook…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByLabel('Webhook ID').fill(info.webhook.id);
    await dialog.getByLabel('Webhook secret').fill(info.webhook.secret);
    await dialog.getByRole('radio', { name: 'Selected hub' }).check();
    await dialog.getByRole('combobox', { name: 'Hub' }).selectOption({ label: 'Home' });
    await expect(dialog.getByText('Hubdesk proves to the forwarder with your sign-in that it acts for this hub')).toBeVisible();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status')).toHaveText('Connected');

    // Another installation holding the same secret cannot register as Home.
    const thief = await TestListener.connect({
      forwarderUrl: info.webhook_url,
      webhookId: info.webhook.id,
      secret: info.webhook.secret,
      listenerId: 'thief',
      hubId: home.id,
    }).catch((error: unknown) => error);
    expect(thief).toBeInstanceOf(ChannelClosed);
    expect(thief).toMatchObject({ code: CLOSE_HUB_NOT_PROVEN });

    // The URL the app shows (and Copy URL copies) carries ?hub=: without it the sender's requests reach nobody.
    const shown = await page
      .getByRole('list', { name: 'Webhooks' })
      .getByLabel(/^Intake URL of/)
      .textContent();
    expect(shown).toBe(`${info.webhook_url}/webhook/${info.webhook.id}?hub=${encodeURIComponent(home.id)}`);
    const response = await fetch(shown!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"for":"Home"}' });
    expect(response.status).toBe(202);
    await expect(page.getByRole('list', { name: 'Webhook messages' }).getByRole('button', { name: /this app \(Home\)/ })).toBeVisible();
  } finally {
    await host.stop();
  }
});

test("without a tap credential: this app's deliveries only, and the view says once what the tap credential adds", async ({ page, info }) => {
  const host = startHost(info, tempDir('e2e-webhooks-notap'));
  try {
    await page.goto(await host.line(RUNNING));
    await addDemoWebhook(info, page, 'lamp-7', false);
    const registration = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
    await expect(registration.getByText('No tap credential')).toBeVisible();
    const notice = page.getByRole('note', { name: 'About tap credentials' });
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText("routing decisions and other hubs' traffic need the webhook owner's tap credential");
    await expect(notice).toContainText('developer portal');

    // Another hub's request is not seen at all; this app's own arrives, without a routing decision.
    expect((await postDemo(info, { device: { id: 'someone-else' } })).status).toBe(202);
    expect((await postDemo(info, { device: { id: 'lamp-7' }, on: true })).status).toBe(202);
    const messages = page.getByRole('list', { name: 'Webhook messages' });
    await expect(messages.getByRole('button', { name: /this app; routing not seen/ })).toBeVisible();
    await expect(messages.getByRole('listitem')).toHaveCount(1);
  } finally {
    await host.stop();
  }
});

test('10,000 messages stay a short DOM: the list is virtualised and scrolls to the oldest', async ({ page, info }) => {
  test.setTimeout(180_000);
  const host = startHost(info, tempDir('e2e-webhooks-many'));
  try {
    await page.goto(await host.line(RUNNING));
    await addDemoWebhook(info, page, 'many-1');
    const total = 10_000;
    // 40 at a time: one sender within the forwarder's per-address limits (50 requests in flight, 100
    // connections held; docs/security.md, "One client's share"), as a well-behaved webhook source is.
    for (let start = 0; start < total; start += 40) {
      const statuses = await Promise.all(
        Array.from({ length: Math.min(40, total - start) }, (_, i) =>
          postDemo(info, { device: { id: 'many-1' }, n: start + i }).then((response) => response.status),
        ),
      );
      expect(statuses.every((status) => status === 202)).toBe(true);
    }
    await expect(page.getByText(`${total} messages`)).toBeVisible({ timeout: 60_000 });
    const messages = page.getByRole('list', { name: 'Webhook messages' });
    expect(await messages.getByRole('listitem').count()).toBeLessThan(80);

    // The newest message is kept in main: selecting it fetches its full body. The count above comes
    // from the tap; the deliveries of 10,000 messages may still be on their way, and the pane fetches
    // the body again when this one's arrives.
    await messages.getByRole('button').first().click();
    const details = page.getByRole('region', { name: 'Message details' });
    await expect(details.getByRole('group', { name: 'Body' }).getByText('9999', { exact: true })).toBeVisible({ timeout: 30_000 });

    // Keyboard: End selects the oldest message. Main's history keeps all 10,000 (within its 128 MiB),
    // so the oldest one's full body is fetched too.
    await page.keyboard.press('End');
    await expect(details.getByRole('group', { name: 'Body' }).getByText('0', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(details.getByRole('group', { name: 'Body' }).getByText('9999', { exact: true })).toHaveCount(0);
    expect(await messages.getByRole('listitem').count()).toBeLessThan(80);
  } finally {
    await host.stop();
  }
});

test('the message list is one tab stop: Tab leaves it, Shift+Tab comes back to the selected row, keys move the selection', async ({ page, info }) => {
  const host = startHost(info, tempDir('e2e-webhooks-keyboard'));
  try {
    await page.goto(await host.line(RUNNING));
    await addDemoWebhook(info, page, 'keys-1');
    for (let n = 0; n < 15; n++) expect((await postDemo(info, { device: { id: 'keys-1' }, n })).status).toBe(202);
    await expect(page.getByText('15 messages')).toBeVisible();
    const rows = page.getByRole('list', { name: 'Webhook messages' }).getByRole('button');
    const selected = page.getByRole('list', { name: 'Webhook messages' }).locator('button[aria-current="true"]');
    const body = page.getByRole('region', { name: 'Message details' }).getByRole('group', { name: 'Body' });

    await rows.first().click();
    await expect(body.getByText('14', { exact: true })).toBeVisible(); // newest first
    await page.keyboard.press('Tab');
    await expect(rows.first()).not.toBeFocused();
    expect(await rows.evaluateAll((buttons) => buttons.some((button) => button === (button.ownerDocument as { activeElement: unknown }).activeElement))).toBe(
      false,
    );
    await page.keyboard.press('Shift+Tab');
    await expect(rows.first()).toBeFocused();

    await page.keyboard.press('ArrowDown');
    await expect(selected).toBeFocused();
    await expect(body.getByText('13', { exact: true })).toBeVisible();
    await page.keyboard.press('PageDown');
    await expect(body.getByText('3', { exact: true })).toBeVisible();
    await page.keyboard.press('End');
    await expect(body.getByText('0', { exact: true })).toBeVisible();
    await page.keyboard.press('Home');
    await expect(body.getByText('14', { exact: true })).toBeVisible();
    expect(await rows.evaluateAll((buttons) => buttons.filter((button) => (button as unknown as { tabIndex: number }).tabIndex === 0).length)).toBe(1);
  } finally {
    await host.stop();
  }
});

test('with no webhook yet, the view says what to do and opens the developer portal in the browser', async ({ page, info }) => {
  const host = startHost(info, tempDir('e2e-webhooks-empty'));
  try {
    await page.goto(await host.line(RUNNING));
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const note = page.getByRole('note', { name: 'Getting started with webhooks' });
    await expect(note).toContainText('Create a webhook in the developer portal');
    const portal = `${info.tools_url}/webhooks`;
    await expect(note.getByText(portal, { exact: true })).toBeVisible();
    await note.getByRole('button', { name: 'Open the portal' }).click();
    expect(await host.line('open-external: ')).toBe(portal);

    await addDemoWebhook(info, page, 'lamp-1');
    await expect(note).toHaveCount(0);
  } finally {
    await host.stop();
  }
});

test('Remove asks first, and can be undone: the webhook comes back connected and receives again', async ({ page, info }) => {
  const host = startHost(info, tempDir('e2e-webhooks-remove'));
  try {
    await page.goto(await host.line(RUNNING));
    await addDemoWebhook(info, page, 'lamp-1');
    expect((await postDemo(info, { device: { id: 'lamp-1' }, n: 1 })).status).toBe(202);
    const messages = page.getByRole('list', { name: 'Webhook messages' });
    await expect(messages.getByRole('listitem')).toHaveCount(1);
    const registrations = page.getByRole('list', { name: 'Webhooks' });

    await registrations.getByRole('button', { name: `Remove ${info.webhook.id}` }).click();
    // The dialog and the notice call it by the name the forwarder gave; the button names the id (unique).
    const dialog = page.getByRole('dialog', { name: `Remove ${info.webhook.name}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(registrations.getByRole('listitem')).toHaveCount(1);

    await registrations.getByRole('button', { name: `Remove ${info.webhook.id}` }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('list', { name: 'Webhooks' })).toHaveCount(0);
    await expect(page.getByText(`Removed ${info.webhook.name}. Its messages leave the inspector in 10 seconds.`)).toBeVisible();
    await expect(messages.getByRole('listitem')).toHaveCount(1);

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(registrations.getByRole('listitem').getByRole('status')).toHaveText('Connected');
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
    expect((await postDemo(info, { device: { id: 'lamp-1' }, n: 2 })).status).toBe(202);
    await expect(messages.getByRole('listitem')).toHaveCount(2);
    await expect(messages.getByRole('listitem').first().getByText('This app', { exact: true })).toBeVisible();
  } finally {
    await host.stop();
  }
});

test('the add dialog checks every field in the order shown, says each problem under its field, and focuses the first', async ({ page, info }) => {
  const host = startHost(info, tempDir('e2e-webhooks-add'));
  try {
    await page.goto(await host.line(RUNNING));
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add a webhook…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByLabel('Webhook ID').fill('not an id!');
    await dialog.getByLabel('Webhook secret').fill('short');
    await dialog.getByLabel('Tap credential (optional)').fill('tc_nope');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const id = dialog.getByLabel('Webhook ID');
    await expect(id).toBeFocused();
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(id).toHaveAccessibleDescription('The webhook ID is 1–200 letters, digits, "-" or "_".');
    await expect(dialog.getByLabel('Webhook secret')).toHaveAccessibleDescription('The webhook secret is at least 8 characters.');
    await expect(dialog.getByLabel('Tap credential (optional)')).toHaveAccessibleDescription(/^The tap credential is "tc_…"/);
    await expect(dialog.getByRole('textbox', { name: 'Values' })).toHaveAccessibleDescription(/^Enter at least one key value\./);

    // Fixed as they are edited; the next problem in order is the one focused at the next try.
    await id.fill(info.webhook.id);
    await expect(id).toHaveAttribute('aria-invalid', 'false');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog.getByLabel('Webhook secret')).toBeFocused();

    await dialog.getByLabel('Webhook secret').fill(info.webhook.secret);
    await dialog.getByLabel('Tap credential (optional)').fill(info.webhook.tap_credential);
    await dialog.getByRole('textbox', { name: 'Values' }).fill('lamp-1');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status')).toHaveText('Connected');
  } finally {
    await host.stop();
  }
});
