/**
 * Controlling the home, live, end to end (docs/hub-realtime.md): one stack, two browser hosts signed in as the
 * demo user and a third signed in with the read-only client, each on its own profile, driven in
 * Chromium. A change made in one app shows in the other without a reload; a change made on the hub by
 * another client shows in the app; a change the device refuses is shown at once and rolled back with
 * the hub's reason; a change the hub confirms only after the app's deadline (the hub was frozen) ends in
 * the hub's state, with no error beside it; a flow started in the app reports back and changes devices;
 * the read-only sign-in sees disabled controls and why.
 */

import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { ACTION_DEADLINE_MS, CHANGE_NOT_CONFIRMED } from '../../../renderer/src/stores/settle';
import { type DemoClient, openApp, signInThroughBrowser, startBrowserHost, startStackProgram } from '../support/browser-host';
import { connectHubClient, type HubClient } from '../support/hub-client';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const TANK_EMPTY = 'The tank is empty: fill it before switching the water heater on.';

interface SignedInApp {
  host: RunningProgram;
  context: BrowserContext;
  page: Page;
}

// The recorder of the refused-change test runs in the page; tests are type-checked without the DOM library.
declare const window: { shownByHeater?: (string | null)[] };
declare const MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { attributes: boolean; attributeFilter: string[] }): void };

test.describe.configure({ mode: 'serial' });

let stack: RunningProgram;
let info: StackInfo;
let apps: SignedInApp[] = [];
let first: Page;
let second: Page;
let readOnly: Page;
let homeClient: HubClient;

async function signedInApp(browser: Browser, client: DemoClient): Promise<SignedInApp> {
  const host = startBrowserHost(info, tempDir(`e2e-control-${client}`), client);
  const context = await browser.newContext();
  const page = await openApp(context, host);
  await signInThroughBrowser(context, page, host, info.user);
  return { host, context, page };
}

test.beforeAll(async ({ browser }) => {
  ({ stack, info } = await startStackProgram());
  // Each app has its own context: the cloud's sign-in cookie of one must not skip the other's login form.
  apps = await Promise.all([signedInApp(browser, 'full'), signedInApp(browser, 'full'), signedInApp(browser, 'readonly')]);
  [first, second, readOnly] = apps.map((app) => app.page) as [Page, Page, Page];
  homeClient = await connectHubClient(info, 'Home');
});
test.afterAll(async () => {
  for (const app of apps) {
    await app.context.close();
    await app.host.stop();
  }
  expect(await stack?.stop()).toBe(0);
});

/** Selects the hub in the app and waits until its view follows the hub live. */
async function showLive(app: Page, hubName: string): Promise<Locator> {
  await app.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: hubName, exact: true }).click();
  const devices = app.getByRole('region', { name: `Devices on ${hubName}` });
  await expect(devices.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  return devices;
}

const card = (devices: Locator, deviceName: string) => devices.getByRole('article', { name: deviceName, exact: true });
const onOff = (devices: Locator, deviceName: string) => card(devices, deviceName).getByRole('switch', { name: `${deviceName}, on/off`, exact: true });

test('a light switched in one app changes in a second app on the same hub, without a reload', async () => {
  const [inFirst, inSecond] = [onOff(await showLive(first, 'Home'), 'Ceiling light'), onOff(await showLive(second, 'Home'), 'Ceiling light')];
  const before = await inFirst.getAttribute('aria-checked');
  expect(['true', 'false']).toContain(before);
  await expect(inSecond).toHaveAttribute('aria-checked', before!);
  const after = before === 'true' ? 'false' : 'true';

  await inFirst.click();
  await expect(inFirst).toHaveAttribute('aria-checked', after);
  await expect(inSecond).toHaveAttribute('aria-checked', after);
  expect((await homeClient.device('Ceiling light')).capabilitiesObj?.onoff?.value).toBe(after === 'true');
});

test('a change made on the hub by another client appears in the app', async () => {
  const lamp = onOff(await showLive(first, 'Home'), 'Floor lamp');
  const device = await homeClient.device('Floor lamp');
  const next = device.capabilitiesObj?.onoff?.value !== true;
  await expect(lamp).toHaveAttribute('aria-checked', String(!next));

  await homeClient.setCapability(device.id, 'onoff', next);
  await expect(lamp).toHaveAttribute('aria-checked', String(next));
});

test('a change the device refuses shows at once, then rolls back with the hub’s reason', async () => {
  const cabin = await showLive(first, 'Holiday cabin');
  const heater = onOff(cabin, 'Water heater');
  await expect(heater).toHaveAttribute('aria-checked', 'false');
  // Every value the switch shows is recorded, so the brief optimistic "on" is seen however fast the refusal comes.
  await heater.evaluate((element) => {
    const shown = [element.getAttribute('aria-checked')];
    window.shownByHeater = shown;
    new MutationObserver(() => shown.push(element.getAttribute('aria-checked'))).observe(element, { attributes: true, attributeFilter: ['aria-checked'] });
  });

  await heater.click();
  await expect(card(cabin, 'Water heater').getByRole('alert')).toContainText(TANK_EMPTY);
  await expect(heater).toHaveAttribute('aria-checked', 'false');
  expect(await first.evaluate(() => window.shownByHeater)).toEqual(['false', 'true', 'false']);
  // The reason stays until dismissed (docs/device-controls.md, "Connection state and deadlines").
  await card(cabin, 'Water heater').getByRole('button', { name: 'Dismiss' }).click();
  await expect(card(cabin, 'Water heater').getByRole('alert')).toHaveCount(0);
});

