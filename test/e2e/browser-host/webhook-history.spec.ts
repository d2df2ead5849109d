/**
 * The webhook history end to end (docs/webhooks-app.md, "History"): messages received by the browser host are there
 * again after it restarts on the same profile, found by search; on disk they are unreadable without
 * the key; the bound is shown and set in Settings; clearing asks first and lasts across a restart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { addWebhookInApp, clearHistoryInApp, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

const RUNNING = 'Hubdesk is running at ';

async function post(info: StackInfo, body: unknown): Promise<void> {
  const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
}

const messageRows = (page: Page) => page.getByRole('list', { name: 'Webhook messages' }).getByRole('listitem');
const historyFiles = (profile: string) => readdirSync(join(profile, 'webhook-history')).map((name) => readFileSync(join(profile, 'webhook-history', name)));

test('messages are there after a restart, searchable; on disk only encrypted; clearing asks and lasts', async ({ page, info }) => {
  const profile = tempDir('e2e-history');
  const markers = ['attic-lamp-7f3a', 'cellar-pump-91bc', 'porch-light-c0de'];
  let host = startBrowserHost(info, profile);
  try {
    await page.goto(await host.line(RUNNING));
    await addWebhookInApp(page, {
      id: info.webhook.id,
      secret: info.webhook.secret,
      tapCredential: info.webhook.tap_credential,
      values: 'lamp-1',
    });
    await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status').first()).toHaveText('Connected');
    await post(info, { device: { id: 'lamp-1' }, note: markers[0] }); // delivered to this app
    await post(info, { device: { id: 'other' }, note: markers[1] }); // matched nothing: seen through the tap
    await post(info, { device: { id: 'lamp-1' }, note: markers[2] });
    await expect(messageRows(page)).toHaveCount(3);
    await expect(page.getByRole('region', { name: 'Inspector' }).getByText(/^History [\d.]+ (B|KB|MB) of 128 MB · 30 days$/)).toBeVisible();
  } finally {
    expect(await host.stop()).toBe(0);
  }

  // On disk: segments exist, and no marker is readable in them, as text or as base64 of the body.
  const files = historyFiles(profile);
  expect(files.length).toBeGreaterThan(0);
  const onDisk = Buffer.concat(files);
  for (const marker of markers) expect(onDisk.includes(marker)).toBe(false);
  expect(onDisk.includes(Buffer.from(JSON.stringify({ device: { id: 'lamp-1' }, note: markers[0] })).toString('base64'))).toBe(false);

  host = startBrowserHost(info, profile);
  try {
    await page.goto(await host.line(RUNNING));
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(messageRows(page)).toHaveCount(3);
    // Search covers the history read back; each message has its body as received. (The list is in order
    // of arrival here, and a delivery and a tap event come on two sockets: the rows' order is not asserted.)
    const search = page.getByRole('search', { name: 'Find messages' }).getByLabel('Search');
    for (const marker of [markers[2]!, markers[1]!]) {
      await search.fill(marker);
      await expect(messageRows(page)).toHaveCount(1);
      await messageRows(page).first().getByRole('button').click();
      await expect(page.getByRole('region', { name: 'Message details' })).toContainText(marker);
      await search.fill('');
      await expect(messageRows(page)).toHaveCount(3);
    }

    // Settings show what it holds and how it is kept; a new age is kept.
    await page.getByRole('tab', { name: 'Settings' }).click();
    const group = page.getByRole('group', { name: 'Webhook history' });
    await expect(group.getByText('Kept across restarts, encrypted like your sign-in.')).toBeVisible();
    await expect(group.getByRole('status')).toHaveText(/^3 messages, [\d.]+ (B|KB) of 128 MB\.$/);
    await group.getByRole('radiogroup', { name: 'Keep messages for' }).getByRole('radio', { name: '7 days' }).click(); // shown once main has it
    await expect(group.getByRole('radiogroup', { name: 'Keep messages for' }).getByRole('radio', { name: '7 days' })).toBeChecked();
    await expect(group.getByRole('status')).toHaveText(/^3 messages,/); // all are newer than that

    // Clear asks first; Cancel keeps everything.
    await group.getByRole('button', { name: 'Clear…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the webhook history?' });
    await expect(dialog).toContainText('All 3 messages kept by Hubdesk will be deleted');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(group.getByRole('status')).toHaveText(/^3 messages,/);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await clearHistoryInApp(page);
    await expect(messageRows(page)).toHaveCount(0);
  } finally {
    expect(await host.stop()).toBe(0);
  }

  host = startBrowserHost(info, profile);
  try {
    await page.goto(await host.line(RUNNING));
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status').first()).toHaveText('Connected');
    await expect(messageRows(page)).toHaveCount(0);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const group = page.getByRole('group', { name: 'Webhook history' });
    await expect(group.getByRole('status')).toHaveText(/^0 messages,/);
    await expect(group.getByRole('radiogroup', { name: 'Keep messages for' }).getByRole('radio', { name: '7 days' })).toBeChecked();
  } finally {
    expect(await host.stop()).toBe(0);
  }
});
