/**
 * The app shell, end to end: a browser host against the reference stack, driven in Chromium in a small
 * window that still has the whole sidebar (1000×700; narrower, it is a rail: window-sizes.spec.ts). The header and the sidebar stay put while the
 * device grid scrolls in its own region (the page itself never scrolls, nothing overflows sideways);
 * Ctrl+2 opens the second hub; the sidebar collapse, the theme, the last hub and the last view survive
 * a reload (they are kept in the renderer's storage).
 */
import { expect, type Page } from '@playwright/test';
import { appPerFile } from '../support/fixtures';

// The page functions run in Chromium; tests are type-checked without the DOM library.
declare const document: {
  scrollingElement: { scrollTop: number; scrollLeft: number; scrollWidth: number; clientWidth: number } | null;
  documentElement: { dataset: Record<string, string | undefined> };
};
/** The box of a scrolling element, as the page functions read it. */
interface ScrollBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  scrollWidth: number;
  clientWidth: number;
}
declare const getComputedStyle: (element: unknown) => { colorScheme: string; backgroundColor: string };

const test = appPerFile('e2e-app-shell', { viewport: { width: 1000, height: 700 } });
test.describe.configure({ mode: 'serial' });

const hubList = (page: Page) => page.getByRole('navigation', { name: 'Hubs' });
const hubButtons = (page: Page) => hubList(page).getByRole('listitem').getByRole('button');
const devicesOf = (page: Page, hubName: string) => page.getByRole('region', { name: `Devices on ${hubName}` });

/** How far the document itself is scrolled, and whether it is wider than the window. */
const pageScroll = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement!;
    return { top: root.scrollTop, left: root.scrollLeft, overflowsSideways: root.scrollWidth > root.clientWidth };
  });

test('in a small window the header and the sidebar stay in place while the device grid scrolls in its own region', async ({ page }) => {
  await hubList(page).getByRole('button', { name: 'Home', exact: true }).click();
  await expect.poll(() => devicesOf(page, 'Home').getByRole('article').count()).toBeGreaterThanOrEqual(20);

  const header = page.getByRole('banner');
  const content = page.getByRole('main');
  const headerBefore = await header.boundingBox();
  const hubsBefore = await hubList(page).boundingBox();
  expect(headerBefore).not.toBeNull();
  expect(headerBefore!.y).toBe(0);
  // The grid is taller than its region: there is something to scroll.
  expect(await content.evaluate((element) => (element as unknown as ScrollBox).scrollHeight > (element as unknown as ScrollBox).clientHeight)).toBe(true);

  await content.hover();
  await page.mouse.wheel(0, 1500);
  await expect.poll(() => content.evaluate((element) => (element as unknown as ScrollBox).scrollTop)).toBeGreaterThan(200);

  expect(await header.boundingBox()).toEqual(headerBefore);
  expect(await hubList(page).boundingBox()).toEqual(hubsBefore);
  await expect(header).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeInViewport();
  await expect(hubList(page).getByRole('button', { name: 'Home', exact: true })).toBeInViewport();
  await expect(page.getByRole('tab', { name: 'Settings' })).toBeInViewport();
  expect(await pageScroll(page)).toEqual({ top: 0, left: 0, overflowsSideways: false });
  // Nor does the content region itself overflow sideways at this width.
  expect(await content.evaluate((element) => (element as unknown as ScrollBox).scrollWidth <= (element as unknown as ScrollBox).clientWidth)).toBe(true);
});

test('Ctrl+2 opens the second hub of the sidebar, and the last hub is open again after a reload', async ({ page }) => {
  const names = await hubButtons(page).allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(2);
  const second = names[1]!;
  await page.getByRole('heading', { name: 'Hubdesk' }).click(); // focus outside any text field
  await page.keyboard.press('ControlOrMeta+2');
  await expect(hubList(page).getByRole('button', { name: second, exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(devicesOf(page, second).getByRole('article').first()).toBeVisible();

  await page.reload();
  await expect(hubList(page).getByRole('button', { name: second, exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(devicesOf(page, second).getByRole('article').first()).toBeVisible();

  await page.keyboard.press('ControlOrMeta+1');
  await expect(hubList(page).getByRole('button', { name: names[0]!, exact: true })).toHaveAttribute('aria-current', 'true');
});

test('the sidebar collapses and stays collapsed after a reload', async ({ page }) => {
  const toggle = page.getByRole('button', { name: 'Sidebar' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(hubList(page)).toBeHidden();
  expect((await pageScroll(page)).overflowsSideways).toBe(false);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Sidebar' })).toHaveAttribute('aria-expanded', 'false');
  await expect(hubList(page)).toBeHidden();
  await page.getByRole('button', { name: 'Sidebar' }).click();
  await expect(hubList(page)).toBeVisible();
});

test('the dark theme chosen in Settings sets data-theme and survives a reload, with the Settings view', async ({ page }) => {
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const scheme = () => page.evaluate(() => getComputedStyle(document.scrollingElement).colorScheme);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByRole('tabpanel', { name: 'Settings' });
  await settings.getByRole('radio', { name: 'Light' }).check();
  expect(await theme()).toBe('light');
  expect(await scheme()).toBe('light');
  const lightBackground = await page.evaluate(() => getComputedStyle(document.scrollingElement).backgroundColor);

  await settings.getByRole('radio', { name: 'Dark' }).check();
  expect(await theme()).toBe('dark');
  expect(await scheme()).toBe('dark');
  expect(await page.evaluate(() => getComputedStyle(document.scrollingElement).backgroundColor)).not.toBe(lightBackground);

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Settings' }).getByRole('radio', { name: 'Dark' })).toBeChecked();
  expect(await theme()).toBe('dark');

  // Back to Hubs: the hub list and the devices show as before.
  await page.getByRole('tab', { name: 'Hubs' }).click();
  await expect(devicesOf(page, 'Home').getByRole('article').first()).toBeVisible();
});
