/**
 * The webhook inspector's layout end to end (docs/webhooks-app.md, "Layout", "Rows and routing words",
 * "Keyboard"): the browser host and the reference stack in their own processes, driven in Chromium.
 * From 1100 px a message's details open beside the list, in view, each pane its own scroll area, the
 * split remembered; narrower they replace the list, with Back. Rows say whom the forwarder sent a
 * message to in names; the keys move, open, replay, copy and search; axe finds nothing to fix.
 */
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { axeViolations } from '../support/axe';
import type { StackInfo } from '../../../services/stack';
import { addWebhookInApp, openApp, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

// The page functions run in Chromium; tests are type-checked without the DOM library.
interface StyledElement {
  parentElement: StyledElement | null;
  id: string;
  tagName: string;
  className: string;
  getAttribute(name: string): string | null;
}
declare const getComputedStyle: (element: StyledElement) => { overflowX: string; overflowY: string };

const opened: { context: BrowserContext; host: RunningProgram }[] = [];
test.afterEach(async () => {
  for (const { context, host } of opened.splice(0)) {
    await context.close();
    await host.stop();
  }
});

/**
 * This test's key value: each test's app registers with its own, since the listeners of earlier tests stay
 * registered at the forwarder (for their resume buffers) and would match too.
 */
let key = '';

/** A browser host with the demo webhook added (key value `key`, with the tap), in a window of `viewport`. */
async function openInspector(
  info: StackInfo,
  browser: Browser,
  name: string,
  viewport: { width: number; height: number },
  options: { colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {},
): Promise<Page> {
  const host = startBrowserHost(info, tempDir(`e2e-inspector-layout-${name}`));
  const context = await browser.newContext({ viewport, ...options });
  opened.push({ context, host });
  const page = await openApp(context, host);
  key = `lamp-${name}`;
  await addWebhookInApp(page, { id: info.webhook.id, secret: info.webhook.secret, tapCredential: info.webhook.tap_credential, values: key });
  await expect(page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status')).toHaveText('Connected');
  return page;
}

async function post(info: StackInfo, body: unknown, query = ''): Promise<void> {
  const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
}

/** Posts `count` messages for this app (n = 0 … count-1, the newest last) and waits until all are listed. */
async function postMany(info: StackInfo, page: Page, count: number): Promise<void> {
  for (let n = 0; n < count; n++) await post(info, { device: { id: key }, n });
  await expect(page.getByText(`${count} messages`)).toBeVisible();
}

const messages = (page: Page) => page.getByRole('list', { name: 'Webhook messages' });
const rows = (page: Page) => messages(page).getByRole('button');
const selectedRow = (page: Page) => messages(page).locator('button[aria-current="true"]');
const selectedItem = (page: Page) => messages(page).locator('[role="listitem"]:has(button[aria-current="true"])');
const details = (page: Page) => page.getByRole('region', { name: 'Message details' });
const bodyOf = (page: Page) => details(page).getByRole('group', { name: 'Body' });
const firstDetailLine = (page: Page) => details(page).getByRole('heading', { level: 2 });

/** The elements from `locator`'s up to the document whose computed overflow makes them scroll areas, innermost first. */
const scrollAreasAround = (page: Page, locator: ReturnType<Page['locator']>) =>
  locator.evaluate((element: StyledElement) => {
    const found: string[] = [];
    for (let node: StyledElement | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (/auto|scroll/.test(style.overflowY) || /auto|scroll/.test(style.overflowX))
        found.push(node.getAttribute('aria-label') ?? (node.id ? `#${node.id}` : `${node.tagName.toLowerCase()}.${node.className}`));
    }
    return found;
  });

test('at 1280×800 a message opens beside the list and in view; each pane is its own scroll area; the Hubs list leaves the sidebar', async ({
  browser,
  info,
}) => {
  const page = await openInspector(info, browser, 'wide', { width: 1280, height: 800 });
  // Enough messages that the list scrolls.
  await postMany(info, page, 30);

  // The sidebar keeps the view tabs, without the hub list, on this tab only.
  await expect(page.getByRole('tab', { name: 'Hubs' })).toBeVisible();

  const list = messages(page);
  await rows(page).nth(2).click();
  await expect(bodyOf(page).getByText('27', { exact: true })).toBeVisible();
  const line = await firstDetailLine(page).boundingBox();
  const listBox = await page.locator('.inspector-scroll').boundingBox();
  expect(line).not.toBeNull();
  expect(listBox).not.toBeNull();
  // In the window, not below the list: beside it, on its right.
  expect(line!.y).toBeGreaterThanOrEqual(0);
  expect(line!.y + line!.height).toBeLessThanOrEqual(800);
  expect(line!.x).toBeGreaterThan(listBox!.x + listBox!.width);
  await expect(firstDetailLine(page)).toHaveText(new RegExp(`^POST /webhook/${info.webhook.id}$`));

  // One scroll area per pane: the details pane holds the detail line, the list pane the rows, the side its registrations; nothing around them scrolls.
  expect(await scrollAreasAround(page, firstDetailLine(page))).toEqual(['Message details']);
  expect(await scrollAreasAround(page, list)).toEqual(['div.inspector-scroll']);
  expect(await scrollAreasAround(page, page.getByRole('list', { name: 'Webhooks' }))).toEqual(['div.webhooks-side']);
  // And the list pane does scroll: its rows are taller than it.
  expect(
    await page
      .locator('.inspector-scroll')
      .evaluate(
        (element) =>
          (element as unknown as { scrollHeight: number; clientHeight: number }).scrollHeight > (element as unknown as { clientHeight: number }).clientHeight,
      ),
  ).toBe(true);
});

test('rows name whom the forwarder sent a message to, in full on hover and in the details; today’s rows show the time alone', async ({ browser, info }) => {
  const page = await openInspector(info, browser, 'rows', { width: 1280, height: 800 });
  await post(info, { device: { id: key } }, '?source=test');
  await post(info, { device: { id: 'x' } });
  await expect(page.getByText('2 messages')).toBeVisible();

  const nobody = rows(page).first();
  const routing = nobody.locator('.cell-routing');
  await expect(routing).toHaveText('nothing: body.device.id = "x" matches no registration');
  await expect(routing).toHaveAttribute('title', 'nothing: body.device.id = "x" matches no registration');
  await expect(nobody.getByText('No match', { exact: true })).toBeVisible();

  const mine = rows(page).nth(1);
  await expect(mine.locator('.cell-routing')).toHaveText(`this app (key ${key})`);
  await expect(mine.locator('.cell-path')).toHaveText(`/webhook/${info.webhook.id}?source=test`);
  await expect(mine.getByText('This app', { exact: true })).toBeVisible();
  await expect(mine.getByText(info.webhook.name, { exact: true })).toBeVisible();
  await expect(mine.locator('.cell-size')).toHaveText(`${JSON.stringify({ device: { id: key } }).length} B`);
  // Today: the time alone, as this browser's locale writes it.
  await expect(mine.locator('.cell-time')).toHaveText(/^\d{1,2}:\d{2}:\d{2}$/);

  await mine.click();
  await expect(details(page).getByText(`Matched this app (key ${key}) because body.device.id = "${key}".`, { exact: true })).toBeVisible();
  await expect(
    details(page)
      .getByRole('definition')
      .filter({ hasText: `this app (key ${key})` }),
  ).toHaveText(`this app (key ${key})`);
  // Never a listener id.
  await expect(details(page).getByText(/hubdesk-|listener/i)).toHaveCount(0);
});

test('the split moves with the keyboard and is remembered after a reload', async ({ browser, info }) => {
  const page = await openInspector(info, browser, 'split', { width: 1280, height: 800 });
  await post(info, { device: { id: key } });
  await rows(page).first().click();
  const separator = page.getByRole('separator', { name: 'Resize the message list' });
  await expect(separator).toHaveAttribute('aria-valuenow', '50');
  const before = (await details(page).boundingBox())!.x;
  await separator.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(separator).toHaveAttribute('aria-valuenow', '40');
  expect((await details(page).boundingBox())!.x).toBeLessThan(before);
  const moved = (await details(page).boundingBox())!.x;

  await page.reload();
  await expect(separator).toHaveAttribute('aria-valuenow', '40');
  await rows(page).first().click();
  expect((await details(page).boundingBox())!.x).toBe(moved);
});

test('at 900×700 a message replaces the list; Back and Escape return to it with the selection kept', async ({ browser, info }) => {
  const page = await openInspector(info, browser, 'narrow', { width: 900, height: 700 });
  await postMany(info, page, 12);
  await expect(page.getByRole('separator', { name: 'Resize the message list' })).toHaveCount(0);
  await expect(details(page)).toBeHidden();

  await rows(page).nth(3).click();
  await expect(bodyOf(page).getByText('8', { exact: true })).toBeVisible();
  await expect(messages(page)).toBeHidden();
  await expect(details(page)).toBeFocused();
  await expect(firstDetailLine(page)).toBeInViewport();
  // The view scrolls as one: the detail line is inside no scroll area but the content region.
  expect(await scrollAreasAround(page, firstDetailLine(page))).toEqual(['#root']); // signed out, the page's root is the content region

  await details(page).getByRole('button', { name: 'Back to messages' }).click();
  await expect(messages(page)).toBeVisible();
  await expect(details(page)).toBeHidden();
  await expect(selectedRow(page)).toBeFocused();
  await expect(selectedItem(page)).toHaveAttribute('aria-posinset', '4');

  // Enter opens it again; Escape goes back.
  await page.keyboard.press('Enter');
  await expect(messages(page)).toBeHidden();
  await expect(bodyOf(page).getByText('8', { exact: true })).toBeVisible();
  // j moves to the next message while reading.
  await page.keyboard.press('j');
  await expect(bodyOf(page).getByText('7', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(messages(page)).toBeVisible();
  await expect(selectedItem(page)).toHaveAttribute('aria-posinset', '5');
  await expect(selectedRow(page)).toBeFocused();
});

test('keys: j/k and ↓/↑ move, Enter opens, r replays, c copies as curl, / searches, and none of them while typing', async ({ browser, info }) => {
  const page = await openInspector(info, browser, 'keys', { width: 1280, height: 800 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await postMany(info, page, 5);
  const body = bodyOf(page);

  // From outside the list, as from within it.
  await rows(page).first().click();
  await expect(body.getByText('4', { exact: true })).toBeVisible();
  await page.getByRole('heading', { name: 'Inspector', exact: true }).click();
  await page.keyboard.press('j');
  await expect(body.getByText('3', { exact: true })).toBeVisible();
  await page.keyboard.press('j');
  await expect(body.getByText('2', { exact: true })).toBeVisible();
  await page.keyboard.press('k');
  await expect(body.getByText('3', { exact: true })).toBeVisible();
  await selectedRow(page).focus();
  await page.keyboard.press('ArrowDown');
  await expect(body.getByText('2', { exact: true })).toBeVisible();
  await expect(selectedRow(page)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(body.getByText('3', { exact: true })).toBeVisible();
  await page.keyboard.press('j');
  await expect(body.getByText('2', { exact: true })).toBeVisible();
  await expect(selectedRow(page)).toBeFocused();

  // Enter takes the focus to the open message's details.
  await page.keyboard.press('Enter');
  await expect(details(page)).toBeFocused();
  await expect(details(page).getByRole('group', { name: 'Replay and copy' })).toBeVisible();

  // r replays it to the intake: the forwarder takes it as a new message.
  await page.keyboard.press('r');
  await expect(details(page).getByRole('region', { name: 'Replay answer' }).getByText('202', { exact: true })).toBeVisible();
  await expect(page.getByText('6 messages')).toBeVisible();

  // c copies it as a curl command.
  await page.keyboard.press('c');
  await expect(details(page).getByText('curl command copied.')).toBeVisible();
  const clipboard = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(clipboard).toMatch(/^curl /);
  expect(clipboard).toContain('"n":2');

  // Keys pressed in a dialog are the dialog's.
  await page.getByRole('button', { name: 'Add a webhook…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
  await dialog.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('j');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(body.getByText('2', { exact: true })).toBeVisible();

  // / goes to the search field; typed there, the keys are text.
  await page.getByRole('heading', { name: 'Inspector', exact: true }).click();
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await page.keyboard.type('jkrc/');
  await expect(search).toHaveValue('jkrc/');
});

test('the Add-webhook dialog: fields in the app’s look, each radio beside its label', async ({ browser, info }) => {
  const host = startBrowserHost(info, tempDir('e2e-inspector-layout-dialog'));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  opened.push({ context, host });
  const page = await openApp(context, host);
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add a webhook…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
  // The ID and Values fields look like the secret's (the app's field style, not the browser's).
  const look = (name: string) =>
    dialog.getByRole('textbox', { name, exact: true }).evaluate((element) => {
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(element);
      return [style.borderTopLeftRadius, style.borderTopColor, style.backgroundColor, style.paddingLeft];
    });
  expect(await look('Webhook ID')).toEqual(await look('Webhook secret'));
  expect(await look('Values')).toEqual(await look('Webhook secret'));
  for (const name of ['Selected hub', 'Key values']) {
    const radio = (await dialog.getByRole('radio', { name }).boundingBox())!;
    const label = (await dialog.locator('label', { hasText: name }).boundingBox())!;
    // One line, the radio first and centred on it.
    expect(label.height).toBeLessThan(radio.height * 2.5);
    expect(Math.abs(radio.x - label.x)).toBeLessThan(4);
    expect(Math.abs(radio.y + radio.height / 2 - (label.y + label.height / 2))).toBeLessThan(4);
  }
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    test(`no axe violation on the Webhooks tab with a message open, ${colorScheme}, ${viewport.width}×${viewport.height}`, async ({ browser, info }) => {
      // The app's CSP refuses inline scripts, axe's included: only this test's context lets it in.
      const page = await openInspector(info, browser, `axe-${colorScheme}-${viewport.width}`, viewport, { colorScheme, bypassCSP: true });
      await post(info, { device: { id: 'x' } });
      await post(info, { device: { id: key }, list: [1, 2] });
      await rows(page).first().click();
      await expect(details(page).getByRole('group', { name: 'Replay and copy' })).toBeVisible();
      expect(await axeViolations(page), 'a message open').toEqual([]);
      if (viewport.width < 1100) {
        await details(page).getByRole('button', { name: 'Back to messages' }).click();
        await expect(messages(page)).toBeVisible();
        expect(await axeViolations(page), 'back at the list').toEqual([]);
      }
    });
  }
}
