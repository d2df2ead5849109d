/**
 * Honest about the link to the app (docs/device-controls.md, "Connection state and deadlines"): a browser host signed in against the stack (a
 * separate process), then the host killed outright (SIGKILL, no goodbye on the socket). The page
 * must say at once that it lost its connection and is reconnecting, its live indicator must read
 * "Unknown" instead of "Live", and its controls must be disabled — not wait for ever. Before that, the
 * signing-in screen shows the sign-in link (the one the host gave "the browser") with Copy and Open again.
 */
import { descendantsOf } from '../../support/process-tree';
import { expect } from '@playwright/test';
import { appPerFile } from '../support/fixtures';

const test = appPerFile('e2e-connection-state', { signIn: false });
test.describe.configure({ mode: 'serial' });

test('the signing-in screen shows the sign-in link with Copy and Open again', async ({ page, context, host, info }) => {
  await page.getByRole('button', { name: 'Sign in' }).click();
  const opened = await host.line('open-external: ');
  await expect(page.locator('.auth-link code')).toHaveText(opened);
  await expect(page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open again', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Open again', exact: true })).toBeEnabled();
  await expect(page.locator('.action-error')).toBeEmpty();

  // The link shown is the waiting sign-in's: following it by hand signs the app in.
  const consent = await context.newPage();
  await consent.goto(await page.locator('.auth-link code').innerText());
  await consent.getByLabel('Email').fill(info.user.email);
  await consent.getByLabel('Password').fill(info.user.password);
  await consent.getByRole('button', { name: 'Sign in' }).click();
  await consent.getByRole('button', { name: 'Allow' }).click();
  await expect(consent.getByRole('heading', { name: 'Back to Hubdesk' })).toBeVisible();
  await consent.close();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});

test('when the app behind the page dies, the page says so, shows Unknown and disables its controls', async ({ page, host }) => {
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  const devices = page.getByRole('region', { name: 'Devices on Home' });
  const indicator = devices.getByRole('status').filter({ hasText: /^Live$/ });
  await expect(indicator).toBeVisible();
  const light = devices.getByRole('article', { name: 'Ceiling light', exact: true });
  const onOff = light.getByRole('switch', { name: 'Ceiling light, on/off', exact: true });
  await expect(onOff).toBeEnabled();
  await expect(page.getByRole('alert').filter({ hasText: 'lost its connection' })).toHaveCount(0);

  // Killed outright, the host and anything it started: nothing closes the socket politely.
  for (const pid of [...descendantsOf(host.child.pid!).reverse(), host.child.pid!]) process.kill(pid, 'SIGKILL');

  // Reconnecting, then (a few attempts later) "not running": both say the link is down and that the page keeps trying.
  await expect(page.getByRole('alert').filter({ hasText: /Hubdesk lost its connection to the app and is reconnecting|Hubdesk is not running/ })).toBeVisible();
  const unknown = devices.locator('[role=status][data-live-state="unknown"]');
  await expect(unknown).toHaveText('Unknown');
  await expect(devices.getByRole('status').filter({ hasText: /^Live$/ })).toHaveCount(0);
  await expect(onOff).toBeDisabled();
  await expect(light.getByRole('button', { name: 'Favourite' })).toBeDisabled();
  await expect(devices.getByRole('button', { name: 'Trigger Good night', exact: true })).toBeDisabled();
});
