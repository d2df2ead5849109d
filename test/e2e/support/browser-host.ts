/**
 * The app as a user meets it in the end-to-end tests and the live-view bench: a browser host (the real
 * core and renderer) on its own profile against a running stack, opened in a Chromium page, and the
 * sign-in through the consent pages in "the system browser" (a second page of the same context).
 */
import { join } from 'node:path';
import { type Browser, type BrowserContext, expect, type Locator, type Page } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { type RunningProgram, startProgram } from './processes';
import { tempDir } from '../../support/temp-dir';
import { buildServicesWhenStale } from '../../../scripts/build-services';

const RUNNING = 'Hubdesk is running at ';
const OPEN_EXTERNAL = 'open-external: ';

let servicesBuilt: Promise<string> | undefined;
/** out/services, built once per process when a source changed (Playwright's global setup usually built it already). */
const builtServices = () => (servicesBuilt ??= buildServicesWhenStale());

/** Which of the stack's demo clients the app signs in with. */
export type DemoClient = 'full' | 'readonly';

/**
 * The reference stack as its own process, built to plain JavaScript (`node out/services/stack-cli.js`,
 * docs/services.md "Running the built services"), and the addresses it printed. Built, not through tsx:
 * tsx compiling the stack's modules at start-up took most of its start on a busy machine (docs/testing.md,
 * "A suite that passes on a busy machine"). `stateDir`: the stack keeps its state there, so one started again on
 * it is the same cloud and hubs (docs/services.md, "Keeping state across a restart").
 */
export async function startStackProgram(options: { stateDir?: string } = {}): Promise<{ stack: RunningProgram; info: StackInfo }> {
  const stack = startProgram(join(await builtServices(), 'stack-cli.js'), options.stateDir === undefined ? [] : ['--state-dir', options.stateDir]);
  const info = JSON.parse(await stack.line('{').then((rest) => `{${rest}`)) as StackInfo;
  return { stack, info };
}

export function startBrowserHost(info: StackInfo, profile: string, client: DemoClient = 'full'): RunningProgram {
  const { id, secret } = client === 'readonly' ? info.readonly_client : info.client;
  return startProgram('main/browser-host/bin.ts', ['--profile', profile, '--skip-build'], {
    HUBDESK_AUTH_URL: info.auth_url,
    HUBDESK_CLIENT_ID: id,
    HUBDESK_CLIENT_SECRET: secret,
    HUBDESK_WEBHOOK_URL: info.webhook_url,
    HUBDESK_PORTAL_URL: `${info.tools_url}/webhooks`,
    HUBDESK_OPEN_EXTERNAL: 'none',
  });
}

/** A new page of `context` on the app the host serves (the address it prints, secret included). */
export async function openApp(context: BrowserContext, host: RunningProgram): Promise<Page> {
  const app = await context.newPage();
  await app.goto(await host.line(RUNNING));
  return app;
}

