/**
 * Notifications in the browser host (docs/architecture.md, "The desktop"), end to end: the stack runs in this process so the
 * test can trip a sensor on the reference hub (the hub reports it over realtime, as a real sensor
 * would); the browser host's core decides and sends `desktop.notification`; the renderer shows it with
 * the Web Notifications API once the browser allows notifications. Each kind can be switched off in
 * Settings, and the switch is kept by main (it survives a reload).
 *
 * The page's `Notification` is wrapped (the real one still runs) so the test can see what was shown.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { type RunningStack, startStack } from '../../../services/stack';
import { openApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import { connectHubClient, type HubClient } from '../support/hub-client';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

declare const window: { __shown: { title: string; body: string | undefined }[] };

test.describe.configure({ mode: 'serial' });

let stack: RunningStack;
let host: RunningProgram;
let context: BrowserContext;
let page: Page;
let hubClient: HubClient;

/** Records each notification the page shows, then lets the browser's own Notification show it (page script: the tests have no DOM types). */
const RECORD_NOTIFICATIONS = `
  const Real = window.Notification;
  window.__shown = [];
  class Recorded extends Real {
    constructor(title, options) {
      window.__shown.push({ title, body: options && options.body });
      super(title, options);
    }
    static get permission() { return Real.permission; }
    static requestPermission() { return Real.requestPermission(); }
  }
  window.Notification = Recorded;
`;

const shown = () => page.evaluate(() => window.__shown);

test.beforeAll(async ({ browser }) => {
  stack = await startStack({ remoteLatencyMs: 0 });
  hubClient = await connectHubClient(stack.info, 'Home');
  host = startBrowserHost(stack.info, tempDir('e2e-notifications'));
  context = await browser.newContext();
  await context.grantPermissions(['notifications']);
  await context.addInitScript({ content: RECORD_NOTIFICATIONS });
  page = await openApp(context, host);
  await signInThroughBrowser(context, page, host, stack.info.user);
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  await expect(
    page
      .getByRole('region', { name: 'Devices on Home' })
      .getByRole('status')
      .filter({ hasText: /^Live$/ }),
  ).toBeVisible();
});
test.afterAll(async () => {
  await context?.close();
  await host?.stop();
  await stack?.close();
});

/** Trips (or resets) a sensor on Home, as the sensor itself would report it. */
async function report(deviceName: string, capabilityId: string, value: boolean): Promise<void> {
  const device = await hubClient.device(deviceName);
  expect(stack.hubs[0]!.report(device.id, capabilityId, value)).toBe(true);
}

const notificationSwitch = (name: string) => page.getByRole('group', { name: 'Notifications' }).getByRole('checkbox', { name });

test('a smoke alarm turning on is shown as a browser notification', async () => {
  await report('Smoke alarm', 'alarm_smoke', true);
  await expect.poll(shown).toEqual([{ title: 'Smoke alarm', body: 'Kitchen, Home' }]);
  await report('Smoke alarm', 'alarm_smoke', false);
});

test('Settings says the browser allows notifications, and a kind switched off is not shown, even after a reload', async () => {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByText('This browser shows Hubdesk’s notifications.')).toBeVisible();
  await expect(notificationSwitch('Motion')).not.toBeChecked(); // everyday events are off until asked for
  await notificationSwitch('Smoke and fire alarms').click(); // the box follows main's answer, not the click
  await expect(notificationSwitch('Smoke and fire alarms')).not.toBeChecked();
  await page.reload();
  await expect(notificationSwitch('Smoke and fire alarms')).not.toBeChecked(); // kept by main
  await expect(notificationSwitch('Water leaks')).toBeChecked();
  await page.evaluate(() => void window.__shown.splice(0));

  // The leak is reported after the smoke: once it is shown, the smoke alarm had its chance and was not.
  await report('Smoke alarm', 'alarm_smoke', true);
  await report('Water leak sensor', 'alarm_water', true);
  await expect.poll(shown).toEqual([{ title: 'Water leak sensor', body: 'Kitchen, Home' }]);
  await report('Smoke alarm', 'alarm_smoke', false);
  await report('Water leak sensor', 'alarm_water', false);
});

test('the desktop-only settings say why they are missing in the browser', async () => {
  await expect(page.getByText('The tray icon and starting at login belong to the desktop app; Hubdesk in a browser has neither.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /tray/ })).toHaveCount(0);
});
