/**
 * axe-core in a page of the app: the WCAG 2.1 A and AA violations it finds. The page's context must be
 * made with `bypassCSP: true`: the app's CSP refuses axe's inline script otherwise.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/** What the page function returns: each violated rule with the elements it found. */
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}
// The page function runs in Chromium; tests are type-checked without the DOM library.
declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> };
declare const document: unknown;

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The WCAG A/AA violations axe finds on the page as it is now, each as "rule: help (elements)". */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  const found = await page.evaluate(() =>
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] }),
  );
  return found.violations.map((v) => `${v.id} (${v.impact ?? '?'}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
