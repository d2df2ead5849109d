/**
 * Devices in a home user's words (docs/device-controls.md, "Words per class"), end to end against the
 * reference stack: each class of the demo home shows the primary control and the state line the
 * presentation table gives it (one test per class, driven by the table and the hub's own values); no
 * card's name is cut at 1280×800 or 800×600; every switch is named by its device and what it controls,
 * its state its checked state; a garage door opens and closes; a light's colour is one control; "What's
 * on" and the palette's "Turn off all lights" turn every light off, as the hub confirms.
 */
import { expect, type Locator } from '@playwright/test';
import type { Device } from '../../../common/wire';
import { controlName, presentCapabilities, stateLine } from '../../../renderer/src/format/device-presentation';
import { createDemoHome } from '../../../services/hub/demo-home';
import { appPerFile } from '../support/fixtures';
import type { HubClient } from '../support/hub-client';

// bypassCSP: the name test adds a style that lays out every card, off screen too.
const test = appPerFile('e2e-device-words', { home: true, viewport: { width: 1280, height: 800 }, bypassCSP: true });
test.describe.configure({ mode: 'serial' });

const card = (home: Locator, name: string) => home.getByRole('article', { name, exact: true });

/** One device of each class of the demo home, the first the hub lists. */
const DEMO = Object.values(createDemoHome('home').devices());
const ONE_PER_CLASS = DEMO.filter((device, index) => DEMO.findIndex((other) => other.class === device.class) === index);

/** Times read "8:45 PM" with a narrow space in one ICU and a plain one in another (Node's and Chromium's). */
const oneSpace = (text: string | null) => text?.replace(/\s/gu, ' ') ?? null;

/** The primary control of a device as the table says, located by its role and name. */
function primaryControl(device: Device, article: Locator): Locator {
  const [row] = presentCapabilities(device);
  if (!row) throw new Error(`${device.name} has no capability`);
  switch (row.control) {
    case 'switch':
      return article.getByRole('switch', { name: controlName(device.name, row.words), exact: true });
    case 'door':
      return article.getByRole('group', { name: `Open or close ${device.name}`, exact: true });
    case 'cover-moves':
      return article.getByRole('group', { name: `Move ${device.name}`, exact: true });
    case 'play-pause':
      return article.getByRole('button', { name: new RegExp(`^(Play|Pause) ${device.name}$`) });
    case 'colour':
      return article.getByRole('group', { name: `Colour of ${device.name}`, exact: true });
    case 'generic':
      return article.locator('.capability[data-primary="true"] dd');
  }
}

for (const demoDevice of ONE_PER_CLASS) {
  test(`class ${demoDevice.class}: "${demoDevice.name}" leads with its primary control and says its state in its words`, async ({ home, hub }) => {
    const article = card(home, demoDevice.name);
    await article.scrollIntoViewIfNeeded();
    const [primary] = presentCapabilities(demoDevice);
    expect(primary?.primary, 'the table has a primary control for every demo class').toBe(true);
    const firstRow = article.locator('.capability').first();
    await expect(firstRow).toHaveAttribute('data-primary', 'true');
    await expect(firstRow.locator('dt')).toHaveText(primary!.words.label);
    await expect(primaryControl(demoDevice, article)).toBeVisible();
    // The state line is the table's for the hub's values now (the demo home lives: read them again until they agree).
    // The home changes every 5 s (services/hub/simulation.ts): a busy machine's view may be a change behind for a
    // while, so this waits for up to three of them rather than one.
    const stateText = article.locator('.device-state-text');
    await expect
      .poll(
        async () => {
          const expected = oneSpace(stateLine(await hub.device(demoDevice.name), { now: Date.now(), locale: 'en-US' }));
          const shown = oneSpace(await stateText.textContent());
          return shown === expected ? 'agrees' : `shows ${shown}, table says ${expected}`;
        },
        { timeout: 15_000 },
      )
      .toBe('agrees');
    // No capability's raw title leaks where the table has words for it.
    await expect(article).not.toContainText(/Turned on|Garage door closed|Window coverings state|Motion alarm|Playing: /);
  });
}