test('a change the frozen hub confirms after the deadline ends in the hub’s state, with no error beside it', async () => {
  const home = await showLive(first, 'Home');
  const lights = onOff(home, 'Garden lights');
  const device = await homeClient.device('Garden lights');
  await expect(lights).toHaveAttribute('aria-checked', String(device.capabilitiesObj?.onoff?.value === true));
  const asked = device.capabilitiesObj?.onoff?.value !== true;

  stack.child.kill('SIGSTOP'); // the hub (the whole stack) freezes: the change waits in its socket
  try {
    await lights.click();
    // The app's deadline passes first: the change is rolled back with a sentence.
    await expect(card(home, 'Garden lights').getByRole('alert')).toContainText(CHANGE_NOT_CONFIRMED, { timeout: ACTION_DEADLINE_MS + 20_000 });
    await expect(lights).toHaveAttribute('aria-checked', String(!asked));
  } finally {
    stack.child.kill('SIGCONT');
  }
  // The hub comes back and does it: the card follows the hub, and the error that now contradicts it goes.
  await expect(lights).toHaveAttribute('aria-checked', String(asked));
  await expect(card(home, 'Garden lights').getByRole('alert')).toHaveCount(0);
  expect((await homeClient.device('Garden lights')).capabilitiesObj?.onoff?.value).toBe(asked);
});

/** Each card's height, keyed by its kind: the labels of its controls (page script). */
const cardHeightsByKind = (devices: Locator) =>
  devices.locator('article').evaluateAll((cards) =>
    cards.map((article) => ({
      kind: [...article.querySelectorAll('dt')].map((label) => label.textContent).join(' | '),
      height: Math.round(article.getBoundingClientRect().height),
    })),
  );

test('cards of one kind have one height, whatever sits beside them and whatever they show', async () => {
  await first.setViewportSize({ width: 1280, height: 3000 }); // every card on screen: off-screen ones have a placeholder size
  try {
    const home = await showLive(first, 'Home');
    // The grid fills in steps: wait until every device the summary counts has its card.
    const counted = Number(/^(\d+) devices/.exec((await home.getByText(/^\d+ devices · /).textContent()) ?? '')?.[1]);
    expect(counted).toBeGreaterThan(10);
    await expect(home.locator('article')).toHaveCount(counted);
    /** Per kind seen more than once: its cards' distinct heights. */
    const heightsOfRepeatedKinds = async () => {
      const byKind = new Map<string, number[]>();
      for (const { kind, height } of await cardHeightsByKind(home)) byKind.set(kind, [...(byKind.get(kind) ?? []), height]);
      return Object.fromEntries([...byKind].filter(([, heights]) => heights.length > 1).map(([kind, heights]) => [kind, [...new Set(heights)]]));
    };
    // A card that was off-screen keeps its placeholder size (content-visibility: auto, docs/device-controls.md)
    // until the browser's next rendering update after the resize: the kinds are read once every card is laid out.
    const kindsOfSeveralHeights = async () => Object.entries(await heightsOfRepeatedKinds()).filter(([, distinct]) => distinct.length > 1);
    await expect.poll(kindsOfSeveralHeights).toEqual([]);
    const before = await heightsOfRepeatedKinds();
    // The demo home has several kinds more than once (lights that dim, sockets that meter, thermostats, coverings).
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(3);
    for (const [kind, distinct] of Object.entries(before)) expect(distinct, kind).toHaveLength(1);
    // Values changing (a switch, a power reading) do not change a card's height.
    const floorLamp = onOff(home, 'Floor lamp');
    const wasOn = (await floorLamp.getAttribute('aria-checked')) === 'true';
    await homeClient.setCapability((await homeClient.device('Floor lamp')).id, 'onoff', !wasOn);
    await expect(floorLamp).toHaveAttribute('aria-checked', String(!wasOn));
    expect(await heightsOfRepeatedKinds()).toEqual(before);
  } finally {
    await first.setViewportSize({ width: 1280, height: 720 });
  }
});

test('a flow triggered in the app reports that it started and changes the devices', async () => {
  const home = await showLive(first, 'Home');
  const light = onOff(home, 'Ceiling light');
  await homeClient.setCapability((await homeClient.device('Ceiling light')).id, 'onoff', true);
  await expect(light).toHaveAttribute('aria-checked', 'true');

  await home.getByRole('button', { name: 'Trigger Good night', exact: true }).click();
  await expect(home.getByRole('listitem').filter({ hasText: 'Good night' }).getByRole('status')).toHaveText('Started');
  await expect(light).toHaveAttribute('aria-checked', 'false'); // "Good night" turns the lights off
  await expect(onOff(await showLive(second, 'Home'), 'Ceiling light')).toHaveAttribute('aria-checked', 'false');
});

test('a read-only sign-in sees the controls disabled, says why, and offers no flow to start', async () => {
  const home = await showLive(readOnly, 'Home');
  await expect(onOff(home, 'Ceiling light')).toBeDisabled();
  await expect(card(home, 'Ceiling light').getByRole('slider').first()).toBeDisabled();
  await expect(home.getByText('Hubdesk has read-only access to Home, so its devices cannot be controlled from here.')).toBeVisible();
  await expect(home.getByRole('button', { name: /^Trigger / })).toHaveCount(0);
});
