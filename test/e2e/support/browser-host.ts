/**
 * The app as a user meets it in the end-to-end tests and the live-view bench: a browser host (the real
 * core and renderer) on its own profile against a running stack, opened in a Chromium page, and the
 * sign-in through the consent pages in "the system browser" (a second page of the same context).
 */
import { type BrowserContext, expect, type Page } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { type RunningProgram, startProgram } from './processes';

const RUNNING = 'Hubdesk is running at ';
const OPEN_EXTERNAL = 'open-external: ';

/** Which of the stack's demo clients the app signs in with. */
export type DemoClient = 'full' | 'readonly';

/** The reference stack as its own process (`npm run stack`), and the addresses it printed. */
export async function startStackProgram(): Promise<{ stack: RunningProgram; info: StackInfo }> {
  const stack = startProgram('services/stack-cli.ts');
  const info = JSON.parse(await stack.line('{').then((rest) => `{${rest}`)) as StackInfo;
  return { stack, info };
}

export function startBrowserHost(info: StackInfo, profile: string, client: DemoClient = 'full'): RunningProgram {
  const { id, secret } = client === 'readonly' ? info.readonly_client : info.client;
  return startProgram('main/browser-host/bin.ts', ['--profile', profile, '--skip-build'], {
    HUBDESK_AUTH_URL: info.auth_url,
    HUBDESK_CLIENT_ID: id,
    HUBDESK_CLIENT_SECRET: secret,
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
  await app.getByRole('button', { name: 'Sign in' }).click();
  await expect(app.getByRole('button', { name: 'Cancel' })).toBeVisible();
  const consent = await context.newPage();
  await consent.goto(await host.line(OPEN_EXTERNAL));
  await consent.getByLabel('Email').fill(user.email);
  await consent.getByLabel('Password').fill(user.password);
  await consent.getByRole('button', { name: 'Sign in' }).click();
  await consent.getByRole('button', { name: 'Allow' }).click();
  await expect(consent.getByRole('heading', { name: 'Back to Hubdesk' })).toBeVisible();
  await consent.close();
  await expect(app.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(app.locator('.action-error')).toBeEmpty(); // no action reported a failure on the way
}
