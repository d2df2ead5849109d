/**
 * A new user, end to end: the browser host (the real app core and renderer) against the reference
 * stack in its own process, driven in Chromium. The "system browser" is a second page of the same
 * browser, opened at the URL the app asked to open.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { createAesGcmCipher, loadOrCreateKey } from '../../../main/browser-host/aes-gcm-cipher';
import { DEMO_USER, type StackInfo } from '../../../services/stack';
import { signInThroughBrowser } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import { type RunningProgram, startProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

const RUNNING = 'Hubdesk is running at ';

const profile = tempDir('e2e-profile');

function startHost(info: StackInfo): RunningProgram {
  return startProgram('main/browser-host/bin.ts', ['--profile', profile, '--skip-build'], {
    HUBDESK_AUTH_URL: info.auth_url,
    HUBDESK_CLIENT_ID: info.client.id,
    HUBDESK_CLIENT_SECRET: info.client.secret,
    HUBDESK_OPEN_EXTERNAL: 'none',
  });
}

async function expectDevicesOfBothHubs(info: StackInfo, page: Page) {
  const hubs = page.getByRole('navigation', { name: 'Hubs' });
  for (const hub of info.hubs) {
    await hubs.getByRole('button', { name: hub.name, exact: true }).click();
    const devices = page.getByRole('region', { name: `Devices on ${hub.name}` });
    await expect(devices.getByRole('article').first()).toBeVisible();
    expect(await devices.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(0);
  }
  await hubs.getByRole('button', { name: 'Home', exact: true }).click();
  await expect.poll(() => page.getByRole('region', { name: 'Devices on Home' }).getByRole('article').count()).toBeGreaterThanOrEqual(20);
}

test('a fresh profile signs in through the consent page, sees both hubs, and stays signed in after a restart', async ({ browser, info }) => {
  const context = await browser.newContext();
  let host = startHost(info);
  try {
    const app = await context.newPage();
    await app.goto(await host.line(RUNNING));
    await expect(app).not.toHaveURL(/token=/); // the secret leaves the address bar at once
    await signInThroughBrowser(context, app, host, info.user);
    await expectDevicesOfBothHubs(info, app);

    // The token record on disk is encrypted: it decrypts with the profile's key, and neither token is in the file.
    const settings = readFileSync(join(profile, 'settings.json'), 'utf8');
    const [, record] = Object.entries(JSON.parse(settings) as Record<string, { data?: string }>).find(([key]) => key.startsWith('tokens:'))!;
    const key = loadOrCreateKey(join(profile, 'token-key'));
    const tokens = JSON.parse(await createAesGcmCipher(key).decrypt(record.data!)) as { access_token: string; refresh_token: string };
    expect(tokens.access_token.length).toBeGreaterThan(10);
    expect(settings).not.toContain(tokens.access_token);
    expect(settings).not.toContain(tokens.refresh_token);

    expect(await host.stop()).toBe(0);
    host = startHost(info);
    const again = await context.newPage();
    await again.goto(await host.line(RUNNING));
    await expect(again.getByRole('button', { name: 'Sign out' })).toBeVisible();
    // The first tab, resumed on the new run by itself, gave the app to the newer one (one tab at a time:
    // the two would take the one open hub from each other) and offers to take it back.
    await expect(app.getByRole('alert')).toContainText('Hubdesk is open in another tab.');
    await expect(app.getByRole('button', { name: 'Use here' })).toBeVisible();
    await expectDevicesOfBothHubs(info, again);
    expect(host.stderr()).not.toContain(tokens.refresh_token);
  } finally {
    await host.stop();
    await context.close();
  }
});

test('with no configuration the app runs against the built-in demo cloud and hubs', async ({ browser, info }) => {
  const context = await browser.newContext();
  const host = startProgram('main/browser-host/bin.ts', ['--profile', tempDir('e2e-embedded'), '--skip-build'], {
    HUBDESK_AUTH_URL: '',
    HUBDESK_CLIENT_ID: '',
    HUBDESK_CLIENT_SECRET: '',
    HUBDESK_OPEN_EXTERNAL: 'none',
  });
  try {
    const app = await context.newPage();
    await app.goto(await host.line(RUNNING));
    await expect(app.getByText('built-in demo cloud')).toBeVisible();
    await signInThroughBrowser(context, app, host, DEMO_USER);
    await expectDevicesOfBothHubs(info, app);
  } finally {
    await host.stop();
    await context.close();
  }
});

test('a page without the secret cannot drive the app', async ({ page, info }) => {
  const host = startHost(info);
  try {
    const url = new URL(await host.line(RUNNING));
    await page.goto(url.origin);
    await expect(page.getByText('not connected to Hubdesk')).toBeVisible();
  } finally {
    await host.stop();
  }
});
