/**
 * The styled controls (docs/device-controls.md, "Controls"), end to end against the reference stack: window coverings move with
 * Open / Stop / Close buttons and their position follows, a light's colour is chosen from the keyboard
 * with a swatch, each change confirmed by the hub (read back by another client of the hub); the
 * filters' styled selects still work from the keyboard.
 */
import { expect, type Locator } from '@playwright/test';
import { appPerFile } from '../support/fixtures';
import type { HubClient } from '../support/hub-client';

const test = appPerFile('e2e-controls', { home: true });
test.describe.configure({ mode: 'serial' });

const card = (home: Locator, name: string) => home.getByRole('article', { name, exact: true });
const valueOnHub = async (hub: HubClient, deviceName: string, capabilityId: string) => (await hub.device(deviceName)).capabilitiesObj?.[capabilityId]?.value;

test('window coverings: Close moves them down and their position follows, confirmed by the hub; the pressed button says where they go', async ({
  home,
  hub,
}) => {
  const blinds = card(home, 'Living room blinds');
  const moves = blinds.getByRole('group', { name: 'Move Living room blinds' });
  await expect(moves.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'true');
  await expect(blinds.getByRole('slider', { name: 'Position' })).toHaveAttribute('aria-valuetext', '70 %');
  await moves.getByRole('button', { name: 'Close' }).click();
  await expect(moves.getByRole('button', { name: 'Close' })).toHaveAttribute('aria-pressed', 'true');
  await expect(moves.getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => valueOnHub(hub, 'Living room blinds', 'windowcoverings_state')).toBe('down');
  // A cover travels to its end: the hub moves its position to 0, and the card follows the hub.
  await expect.poll(() => valueOnHub(hub, 'Living room blinds', 'windowcoverings_set')).toBe(0);
  await expect(blinds.getByRole('slider', { name: 'Position' })).toHaveAttribute('aria-valuetext', '0 %');
  await expect(blinds.locator('.device-state-text')).toHaveText('Closed');
});

test('a light’s colour is chosen from the keyboard with a swatch, and confirmed by the hub', async ({ page, home, hub }) => {
  const light = card(home, 'Ceiling light');
  const red = light.getByRole('group', { name: 'Colour of Ceiling light' }).getByRole('button', { name: 'Red' });
  await red.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => valueOnHub(hub, 'Ceiling light', 'light_hue')).toBe(0);
  await expect.poll(() => valueOnHub(hub, 'Ceiling light', 'light_saturation')).toBe(1);
  await expect(red).toHaveAttribute('aria-pressed', 'true');
  await expect(light.getByRole('slider', { name: 'Colour temperature' })).toHaveAttribute('aria-valuetext', '60 % warm');
});

test('the styled zone filter still works from the keyboard', async ({ home }) => {
  const zone = home.getByRole('combobox', { name: 'Zone' });
  await zone.focus();
  await zone.selectOption({ label: 'Kitchen' });
  await expect(card(home, 'Smoke alarm')).toBeVisible(); // in the kitchen
  await expect(card(home, 'Living room blinds')).toHaveCount(0);
  await zone.selectOption({ label: 'All zones' });
  await expect(card(home, 'Living room blinds')).toBeVisible();
});
