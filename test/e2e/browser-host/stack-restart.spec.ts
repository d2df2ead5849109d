/**
 * Kill the stack and start it again: the app comes back by itself (docs/hub-realtime.md, "While the open
 * hub is not live"; docs/services.md, "Keeping state across a restart"), end to end in Chromium. The
 * reference stack runs as its own process with a state directory, the app (browser host) signed in
 * and showing Home live. The stack is killed (SIGKILL: nothing closes, every socket is cut): the banner
 * says in the live-words table's words (common/live-words.ts) what is wrong and when the next attempt
 * comes, the controls are disabled with that reason. The stack is started again on the same state
 * directory — the same cloud, hubs, addresses, keys and grants, the hub sessions lost as a real hub's
 * are — and the app is live again with no click and no reload: banner gone, controls enabled, and a light
 * switched in the app is confirmed by the hub. How soon the app notices and comes back is not asserted:
 * the waits are generous, never a deadline.
 */
import { expect, type Locator, test } from '@playwright/test';
import { liveWords } from '../../../common/live-words';
import type { LiveState, ReconnectCause } from '../../../common/ipc-contract';
import type { StackInfo } from '../../../services/stack';
import { openHomeLive, type SignedInApp, startSignedInApp, startStackProgram } from '../support/browser-host';
import { connectHubClient } from '../support/hub-client';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

/** Generous: the heartbeat notices within seconds, then a retry or two with backoff on a busy machine. */
const WITHIN_MS = 180_000;

/** What the app may say while the stack is down: its hub does not answer, or its cloud does (the reconnect asks it for a delegation token). */
const DOWN_CAUSES: readonly ReconnectCause[] = ['hub-not-answering', 'cloud-unreachable'];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const reconnecting = (cause: ReconnectCause): LiveState => ({ kind: 'reconnecting', attempt: 1, nextAttemptAt: 7_000, cause });
/** The banner's sentence with its countdown ("… — trying again in 7 s"), any number of seconds. */
const OUTAGE_SENTENCE = new RegExp(DOWN_CAUSES.map((cause) => escape(liveWords(reconnecting(cause), 'Home', 0).sentence).replace('7', '\\d+')).join('|'));
const OUTAGE_BLOCKED = new RegExp(`^(${DOWN_CAUSES.map((cause) => escape(liveWords(reconnecting(cause), 'Home').blocked!)).join('|')})$`);

let app: SignedInApp | undefined;
let restarted: { stack: RunningProgram; info: StackInfo } | undefined;

test.afterAll(async () => {
  await app?.context.close();
  await app?.host.stop();
  app?.stack.child.kill('SIGKILL'); // the first stack, if a failure left it running
  if (restarted) expect(await restarted.stack.stop()).toBe(0);
});

const card = (home: Locator, name: string) => home.getByRole('article', { name, exact: true });

test('a killed stack: the banner says what is wrong; started again on its state directory, the app is live again by itself and a change is confirmed', async ({
  browser,
}) => {
  test.setTimeout(WITHIN_MS * 4);
  const stateDir = tempDir('e2e-stack-state');
  app = await startSignedInApp(browser, 'e2e-stack-restart', { stateDir });
  const { page, stack, info } = app;
  const home = await openHomeLive(page);
  const light = card(home, 'Ceiling light');
  const onOff = light.getByRole('switch', { name: 'Ceiling light, on/off', exact: true });
  const banner = home.locator('.live-banner');
  const status = banner.getByRole('status');
  await expect(onOff).toBeEnabled();
  await expect(status).toBeEmpty();

  stack.child.kill('SIGKILL');
  expect(await stack.stop()).toBeNull(); // killed by the signal: no exit code, nothing closed cleanly

  // The outage, honestly: what is wrong and when the next attempt comes; the controls say why they are disabled.
  await expect(status).toContainText(OUTAGE_SENTENCE, { timeout: WITHIN_MS });
  await expect(status).toContainText('Each value shows when it was last confirmed.');
  await expect(banner).toHaveAttribute('data-outage', 'true');
  await expect(home.locator('.live-indicator')).toHaveText('Not live');
  await expect(onOff).toBeDisabled();
  await expect(onOff).toHaveAttribute('title', OUTAGE_BLOCKED);
  await expect(light).toHaveAttribute('data-not-live', 'true');

  // Started again on the same state directory: the same addresses, and the app's sign-in still holds.
  restarted = await startStackProgram({ stateDir });
  expect({ auth_url: restarted.info.auth_url, hubs: restarted.info.hubs, ca: restarted.info.ca }).toEqual({
    auth_url: info.auth_url,
    hubs: info.hubs,
    ca: info.ca,
  });

  // Back by itself: no click, no reload.
  await expect(home.locator('.live-indicator')).toHaveText('Live', { timeout: WITHIN_MS });
  await expect(banner).toHaveAttribute('data-outage', 'false');
  await expect(status).toBeEmpty();
  await expect(light).toHaveAttribute('data-not-live', 'false');
  await expect(onOff).toBeEnabled();
  await expect(onOff).not.toHaveAttribute('title');
  // The restarted hub knew no session: the app opened one with a fresh delegation token (before the test's own client below).
  const { stack: restartedStack } = restarted;
  await expect.poll(() => restartedStack.stderr()).toContain('hub: session opened');

  // A change goes through and the (restarted) hub confirms it.
  const hub = await connectHubClient(restarted.info, 'Home');
  const before = (await hub.device('Ceiling light')).capabilitiesObj?.onoff?.value === true;
  await expect(onOff).toHaveAttribute('aria-checked', String(before));
  await onOff.click();
  await expect(onOff).toHaveAttribute('aria-checked', String(!before));
  await expect(light.getByRole('alert')).toHaveCount(0);
  await expect.poll(async () => (await hub.device('Ceiling light')).capabilitiesObj?.onoff?.value).toBe(!before);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible(); // never asked to sign in again
});