test('no card’s name is cut, at 1280×800 and at 800×600: names wrap, each whole in its tooltip', async ({ page, home }) => {
  await page.addStyleTag({ content: '.zone, .device { content-visibility: visible !important; }' });
  await expect(home.locator('article')).toHaveCount(Number(/^(\d+) devices/.exec((await home.getByText(/^\d+ devices · /).textContent()) ?? '')?.[1]));
  for (const size of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(size);
    const names = await home.locator('article .device-head h3').evaluateAll((headings) =>
      headings.map((heading) => ({
        name: heading.textContent,
        title: heading.getAttribute('title'),
        cut: heading.scrollWidth > heading.clientWidth || heading.scrollHeight > heading.clientHeight,
        width: heading.clientWidth,
      })),
    );
    expect(names.length).toBeGreaterThan(20);
    for (const { name, title, cut, width } of names) {
      expect(cut, `${name} at ${size.width}×${size.height}`).toBe(false);
      expect(width, `${name} has room`).toBeGreaterThan(40);
      expect(title).toBe(name);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('every switch is named by its device and what it controls, and its state is its checked state', async ({ home, hub }) => {
  const switches = home.getByRole('switch');
  expect(await switches.count()).toBeGreaterThan(10);
  await expect(home.getByRole('switch', { name: /Turned on/ })).toHaveCount(0);
  await expect(card(home, 'Bedside lamp').getByRole('switch', { name: 'Bedside lamp, on/off', exact: true })).toHaveAttribute('aria-checked', /^(true|false)$/);
  const named = await switches.evaluateAll((elements) =>
    elements.map((element) => ({
      name: element.getAttribute('aria-label'),
      card: element.closest('article')?.getAttribute('aria-label'),
      checked: element.getAttribute('aria-checked'),
    })),
  );
  for (const { name, card: deviceName, checked } of named) {
    expect(name?.startsWith(`${deviceName}, `), `${name} in ${deviceName}`).toBe(true);
    expect(['true', 'false']).toContain(checked);
  }
  // The checked state is the hub's value, and follows it.
  const lamp = card(home, 'Bedside lamp').getByRole('switch', { name: 'Bedside lamp, on/off', exact: true });
  const device = await hub.device('Bedside lamp');
  const next = device.capabilitiesObj?.onoff?.value !== true;
  await hub.setCapability(device.id, 'onoff', next);
  await expect(lamp).toHaveAttribute('aria-checked', String(next));
  await expect(lamp).toHaveText(next ? 'On' : 'Off');
});

test('a garage door opens and closes, confirmed by the hub, and says where it is', async ({ home, hub }) => {
  const door = card(home, 'Garage door');
  const moves = door.getByRole('group', { name: 'Open or close Garage door' });
  await expect(door.locator('.device-state-text')).toHaveText('Closed');
  await expect(moves.getByRole('button', { name: 'Close' })).toHaveAttribute('aria-pressed', 'true');
  await moves.getByRole('button', { name: 'Open' }).click();
  await expect.poll(async () => (await hub.device('Garage door')).capabilitiesObj?.garagedoor_closed?.value).toBe(false);
  await expect(door.locator('.device-state-text')).toHaveText('Open');
  await moves.getByRole('button', { name: 'Close' }).click();
  await expect.poll(async () => (await hub.device('Garage door')).capabilitiesObj?.garagedoor_closed?.value).toBe(true);
  await expect(door.locator('.device-state-text')).toHaveText('Closed');
});

test('a colour light has one colour control: a swatch sets hue and saturation together, confirmed by the hub', async ({ home, hub }) => {
  const light = card(home, 'Ceiling light');
  const colour = light.getByRole('group', { name: 'Colour of Ceiling light' });
  await expect(light.getByRole('slider', { name: /Hue|Saturation/ })).toHaveCount(0);
  await colour.getByRole('button', { name: 'Blue' }).click();
  await expect.poll(async () => (await hub.device('Ceiling light')).capabilitiesObj?.light_hue?.value).toBe(0.66);
  await expect.poll(async () => (await hub.device('Ceiling light')).capabilitiesObj?.light_saturation?.value).toBe(1);
  await expect(colour.getByRole('button', { name: 'Blue' })).toHaveAttribute('aria-pressed', 'true');
  await expect(light.getByRole('slider', { name: 'Colour temperature' })).toBeVisible();
});

const lightsOnHub = async (hub: HubClient) => {
  const lights = DEMO.filter((device) => device.class === 'light');
  return Promise.all(lights.map(async (light) => (await hub.device(light.name)).capabilitiesObj?.onoff?.value));
};

test('What’s on lists what is on, and “Turn off all lights” turns every light off, as the hub confirms', async ({ page, home, hub }) => {
  for (const name of ['Floor lamp', 'Hallway light', 'Garden lights']) await hub.setCapability((await hub.device(name)).id, 'onoff', true);
  await home.getByRole('button', { name: 'What’s on' }).click();
  const view = page.getByRole('dialog', { name: 'What’s on at Home' });
  const list = view.getByRole('list', { name: 'On now' });
  await expect(list.getByRole('listitem').filter({ hasText: 'Garden lights' })).toContainText('On');
  await expect(list.getByRole('button', { name: 'Turn off TV socket' })).toBeVisible();
  await view.getByRole('button', { name: /^Turn off all lights \(\d+\)$/ }).click();
  await expect.poll(async () => (await lightsOnHub(hub)).every((on) => on === false)).toBe(true);
  await expect(list.getByRole('listitem').filter({ hasText: 'Garden lights' })).toHaveCount(0);
  await expect(view.getByRole('button', { name: /^Turn off all lights/ })).toHaveCount(0);
  // One device at a time too.
  await list.getByRole('button', { name: 'Turn off TV socket' }).click();
  await expect.poll(async () => (await hub.device('TV socket')).capabilitiesObj?.onoff?.value).toBe(false);
  await view.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(view).toBeHidden();
});

test('the palette’s “Turn off all lights” does the same', async ({ page, home, hub }) => {
  await hub.setCapability((await hub.device('Desk lamp')).id, 'onoff', true);
  await expect(card(home, 'Desk lamp').getByRole('switch', { name: 'Desk lamp, on/off' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('turn off all lights');
  await expect(palette.getByRole('option', { selected: true })).toContainText('Turn off all lights');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect.poll(async () => (await lightsOnHub(hub)).every((on) => on === false)).toBe(true);
  await expect(card(home, 'Desk lamp').getByRole('switch', { name: 'Desk lamp, on/off' })).toHaveAttribute('aria-checked', 'false');
});
