/**
 * What opening a hub costs on the wire (docs/architecture.md, "Control and the open hub"): the stack runs in this process with a request
 * log, a browser host signs in and the user opens "Home", then "Holiday cabin". Signing in reads the
 * user record once; opening a hub lists its devices once, reads the session's permissions once and
 * lists its flows once, however the renderer's views ask for them.
 */
import { expect, test } from '@playwright/test';
import { type RunningStack, startStack } from '../../../services/stack';
import { openApp, signInThroughBrowser, startBrowserHost } from '../support/browser-host';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const USER_ME = 'GET /user/me';
const DEVICE_LIST = 'GET /api/manager/devices/device';
const SESSION_ME = 'GET /api/manager/sessions/session/me';
const FLOW_LIST = 'GET /api/manager/flow/flow';

let stack: RunningStack;
let host: RunningProgram;
const requests: { service: string; call: string }[] = [];

/** How many times `service` received `call` so far. */
const count = (service: string, call: string) => requests.filter((request) => request.service === service && request.call === call).length;

test.beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0, requestLog: ({ service, method, path }) => requests.push({ service, call: `${method} ${path}` }) });
  host = startBrowserHost(stack.info, tempDir('e2e-request-counts'));
});

test.afterAll(async () => {
  await host?.stop();
  await stack?.close();
});

test('signing in reads the user once; opening a hub lists its devices, permissions and flows once each', async ({ browser }) => {
  const context = await browser.newContext();
  const app = await openApp(context, host);
  await signInThroughBrowser(context, app, host, stack.info.user);
  const [home, cabin] = stack.info.hubs;

  for (const hub of [home!, cabin!]) {
    await app.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: hub.name, exact: true }).click();
    const devices = app.getByRole('region', { name: `Devices on ${hub.name}` });
    await expect(devices.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    await expect(devices.getByRole('article').first()).toBeVisible();
    await expect(devices.getByRole('button', { name: /^Trigger / }).first()).toBeVisible();
    expect
      .soft({ devices: count(hub.id, DEVICE_LIST), permissions: count(hub.id, SESSION_ME), flows: count(hub.id, FLOW_LIST) }, hub.name)
      .toEqual({ devices: 1, permissions: 1, flows: 1 });
  }
  expect(count('cloud', USER_ME)).toBe(1);
  await context.close();
});
