/**
 * How soon a user sees that the open hub went silent, and that it is live again (docs/benchmarks.md,
 * "Noticing a silent hub"; docs/hub-realtime.md, "Liveness" and "While the open hub is not live"): the
 * reference stack as its own process, the browser host signed in, Chromium showing Home live. Each run
 * waits a random part of a ping interval, stops the stack (SIGSTOP) and times until the page shows the
 * words — the banner's status saying "… is not responding" and the live indicator "Not live" — then
 * continues it (SIGCONT) and times until the indicator says "Live" and the banner is empty again. The page
 * notes each change of what it shows, with its own `Date.now()`, from a MutationObserver (the page and the
 * bench share the machine's clock), so the figures do not depend on how often the bench looks.
 * Targets as for the sockets (heartbeat.ts): shown within 5 s, live again within 2 s, every run.
 */
import { chromium, type Page } from '@playwright/test';
import config, { chromiumPath } from '../../playwright.config';
import { openHomeLive, type SignedInApp, startSignedInApp } from '../e2e/support/browser-host';
import { freezeAndThaw, type FreezeWatch, rowsOf } from './heartbeat';
import { watchMachine } from './machine-load';
import type { BenchRow } from './route-opening';

/** What the page shows of the open hub's liveness: the not-responding words, live, or something else. */
type Shown = 'silent' | 'live' | 'other';
/** A change of what the page shows: when (`Date.now()` in the page), and the live indicator's state then. */
interface ScreenMark {
  shown: Shown;
  state: string;
  at: number;
}

// What the page-side code (run in Chromium by page.evaluate) uses: this program is type-checked without the DOM library.
declare const window: { screenMarks?: ScreenMark[] };
declare const document: { body: object; querySelector(selector: string): { textContent: string | null; getAttribute(name: string): string | null } | null };
declare const MutationObserver: new (callback: () => void) => { observe(target: object, options: Record<string, unknown>): void };

/** The words of the banner and the indicator, as not-live.spec.ts asserts them (common/live-words.ts). */
const SCREEN_WORDS = { silent: 'the words "is not responding" and "Not live"', back: '"Live", banner empty' };

/** From now on the page notes, in `window.screenMarks`, each change of what it shows (and of the indicator's state). */
async function noteWhatIsShown(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name = (fn) => fn'); // tsx keeps function names with a helper the page lacks
  await page.evaluate(() => {
    const marks: ScreenMark[] = [];
    window.screenMarks = marks;
    const note = () => {
      const indicator = document.querySelector('.live-indicator');
      const words = indicator?.textContent?.trim() ?? '';
      const banner = document.querySelector('.live-banner [role="status"]')?.textContent ?? '';
      const shown: Shown = words === 'Not live' && banner.includes('is not responding') ? 'silent' : words === 'Live' && banner === '' ? 'live' : 'other';
      const state = indicator?.getAttribute('data-live-state') ?? 'none';
      const last = marks.at(-1);
      if (last?.shown !== shown || last.state !== state) marks.push({ shown, state, at: Date.now() });
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** When (`Date.now()`) the page first showed `shown` at or after `since`; looked for at every frame. */
async function shownSince(page: Page, shown: Shown, since: number): Promise<number> {
  const found = await page.waitForFunction(
    ([wanted, after]) => window.screenMarks?.find((mark) => mark.shown === wanted && mark.at >= after)?.at,
    [shown, since] as const,
    { polling: 'raf', timeout: 0 },
  );
  return (await found.jsonValue()) as number;
}

function screenWatch(page: Page): FreezeWatch {
  return { now: () => Date.now(), silent: (since) => shownSince(page, 'silent', since), back: (since) => shownSince(page, 'live', since) };
}

/** The route Home was opened on, from the devices' summary ("12 devices · Secure LAN · 3 ms · …"). */
async function routeInUse(page: Page): Promise<string> {
  const summary = await page
    .getByRole('region', { name: 'Devices on Home' })
    .locator('p.muted', { hasText: / ms( · |$)/ })
    .first()
    .textContent();
  return summary?.split(' · ')[1] ?? 'route unknown';
}

export async function screenHeartbeat(): Promise<BenchRow[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: config.use?.launchOptions?.args });
  let app: SignedInApp | undefined;
  try {
    app = await startSignedInApp(browser, 'bench-screen-heartbeat');
    const { page, stack, host } = app;
    await openHomeLive(page);
    const route = await routeInUse(page);
    await noteWhatIsShown(page);
    const machine = watchMachine({ stack: stack.child.pid, host: host.child.pid, bench: process.pid });
    const times = await freezeAndThaw(stack, screenWatch(page), 'Home on screen');
    const meanwhile = machine();
    // Any state but live and not responding (reconnecting, connecting) means the socket was given up: not what is timed.
    const states = new Set((await page.evaluate(() => window.screenMarks ?? [])).map((mark) => mark.state));
    const gaveUp = [...states].some((state) => state !== 'live' && state !== 'not-responding');
    const rows = rowsOf(
      `Home on screen, browser host in Chromium, ${route}${gaveUp ? ' (the socket was given up: figures void)' : ''}`,
      times,
      meanwhile,
      SCREEN_WORDS,
    );
    if (gaveUp) rows.at(-1)!.met = false;
    return rows;
  } finally {
    try {
      app?.stack.child.kill('SIGCONT'); // never left frozen, whatever failed
      await app?.close();
    } finally {
      await browser.close();
    }
  }
}
