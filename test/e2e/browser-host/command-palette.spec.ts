/**
 * The command palette and the shortcuts sheet (docs/architecture.md, "The desktop"), end to end: a browser host against the
 * reference stack in Chromium, driven from the keyboard only. Ctrl+K finds a device and Enter switches it
 * (confirmed by the hub); a number is set in a second step (a value out of range is refused in place); a
 * flow is started; the other hub opened; Escape closes and gives the focus back; `?` shows the shortcuts,
 * but not while typing in a text field.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { appPerFile } from '../support/fixtures';

const test = appPerFile('e2e-command-palette', { home: true });
test.describe.configure({ mode: 'serial' });

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const searchBox = (page: Page) => palette(page).getByRole('combobox');
const card = (home: Locator, name: string) => home.getByRole('article', { name, exact: true });

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await expect(searchBox(page)).toBeFocused();
}

test('Ctrl+K finds a device by words of its name, and Enter switches it, confirmed by the hub', async ({ page, home }) => {
  const lamp = card(home, 'Floor lamp').getByRole('switch', { name: 'Floor lamp, on/off', exact: true });
  await expect(lamp).toHaveAttribute('aria-checked', 'false');
  await openPalette(page);
  await page.keyboard.type('floor switch');
  await expect(palette(page).getByRole('option', { selected: true })).toContainText('Floor lamp: On/off');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(lamp).toHaveAttribute('aria-checked', 'true');
  await expect(card(home, 'Floor lamp').getByRole('img', { name: 'Not confirmed yet' })).toHaveCount(0); // the hub confirmed it
});

test('a number is set in a second step, and a value out of range is refused where it was typed', async ({ page, home }) => {
  await openPalette(page);
  await page.keyboard.type('living thermostat target');
  await page.keyboard.press('Enter');
  const value = palette(page).getByRole('textbox', { name: /^New value for Living room thermostat: Target temperature/ });
  await expect(value).toBeFocused();
  await page.keyboard.type('99');
  await page.keyboard.press('Enter');
  await expect(palette(page).getByRole('alert')).toHaveText('Choose a value from 5 to 35 °C.');
  await value.fill('22.5');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(card(home, 'Living room thermostat').getByRole('slider', { name: 'Target temperature' })).toHaveAttribute('aria-valuetext', '22.5 °C');
});

test('Escape goes back a step, then closes, and the focus returns where it was', async ({ page, home }) => {
  const search = home.getByRole('searchbox', { name: 'Search devices' });
  await search.focus();
  await openPalette(page);
  await page.keyboard.type('living thermostat target');
  await page.keyboard.press('Enter');
  await expect(palette(page).getByRole('textbox')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(searchBox(page)).toBeFocused(); // back at the search step
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
  await expect(search).toBeFocused();
});

test('a flow is started and another hub opened from the palette; an unknown word says so', async ({ page, home }) => {
  await openPalette(page);
  await page.keyboard.type('xyzzy');
  await expect(palette(page).getByRole('status')).toHaveText('No matches for “xyzzy”');
  await searchBox(page).fill('good night');
  await page.keyboard.press('Enter');
  await expect(home.getByRole('region', { name: 'Flows' }).getByRole('listitem').filter({ hasText: 'Good night' }).getByRole('status')).toHaveText('Started');

  await openPalette(page);
  await page.keyboard.type('cabin');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Devices on Holiday cabin' })).toBeVisible();
});

test('? shows every shortcut, but is only text inside a text field', async ({ page }) => {
  await page.getByRole('heading', { name: 'Hubdesk' }).click(); // focus on the page, not in a field
  await page.keyboard.press('Shift+?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('term')).toContainText(['Ctrl+K', 'Ctrl+1…9', '?']);
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  const search = page.getByRole('region', { name: 'Devices on Holiday cabin' }).getByRole('searchbox', { name: 'Search devices' });
  await search.fill('');
  await search.press('Shift+?');
  await expect(search).toHaveValue('?');
  await expect(sheet).toBeHidden();
});
