/**
 * Comes back by itself (docs/architecture.md, "Control and the open hub"), end to end in the browser: the stack runs in this process, and
 * the hub the user is looking at moves to new ports (its route dies, a new one appears, and the cloud
 * record says where). With no click from the user the view goes through "Reconnecting" and is live
 * again, and a change another client then makes on the hub appears on the card.
 */
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { type RunningStack, startStack } from '../../../services/stack';
import { openApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import { connectHubClient } from '../support/hub-client';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

// Runs in the page; the tests are type-checked without the DOM library.
declare const MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };

let stack: RunningStack;
let host: RunningProgram;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  stack = await startStack({ remoteLatencyMs: 0 });
  host = startBrowserHost(stack.info, tempDir('e2e-recovery'));
  context = await browser.newContext();
  page = await openApp(context, host);
  await signInThroughBrowser(context, page, host, stack.info.user);
});
test.afterAll(async () => {
  await context?.close();
  await host?.stop();
  await stack?.close();
});

const liveStatus = (devices: Locator) => devices.getByRole('status').filter({ hasText: /^(Live|Connecting|Reconnecting.*)$/ });
const lampSwitch = (devices: Locator) =>
  devices.getByRole('article', { name: 'Floor lamp', exact: true }).getByRole('switch', { name: 'Floor lamp, on/off', exact: true });

test('the open hub moves to new addresses: live again with no user action, and changes arrive', async () => {
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  const devices = page.getByRole('region', { name: 'Devices on Home' });
  await expect(liveStatus(devices)).toHaveText('Live');
  await expect(lampSwitch(devices)).toHaveAttribute('aria-checked', 'false');

  // Every state the indicator shows is recorded, so a brief "Reconnecting" is seen however fast it passes.
  await devices
    .getByRole('status')
    .first()
    .evaluate((status) => {
      const seen: string[] = [];
      (globalThis as unknown as { __liveSeen: string[] }).__liveSeen = seen;
      new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, { subtree: true, characterData: true, childList: true });
    });
  const homeId = stack.info.hubs.find((hub) => hub.name === 'Home')!.id;
  await stack.relocateHub(homeId);

  await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __liveSeen: string[] }).__liveSeen.some((text) => text !== 'Live'))).toBe(true);
  await expect(liveStatus(devices)).toHaveText('Live');
  const other = await connectHubClient(stack.info, 'Home'); // at the hub's new address
  const lamp = await other.device('Floor lamp');
  await other.setCapability(lamp.id, 'onoff', true);
  await expect(lampSwitch(devices)).toHaveAttribute('aria-checked', 'true');
});
