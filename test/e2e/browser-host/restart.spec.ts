/**
 * A tab of a restarted browser host (docs/architecture.md, "The browser host across restarts"), end
 * to end: the host stopped and started again on the same profile under an open, signed-in tab. The
 * tab says Hubdesk is not running meanwhile, then works again with no user action: the same port, a
 * new secret it got by proving the last run's resume key, its hub live, a change made elsewhere shown
 * and a switch that works. The old address (the last run's secret) alone no longer opens the app.
 * When the port was taken meanwhile, the tab says what to do, and the new address works.
 */
import { createServer } from 'node:net';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { openHomeLive, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import { connectHubClient } from '../support/hub-client';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

const RUNNING = 'Hubdesk is running at ';

let context: BrowserContext;
let host: RunningProgram | undefined;
test.beforeEach(async ({ browser }) => {
  context = await browser.newContext();
});
test.afterEach(async () => {
  await context.close();
  await host?.stop();
});

/** A signed-in tab of a new host on `profile`, and the address the host printed. */
async function signedInTab(info: StackInfo, profile: string): Promise<{ page: Page; address: URL }> {
  host = startBrowserHost(info, profile);
  const address = new URL(await host.line(RUNNING));
  const page = await context.newPage();
  await page.goto(address.href);
  await signInThroughBrowser(context, page, host, info.user);
  return { page, address };
}

test('restarted on the same profile: the open tab works again with no user action, and the old secret alone is refused', async ({ info }) => {
  const profile = tempDir('e2e-restart');
  const { page, address } = await signedInTab(info, profile);
  const home = await openHomeLive(page);

  expect(await host!.stop()).toBe(0);
  const banner = page.getByRole('alert').filter({ hasText: 'Hubdesk is not running.' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('connects again by itself');

  host = startBrowserHost(info, profile);
  const again = new URL(await host.line(RUNNING));
  expect(again.origin).toBe(address.origin); // the port of the last run, free again
  expect(again.hash).not.toBe(address.hash); // and a new secret

  await expect(page.locator('.link-banner')).toHaveCount(0);
  await expect(home.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  expect(page.url()).not.toContain('token=');
  // Really live on the new host: a change made elsewhere arrives, and a switch works.
  const hub = await connectHubClient(info, 'Home');
  const lamp = await hub.device('Floor lamp');
  const lampSwitch = home.getByRole('article', { name: 'Floor lamp', exact: true }).getByRole('switch', { name: 'Floor lamp, on/off', exact: true });
  await hub.setCapability(lamp.id, 'onoff', true);
  await expect(lampSwitch).toHaveAttribute('aria-checked', 'true');
  await lampSwitch.click();
  await expect.poll(async () => (await hub.device('Floor lamp')).capabilitiesObj?.onoff?.value).toBe(false);

  // The last run's address, secret and all, in a fresh tab: it holds no resume key, so it cannot drive the app.
  const stale = await context.newPage();
  await stale.goto(address.href);
  await expect(stale.locator('.link-banner')).toContainText('does not accept this page');
  await expect(stale.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});

test('when the last run’s port was taken meanwhile, the tab says what to do, and the new address works', async ({ info }) => {
  const profile = tempDir('e2e-restart-moved');
  const { page, address } = await signedInTab(info, profile);
  expect(await host!.stop()).toBe(0);

  const squatter = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => squatter.listen(Number(address.port), '127.0.0.1', resolve));
  try {
    host = startBrowserHost(info, profile);
    const moved = new URL(await host.line(RUNNING));
    expect(moved.origin).not.toBe(address.origin);
    const banner = page.getByRole('alert').filter({ hasText: 'Hubdesk is not running.' });
    await expect(banner).toContainText('If Hubdesk started again at another address, open the address it printed.');

    const fresh = await context.newPage();
    await fresh.goto(moved.href);
    await expect(fresh.getByRole('button', { name: 'Sign out' })).toBeVisible();
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
});
