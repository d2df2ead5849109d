/**
 * Route details end to end (docs/security.md, "Route trust"): the app says which route it uses and why the others were
 * not used, the plain LAN route is called unencrypted, and the user can refuse it. The browser host
 * runs against a separately started stack without its CA, so Home's secure LAN route has an untrusted
 * certificate and the app falls back to the plain LAN route (where the hub proves who it is).
 */

import { expect, type Page } from '@playwright/test';
import { appPerFile } from '../support/fixtures';

const test = appPerFile('e2e-routes');
test.describe.configure({ mode: 'serial' });

const homeDevices = (page: Page) => page.getByRole('region', { name: 'Devices on Home' });

test('the route in use is named unencrypted, and the details say why the secure route was not used', async ({ page }) => {
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  await expect(
    homeDevices(page)
      .getByRole('status')
      .getByText(/Unencrypted LAN · \d+ ms/),
  ).toBeVisible();
  await homeDevices(page).getByText('Other routes').click();
  await expect(homeDevices(page).getByText('Secure LAN: untrusted certificate')).toBeVisible();
  await expect(homeDevices(page).getByRole('checkbox', { name: /Use an unencrypted LAN connection/ })).toBeChecked();
});

test('refusing unencrypted connections moves the hub to its remote route, says why, and is kept after a reload', async ({ page }) => {
  // The box shows main's setting, not the click: it changes once main has stored the choice.
  const setting = homeDevices(page).getByRole('checkbox', { name: /Use an unencrypted LAN connection/ });
  await setting.click();
  await expect(setting).not.toBeChecked();
  await expect(
    homeDevices(page)
      .getByRole('status')
      .getByText(/Remote · \d+ ms/),
  ).toBeVisible();
  await expect(homeDevices(page).getByText('Unencrypted LAN: not used: you chose not to use unencrypted connections')).toBeVisible();

  await page.reload();
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  await expect(
    homeDevices(page)
      .getByRole('status')
      .getByText(/Remote · \d+ ms/),
  ).toBeVisible();
  await homeDevices(page).getByText('Other routes').click();
  await expect(homeDevices(page).getByRole('checkbox', { name: /Use an unencrypted LAN connection/ })).not.toBeChecked();
});
