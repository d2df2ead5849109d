/**
 * The one place the browser-host specs start and stop what they run against: a spec file calls
 * `appPerFile` (a stack, a browser host and a page signed in) or `stackPerFile` (the stack alone) once,
 * at its top, and uses the `test` it returns. The stack and the host live exactly as long as the file
 * (its beforeAll/afterAll, registered here), so one file's device changes and profile never reach another;
 * each test asks for what it needs by name, typed (Playwright, https://playwright.dev/docs/test-fixtures,
 * "Creating a fixture"). Why hooks and not worker-scoped fixtures: docs/testing.md, "End-to-end tests".
 */
import { type BrowserContext, expect, type Locator, type Page, test as base } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { openHomeLive, type SignedInApp, startSignedInApp, startStackProgram } from './browser-host';
import { connectHubClient, type HubClient } from './hub-client';
import type { RunningProgram } from './processes';

/** What a spec of `appPerFile` may ask for: its file's app, and the parts of it by name. */
export interface AppFixtures {
  app: SignedInApp;
  /** The app's page (overrides Playwright's page: one page for the whole file, as the app keeps it). */
  page: Page;
  /** The app's context (overrides Playwright's context). */
  context: BrowserContext;
  host: RunningProgram;
  info: StackInfo;
  /** Home's devices region, shown live before the first test (`home: true`). */
  home: Locator;
  /** A client of Home's hub of the file's own, connected on first use (then the same for the file's other tests). */
  hub: HubClient;
}

export interface AppOptions {
  /** Opens Home and waits until it is live before the first test; the tests get its devices as `home`. */
  home?: boolean;
  /** Leaves the app signed out (on the sign-in screen); default: signed in as the demo user. */
  signIn?: boolean;
}

/** Something a file's hook sets up and its tests read; before the hook ran it says so. */
function perFile<T>(what: string) {
  let value: T | undefined;
  return {
    set: (next: T | undefined) => void (value = next),
    get(): T {
      if (value === undefined) throw new Error(`${what} is not there: it starts in the file's beforeAll and stops in its afterAll`);
      return value;
    },
    peek: () => value,
  };
}

/**
 * A stack, a browser host on the profile `tempDir(profile)` and a page signed in (startSignedInApp, whose
 * options pass through), started before the file's first test and stopped after its last (the stack must
 * exit cleanly). Call it once, at the top of a spec file: `const test = appPerFile('e2e-…', {...})`.
 */
export function appPerFile(profile: string, options: AppOptions & Parameters<typeof startSignedInApp>[2] = {}) {
  const { home: openHome = false, ...startOptions } = options;
  const app = perFile<SignedInApp>('the app');
  const home = perFile<Locator>('Home (appPerFile(…, { home: true }))');
  let hub: Promise<HubClient> | undefined;

  const test = base.extend<AppFixtures>({
    // Playwright reads a fixture's dependencies from its first parameter, which must destructure (https://playwright.dev/docs/test-fixtures, "Creating a fixture").
    // eslint-disable-next-line no-empty-pattern
    app: async ({}, use) => use(app.get()),
    page: async ({ app }, use) => use(app.page),
    context: async ({ app }, use) => use(app.context),
    host: async ({ app }, use) => use(app.host),
    info: async ({ app }, use) => use(app.info),
    // eslint-disable-next-line no-empty-pattern
    home: async ({}, use) => use(home.get()),
    hub: async ({ app }, use) => use(await (hub ??= connectHubClient(app.info, 'Home'))),
  });
  test.beforeAll(async ({ browser }) => {
    app.set(await startSignedInApp(browser, profile, startOptions));
    if (openHome) home.set(await openHomeLive(app.get().page));
  });
  test.afterAll(async () => {
    const started = app.peek();
    app.set(undefined);
    home.set(undefined);
    hub = undefined;
    await started?.close();
  });
  return test;
}

/** What a spec of `stackPerFile` may ask for: its file's stack and the addresses it printed. */
export interface StackFixtures {
  stack: RunningProgram;
  info: StackInfo;
}

/**
 * The reference stack alone (startStackProgram), started before the file's first test and stopped after
 * its last (exit code 0 expected); each test starts the hosts it needs. Call it once, at the top of a
 * spec file: `const test = stackPerFile()`.
 */
export function stackPerFile() {
  const running = perFile<{ stack: RunningProgram; info: StackInfo }>('the stack');
  const test = base.extend<StackFixtures>({
    // eslint-disable-next-line no-empty-pattern
    stack: async ({}, use) => use(running.get().stack),
    // eslint-disable-next-line no-empty-pattern
    info: async ({}, use) => use(running.get().info),
  });
  test.beforeAll(async () => running.set(await startStackProgram()));
  test.afterAll(async () => {
    const started = running.peek();
    running.set(undefined);
    if (started) expect(await started.stack.stop()).toBe(0);
  });
  return test;
}
