/**
 * The styled controls (issue 13 §5), end to end against the reference stack: window coverings move with
 * Open / Stop / Close buttons, a light's hue is set from the keyboard on its colour track, each change
 * confirmed by the hub (read back by another client of the hub); the filters' styled selects still work
 * from the keyboard.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type SignedInApp, startAppOnHome } from '../support/browser-host';
import type { HubClient } from '../support/hub-client';

test.describe.configure({ mode: 'serial' });

let app: SignedInApp;
let page: Page;
let home: Locator;
let hub: HubClient;

test.beforeAll(async ({ browser }) => {
  ({ app, page, home, hub } = await startAppOnHome(browser, 'e2e-controls'));
});
test.afterAll(() => app?.close());

const card = (name: string) => home.getByRole('article', { name, exact: true });
const valueOnHub = async (deviceName: string, capabilityId: string) => (await hub.device(deviceName)).capabilitiesObj?.[capabilityId]?.value;

test('window coverings: Close moves them down, confirmed by the hub; the pressed button says where they go', async () => {
  const moves = card('Living room blinds').getByRole('group', { name: 'Window coverings state' });
  await expect(moves.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'true');
  await moves.getByRole('button', { name: 'Close' }).click();
  await expect(moves.getByRole('button', { name: 'Close' })).toHaveAttribute('aria-pressed', 'true');
  await expect(moves.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => valueOnHub('Living room blinds', 'windowcoverings_state')).toBe('down');
});

test('a light’s hue is set from the keyboard, shown in degrees, and confirmed by the hub', async () => {
  const hue = card('Ceiling light').getByRole('slider', { name: 'Hue' });
  await expect(hue).toHaveAttribute('aria-valuetext', '36°');
  await hue.focus();
  await page.keyboard.press('ArrowRight');
  await expect(hue).toHaveAttribute('aria-valuetext', '40°');
  await expect.poll(() => valueOnHub('Ceiling light', 'light_hue')).toBe(0.11);
  await expect(card('Ceiling light').getByRole('slider', { name: 'Colour temperature' })).toHaveAttribute('aria-valuetext', '60 % warm');
});

test('the styled zone filter still works from the keyboard', async () => {
  const zone = home.getByRole('combobox', { name: 'Zone' });
  await zone.focus();
  await zone.selectOption({ label: 'Kitchen' });
  await expect(card('Smoke alarm')).toBeVisible(); // in the kitchen
  await expect(card('Living room blinds')).toHaveCount(0);
  await zone.selectOption({ label: 'All zones' });
  await expect(card('Living room blinds')).toBeVisible();
});
