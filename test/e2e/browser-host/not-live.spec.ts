/**
 * While the open hub is not live the view says so honestly (docs/hub-realtime.md, "While the open hub
 * is not live"), end to end in Chromium: the reference stack runs as its own process and is frozen
 * (SIGSTOP: its sockets stay open and nothing answers, as a hung hub). A banner across the hub's view
 * then names the hub and what is wrong, the cards are dimmed, their controls disabled with that reason
 * (the favourite star, the app's own, stays), each value says when it was last confirmed, the
 * sparklines stay, "Try now" makes the next attempt at once, and axe finds no violation in either
 * scheme. Thawed (SIGCONT), the view is live again by itself: banner gone, controls enabled, cards as
 * before. Then the stack is stopped for good: the banner counts down to the next attempt. (This stack
 * keeps no state: one started again would be a new cloud on new ports. A stack killed and started again
 * on its state directory, which the app comes back to by itself, is stack-restart.spec.ts's.) How soon
 * the app notices is not asserted (the heartbeat, main/core/shared/heartbeat.ts, says "not responding" after
 * 4 s of silence; docs/hub-realtime.md, "Liveness"): the waits are generous, never a deadline.
 */
import { expect, type Locator } from '@playwright/test';
import { axeViolations } from '../support/axe';
import { openHomeLive } from '../support/browser-host';
import { appPerFile } from '../support/fixtures';

// The page functions run in Chromium; tests are type-checked without the DOM library.
declare const getComputedStyle: (element: unknown) => { backgroundColor: string };

/** Far more than the heartbeat's 4 s of silence and 20 s to give up (docs/hub-realtime.md, "Liveness"), with a retry or two on a busy machine. */
const NOTICED_WITHIN_MS = 180_000;

// The fixture thaws the stack before it stops it: never left frozen, whatever failed.
const test = appPerFile('e2e-not-live', { bypassCSP: true }); // axe's script runs in the page
test.describe.configure({ mode: 'serial' });

const card = (home: Locator, name: string) => home.getByRole('article', { name, exact: true });
const background = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);

test('a frozen hub: a banner says so, controls are disabled with the reason, values show their age; thawed, live again', async ({ app }) => {
  test.setTimeout(NOTICED_WITHIN_MS * 3);
  const { page, stack } = app;
  const home = await openHomeLive(page);
  const light = card(home, 'Ceiling light');
  const onOff = light.getByRole('switch', { name: 'Ceiling light, on/off', exact: true });
  const banner = home.locator('.live-banner');
  await expect(onOff).toBeEnabled();
  await expect(light).toHaveAttribute('data-not-live', 'false');
  await expect(banner.getByRole('status')).toBeEmpty();
  const liveBackground = await background(light);
  const sensor = card(home, 'Bathroom climate sensor');
  await sensor.scrollIntoViewIfNeeded(); // its sparkline is read once it is seen
  await expect(sensor.locator('.sparkline')).toBeVisible();

  stack.child.kill('SIGSTOP');
  try {
    await expect(banner.getByRole('status')).toContainText('Home is not responding', { timeout: NOTICED_WITHIN_MS });
    await expect(banner).toHaveAttribute('data-outage', 'true');
    await expect(home.locator('.live-indicator')).toHaveText('Not live');

    // Each control says why it cannot be used, in the words of the banner; the star is the app's own and stays.
    await expect(onOff).toBeDisabled();
    await expect(onOff).toHaveAttribute('title', /^.+, so changes can’t be sent now$/);
    await expect(onOff).toHaveAccessibleDescription(/, so changes can’t be sent now\.$/);
    await expect(light.getByRole('slider').first()).toBeDisabled();
    await expect(light.getByRole('button', { name: 'Favourite: Ceiling light' })).toBeEnabled();
    await expect(home.getByRole('button', { name: 'Trigger Good night', exact: true })).toBeDisabled();

    // Dimmed (a background of its own, the text as it was), and each value with its age.
    await expect(light).toHaveAttribute('data-not-live', 'true');
    expect(await background(light)).not.toBe(liveBackground);
    await expect(light.locator('.value-age').first()).toHaveText(/^· last confirmed (just now|\d+ min ago)$/);
    await expect(sensor.locator('.sparkline')).toBeVisible();

    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), colorScheme).toEqual([]);
    }

    // "Try now" (shown while an attempt is ahead, which may take a retry or two to come) makes it at once.
    const tryNow = banner.getByRole('button', { name: 'Try now' });
    await tryNow.click({ timeout: NOTICED_WITHIN_MS });
    await expect(banner.getByRole('status')).toContainText('trying again now');
    await expect(tryNow).toBeHidden();
  } finally {
    stack.child.kill('SIGCONT');
  }

  // Back by itself: no reload, no click.
  await expect(home.locator('.live-indicator')).toHaveText('Live', { timeout: NOTICED_WITHIN_MS });
  await expect(banner).toHaveAttribute('data-outage', 'false');
  await expect(banner.getByRole('status')).toBeEmpty();
  await expect(onOff).toBeEnabled();
  await expect(onOff).not.toHaveAttribute('title');
  await expect(light).toHaveAttribute('data-not-live', 'false');
  await expect(light.locator('.value-age')).toHaveCount(0);
  expect(await background(light)).toBe(liveBackground);
});

test('a stopped stack: the banner counts down to the next attempt, controls stay disabled, Try now is offered', async ({ app }) => {
  const { page, stack } = app;
  const home = await openHomeLive(page);
  const status = home.locator('.live-banner').getByRole('status');
  expect(await stack.stop()).toBe(0); // the hub, the cloud and all: nothing answers any more
  await expect(status).toContainText(/ — trying again in \d+ s/, { timeout: NOTICED_WITHIN_MS });
  await expect(status).toContainText('Each value shows when it was last confirmed.');
  await expect(card(home, 'Ceiling light').getByRole('switch', { name: 'Ceiling light, on/off', exact: true })).toBeDisabled();
  await expect(home.locator('.live-banner').getByRole('button', { name: 'Try now' })).toBeVisible({ timeout: NOTICED_WITHIN_MS });
});
