/**
 * Route details end to end (docs/security.md, "Route trust"): the app says which route it uses and why the others were
 * not used, the plain LAN route is called unencrypted, and the user can refuse it. The browser host
 * runs against a separately started stack without its CA, so Home's secure LAN route has an untrusted
 * certificate and the app falls back to the plain LAN route (where the hub proves who it is).
 */

import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { openApp, signInThroughBrowser, startBrowserHost, startStackProgram } from '../support/browser-host';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

test.describe.configure({ mode: 'serial' });

let stack: RunningProgram;
let host: RunningProgram;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  let info: StackInfo;
  ({ stack, info } = await startStackProgram());
  host = startBrowserHost(info, tempDir('e2e-routes'));
  context = await browser.newContext();
  page = await openApp(context, host);
  await signInThroughBrowser(context, page, host, info.user);
});

test.afterAll(async () => {
  await context?.close();
  await host?.stop();
  expect(await stack?.stop()).toBe(0);
});

const homeDevices = () => page.getByRole('region', { name: 'Devices on Home' });

test('the route in use is named unencrypted, and the details say why the secure route was not used', async () => {
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  await expect(
    homeDevices()
      .getByRole('status')
      .getByText(/Unencrypted LAN · \d+ ms/),
  ).toBeVisible();
  await homeDevices().getByText('Other routes').click();
  await expect(homeDevices().getByText('Secure LAN: untrusted certificate')).toBeVisible();
  await expect(homeDevices().getByRole('checkbox', { name: /Use an unencrypted LAN connection/ })).toBeChecked();
});

test('refusing unencrypted connections moves the hub to its remote route, says why, and is kept after a reload', async () => {
  // The box shows main's setting, not the click: it changes once main has stored the choice.
  const setting = homeDevices().getByRole('checkbox', { name: /Use an unencrypted LAN connection/ });
  await setting.click();
  await expect(setting).not.toBeChecked();
  await expect(
    homeDevices()
      .getByRole('status')
      .getByText(/Remote · \d+ ms/),
  ).toBeVisible();
  await expect(homeDevices().getByText('Unencrypted LAN: not used: you chose not to use unencrypted connections')).toBeVisible();

  await page.reload();
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  await expect(
    homeDevices()
      .getByRole('status')
      .getByText(/Remote · \d+ ms/),
  ).toBeVisible();
  await homeDevices().getByText('Other routes').click();
  await expect(homeDevices().getByRole('checkbox', { name: /Use an unencrypted LAN connection/ })).not.toBeChecked();
});
