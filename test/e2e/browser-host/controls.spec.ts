/**
 * The styled controls (docs/device-controls.md, "Controls"), end to end against the reference stack: window coverings move with
 * Open / Stop / Close buttons and their position follows, a light's colour is chosen from the keyboard
 * with a swatch, each change confirmed by the hub (read back by another client of the hub); the
 * filters' styled selects still work from the keyboard.
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

test('window coverings: Close moves them down and their position follows, confirmed by the hub; the pressed button says where they go', async () => {
  const blinds = card('Living room blinds');
  const moves = blinds.getByRole('group', { name: 'Move Living room blinds' });
  await expect(moves.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'true');
  await expect(blinds.getByRole('slider', { name: 'Position' })).toHaveAttribute('aria-valuetext', '70 %');
  await moves.getByRole('button', { name: 'Close' }).click();
  await expect(moves.getByRole('button', { name: 'Close' })).toHaveAttribute('aria-pressed', 'true');
  await expect(moves.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => valueOnHub('Living room blinds', 'windowcoverings_state')).toBe('down');
  // A cover travels to its end: the hub moves its position to 0, and the card follows the hub.
  await expect.poll(() => valueOnHub('Living room blinds', 'windowcoverings_set')).toBe(0);
  await expect(blinds.getByRole('slider', { name: 'Position' })).toHaveAttribute('aria-valuetext', '0 %');
  await expect(blinds.locator('.device-state-text')).toHaveText('Closed');
});

test('a light’s colour is chosen from the keyboard with a swatch, and confirmed by the hub', async () => {
  const light = card('Ceiling light');
  const red = light.getByRole('group', { name: 'Colour of Ceiling light' }).getByRole('button', { name: 'Red' });
  await red.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => valueOnHub('Ceiling light', 'light_hue')).toBe(0);
  await expect.poll(() => valueOnHub('Ceiling light', 'light_saturation')).toBe(1);
  await expect(red).toHaveAttribute('aria-pressed', 'true');
  await expect(light.getByRole('slider', { name: 'Colour temperature' })).toHaveAttribute('aria-valuetext', '60 % warm');
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