/** Plays the user: Sign in in the app, then the consent pages in "the system browser" (another page). */
export async function signInThroughBrowser(context: BrowserContext, app: Page, host: RunningProgram, user: { email: string; password: string }): Promise<void> {
  await startSignIn(app);
  await consentInBrowser(context, host, user);
  await expect(app.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(app.locator('.action-error')).toBeEmpty(); // no action reported a failure on the way
}

/** Presses Sign in in the app; it then waits for the browser. */
export async function startSignIn(app: Page): Promise<void> {
  await app.getByRole('button', { name: 'Sign in' }).click();
  await expect(app.getByRole('button', { name: 'Cancel' })).toBeVisible();
}

/** The consent pages in "the system browser" (another page), up to "Back to Hubdesk". */
export async function consentInBrowser(context: BrowserContext, host: RunningProgram, user: { email: string; password: string }): Promise<void> {
  const consent = await context.newPage();
  await consent.goto(await host.line(OPEN_EXTERNAL));
  await consent.getByLabel('Email').fill(user.email);
  await consent.getByLabel('Password').fill(user.password);
  await consent.getByRole('button', { name: 'Sign in' }).click();
  await consent.getByRole('button', { name: 'Allow' }).click();
  await expect(consent.getByRole('heading', { name: 'Back to Hubdesk' })).toBeVisible();
  await consent.close();
}

/** A stack and a browser host in their own processes, and a page signed in as the demo user (or left on the sign-in screen: `signIn: false`). */
export interface SignedInApp {
  stack: RunningProgram;
  info: StackInfo;
  host: RunningProgram;
  context: BrowserContext;
  page: Page;
  /** Closes the page's context, stops the host and the stack (which must exit cleanly). */
  close(): Promise<void>;
}

/**
 * `bypassCSP`: lets a test add scripts to the page (axe-core), which the app's CSP refuses otherwise; `stateDir`: the stack's (startStackProgram);
 * `signIn: false`: the page stays on the sign-in screen.
 */
export async function startSignedInApp(
  browser: Browser,
  profileName: string,
  options: { viewport?: { width: number; height: number }; client?: DemoClient; bypassCSP?: boolean; stateDir?: string; signIn?: boolean } = {},
): Promise<SignedInApp> {
  const { stack, info } = await startStackProgram({ stateDir: options.stateDir });
  const host = startBrowserHost(info, tempDir(profileName), options.client);
  const context = await browser.newContext({ ...(options.viewport && { viewport: options.viewport }), ...(options.bypassCSP && { bypassCSP: true }) });
  const page = await openApp(context, host);
  if (options.signIn !== false) await signInThroughBrowser(context, page, host, info.user);
  return {
    stack,
    info,
    host,
    context,
    page,
    async close() {
      stack.child.kill('SIGCONT'); // a stack a test froze (SIGSTOP) would never take the SIGTERM below
      await context.close();
      await host.stop();
      expect(await stack.stop()).toBe(0);
    },
  };
}

/** Opens "Home" from the sidebar and waits until it is live; returns its devices region. */
export async function openHomeLive(page: Page): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Hubs' }).getByRole('button', { name: 'Home', exact: true }).click();
  const home = page.getByRole('region', { name: 'Devices on Home' });
  await expect(home.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  return home;
}

/** Adds a webhook through the app's "Add a webhook…" dialog, and waits for the dialog to close (main took it). */
export async function addWebhookInApp(
  page: Page,
  webhook: { id: string; secret: string; tapCredential?: string; signingSecret?: string; values: string },
): Promise<void> {
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add a webhook…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
  await dialog.getByLabel('Webhook ID').fill(webhook.id);
  await dialog.getByLabel('Webhook secret').fill(webhook.secret);
  if (webhook.tapCredential !== undefined) await dialog.getByLabel('Tap credential (optional)').fill(webhook.tapCredential);
  if (webhook.signingSecret !== undefined) await dialog.getByLabel('Signing secret (optional)').fill(webhook.signingSecret);
  await dialog.getByRole('radio', { name: 'Key values' }).check();
  await dialog.getByRole('textbox', { name: 'Values' }).fill(webhook.values);
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Clears the inspector's history through "Clear…", which asks first, and waits until main has cleared
 * it (memory and disk). The list empties at once, before main has even read the request: a host stopped
 * then may never clear. "Clear…" is disabled from the click until main answers (history-settings.tsx).
 */
export async function clearHistoryInApp(page: Page): Promise<void> {
  const clearButton = page.getByRole('region', { name: 'Inspector' }).getByRole('button', { name: 'Clear…' });
  await clearButton.click();
  const dialog = page.getByRole('dialog', { name: 'Clear the webhook history?' });
  await dialog.getByRole('button', { name: 'Clear history' }).click();
  await expect(dialog).toBeHidden();
  await expect(clearButton).toBeEnabled();
}
