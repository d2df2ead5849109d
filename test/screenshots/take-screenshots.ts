/**
 * The README's screenshots, drawn from the running app: the stack and a browser host in their own
 * processes, signed in as the demo user, the demo webhook registered and a few messages sent. Each
 * scene is taken at 1280×800 and at the smallest supported window (800×600), in light and in dark.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Page, test } from '@playwright/test';
import type { StackInfo } from '../../services/stack';
import { addWebhookInApp, openApp, signInThroughBrowser, startStackProgram } from '../e2e/support/browser-host';
import { type RunningProgram, startProgram } from '../e2e/support/processes';
import { tempDir } from '../support/temp-dir';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '800x600', width: 800, height: 600 },
] as const;
const THEMES = ['light', 'dark'] as const;

let stack: RunningProgram;
let info: StackInfo;
let host: RunningProgram;

test.beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  ({ stack, info } = await startStackProgram());
  // Trust the stack's CA, as the built-in demo does, so Home is reached over its secure LAN route.
  const profile = tempDir('screenshots');
  const caFile = join(profile, 'stack-ca.pem');
  writeFileSync(caFile, info.ca);
  host = startProgram('main/browser-host/bin.ts', ['--profile', profile, '--skip-build'], {
    HUBDESK_EXTRA_CA_FILE: caFile,
    HUBDESK_AUTH_URL: info.auth_url,
    HUBDESK_CLIENT_ID: info.client.id,
    HUBDESK_CLIENT_SECRET: info.client.secret,
    HUBDESK_WEBHOOK_URL: info.webhook_url,
    HUBDESK_OPEN_EXTERNAL: 'none',
  });
});
test.afterAll(async () => {
  await host?.stop();
  await stack?.stop();
});

let signedInOnce = false;

/** A signed-in page at this size and colour scheme (the app's theme follows the system's by default). The host's core stays signed in for the later pages. */
async function signedIn(browser: Browser, size: (typeof SIZES)[number], theme: (typeof THEMES)[number]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: theme, deviceScaleFactor: 1 });
  const page = await openApp(context, host);
  if (signedInOnce) await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  else await signInThroughBrowser(context, page, host, info.user);
  signedInOnce = true;
  return page;
}

async function showHome(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Hubs' }).click();
  // A narrow window's sidebar is a rail: its hub list is in the drawer the header's button opens.
  const hubs = page.getByRole('navigation', { name: 'Hubs' });
  if ((await hubs.count()) === 0) await page.getByRole('button', { name: 'Sidebar' }).click();
  await hubs.getByRole('button', { name: 'Home', exact: true }).click();
  const devices = page.getByRole('region', { name: 'Devices on Home' });
  await expect(devices.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  await expect(devices.getByRole('article').first()).toBeVisible();
}

async function showWebhooks(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  const list = page.getByRole('list', { name: 'Webhooks' });
  if ((await list.getByRole('listitem').count()) === 0) {
    await addWebhookInApp(page, { id: info.webhook.id, secret: info.webhook.secret, tapCredential: info.webhook.tap_credential, values: 'lamp-1' });
    await expect(list.getByRole('listitem').getByRole('status')).toHaveText('Connected');
    for (const body of [
      { device: { id: 'lamp-1' }, on: true },
      { device: { id: 'thermostat-2' }, target: 21.5 },
      { device: { id: 'lamp-1' }, on: false },
    ]) {
      await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    }
  }
  const messages = page.getByRole('list', { name: 'Webhook messages' });
  await expect(messages.getByRole('button').first()).toBeVisible();
  await messages.getByRole('button').first().click();
  await expect(page.getByRole('region', { name: 'Message details' })).toBeVisible();
}

async function showSettings(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
}

/** A thermostat's history over the week, drawn from the hub's backfilled year: temperature and target together, heating as bands, then each series. */
async function showHistory(page: Page): Promise<void> {
  await showHome(page);
  const devices = page.getByRole('region', { name: 'Devices on Home' });
  await devices.getByRole('button', { name: 'History of Living room thermostat', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'History of Living room thermostat' });
  await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: 'Week', exact: true }).click();
  await expect(dialog.getByRole('img', { name: /^Temperature and Target temperature over the last 7 days: .*(Heating|Not heating)/ })).toBeVisible();
  await expect(dialog.getByRole('img', { name: /^Temperature over the last 7 days: minimum/ })).toBeVisible();
}

/** The Energy view across every hub, this month beside the last. */
async function showEnergy(page: Page): Promise<void> {
  await closeDialog(page);
  await page.getByRole('tab', { name: 'Energy' }).click();
  const view = page.getByRole('region', { name: 'Energy' });
  await view.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Month', exact: true }).click();
  await expect(view.getByRole('region', { name: 'Devices by energy used' })).toBeVisible();
}

/** What is on across Home, with a turn-off per device and per class. */
async function showWhatsOn(page: Page): Promise<void> {
  await showHome(page);
  await page
    .getByRole('region', { name: 'Devices on Home' })
    .getByRole('button', { name: /What.s on/ })
    .click();
  await expect(page.getByRole('dialog', { name: /What.s on at Home/ }).getByRole('list', { name: 'On now' })).toBeVisible();
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

const SCENES: Record<string, (page: Page) => Promise<void>> = {
  devices: showHome,
  history: showHistory,
  energy: showEnergy,
  'whats-on': showWhatsOn,
  webhooks: async (page) => {
    await closeDialog(page);
    await showWebhooks(page);
  },
  settings: showSettings,
};

for (const size of SIZES) {
  for (const theme of THEMES) {
    test(`${size.name} ${theme}`, async ({ browser }) => {
      const page = await signedIn(browser, size, theme);
      for (const [scene, show] of Object.entries(SCENES)) {
        await show(page);
        await page.mouse.move(0, 0); // no hover state in the picture
        await page.screenshot({ path: join(OUT, `${scene}-${size.name}-${theme}.png`) });
      }
      await page.context().close();
    });
  }
}
