/**
 * Charts of the home's history (issue 16 §2), end to end in Chromium through the browser host against
 * the reference stack and its backfilled demo history: a sensor card's sparkline, a device's history
 * with its range switch, the text alternative, CSV export of the shown points (compared with what the
 * hub answers another client), and no axe violation in the history dialog in either scheme.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { INSIGHTS_RESOLUTIONS, type InsightsResolution } from '../../../common/insights';
import type { HubClient } from '../support/hub-client';
import { openHomeLive, type SignedInApp, startAppOnHome, startSignedInApp } from '../support/browser-host';

test.describe.configure({ mode: 'serial' });

let app: SignedInApp;
let page: Page;
let home: Locator;
let hub: HubClient;

test.beforeAll(async ({ browser }) => {
  ({ app, page, home, hub } = await startAppOnHome(browser, 'e2e-insights', { bypassCSP: true }));
});
test.afterAll(() => app?.close());

/** How many pixels of a canvas inside `selector` were painted (not transparent). */
const paintedPixels = (selector: string) =>
  page.evaluate(`(() => {
    const canvas = document.querySelector(${JSON.stringify(selector)} + ' canvas');
    if (!canvas) return -1;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
    return painted;
  })()`) as Promise<number>;

/** The rows of a CSV export: [ISO time, value]. */
async function exportCsv(section: Locator, title: string): Promise<{ header: string; rows: [string, string][] }> {
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: `Export CSV of ${title}` }).click();
  const text = await readFile((await (await download).path())!, 'utf8');
  const [header, ...lines] = text.trimEnd().split('\r\n');
  return { header: header!, rows: lines.map((line) => line.split(',') as [string, string]) };
}

async function openHistory(deviceName: string): Promise<Locator> {
  await home.getByRole('button', { name: `History of ${deviceName}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `History of ${deviceName}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a numeric sensor's card shows its last 24 hours as a sparkline, named in words", async () => {
  const card = home.getByRole('article', { name: 'Bathroom climate sensor', exact: true });
  await card.scrollIntoViewIfNeeded(); // a sparkline is read when its card comes into view
  const sparkline = card.getByRole('img', { name: /^Temperature over the last 24 hours: minimum [\d.]+ °C, maximum [\d.]+ °C, average [\d.]+ °C, last [\d.]+ °C\.$/ });
  await expect(sparkline).toBeVisible();
  expect(await paintedPixels('[aria-label="Bathroom climate sensor"] .sparkline')).toBeGreaterThan(20);
  // A card without a measured number (a light) has none.
  await expect(home.getByRole('article', { name: 'Ceiling light', exact: true }).locator('.sparkline')).toHaveCount(0);
});

test('a device history: a chart per capability, the range switch reads that range, the CSV is the shown data and matches the hub', async () => {
  const device = await hub.device('Bathroom climate sensor');
  const dialog = await openHistory('Bathroom climate sensor');
  const section = dialog.getByRole('region', { name: /^Temperature/ });
  const chart = section.getByRole('img', { name: /^Temperature over the last 24 hours: minimum/ });
  await expect(chart).toBeVisible();
  expect(await paintedPixels('dialog .capability-history .insights-chart')).toBeGreaterThan(100);

  for (const [label, resolution] of [
    ['Week', 'last7Days'],
    ['Hour', 'lastHour'],
  ] as const satisfies readonly [string, InsightsResolution][]) {
    await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: label, exact: true }).click();
    await expect(dialog.getByRole('button', { name: label, exact: true })).toHaveAttribute('aria-pressed', 'true');
    const rangeWords = resolution === 'last7Days' ? 'the last 7 days' : 'the last hour';
    const named = section.getByRole('img', { name: new RegExp(`^Temperature over ${rangeWords}: minimum ([\\d.]+) °C, maximum ([\\d.]+) °C, average [\\d.]+ °C, last ([\\d.]+) °C\\.$`) });
    await expect(named).toBeVisible();

    const { header, rows } = await exportCsv(section, 'Temperature');
    expect(header).toBe('time,Temperature (°C)');
    // The range asked for: its step between rows, and about its window from first to last.
    const { stepMs, windowMs } = INSIGHTS_RESOLUTIONS[resolution];
    const times = rows.map(([time]) => Date.parse(time));
    expect(times[1]! - times[0]!).toBe(stepMs);
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(windowMs - 3 * stepMs);

    // The words name the CSV's minimum, maximum and last.
    const values = rows.map(([, value]) => Number(value)).filter((value, i) => rows[i]![1] !== '');
    const [, min, max, last] = new RegExp(`minimum ([\\d.]+) °C, maximum ([\\d.]+) °C, average [\\d.]+ °C, last ([\\d.]+) °C`).exec((await named.getAttribute('aria-label'))!)!;
    expect(Number(min)).toBeCloseTo(Math.min(...values), 1);
    expect(Number(max)).toBeCloseTo(Math.max(...values), 1);
    expect(Number(last)).toBeCloseTo(values.at(-1)!, 1);

    // The shown points are the hub's: every step both have (but the current one, still changing) has the same value.
    const answer = await hub.insightsEntries(device.id, 'measure_temperature', resolution);
    const fromHub = new Map(answer.values.slice(0, -1).map(({ t, v }) => [Date.parse(t), v === null ? '' : String(v)]));
    const shared = rows.slice(0, -1).filter(([time]) => fromHub.has(Date.parse(time)));
    expect(shared.length).toBeGreaterThan(rows.length - 4);
    for (const [time, value] of shared) expect(value, time).toBe(fromHub.get(Date.parse(time)));
  }

  // The figures above the chart say the same as its words.
  await expect(section.getByRole('definition').first()).toHaveText(/^[\d.]+ °C$/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(home.getByRole('button', { name: 'History of Bathroom climate sensor', exact: true })).toBeFocused();
});

test('a chart is read from the keyboard: focused, End reads its last point (the Last figure), Home its first, and the reading is announced', async () => {
  const dialog = await openHistory('Bathroom climate sensor');
  const section = dialog.getByRole('region', { name: /^Temperature/ });
  const chart = section.getByRole('img', { name: /^Temperature over the last 24 hours: / });
  const readout = section.locator('.chart-readout');
  await expect(readout).toHaveAttribute('aria-live', 'polite');
  await chart.focus();
  await expect(chart).toBeFocused();

  await page.keyboard.press('End');
  const last = (await section.getByRole('definition').last().textContent())!;
  await expect(readout).toHaveText(new RegExp(`: ${last.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  const atEnd = (await readout.textContent())!;

  await page.keyboard.press('Home');
  await expect(readout).not.toHaveText(atEnd);
  await expect(readout).toHaveText(/^.+: [\d.]+ °C$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a boolean is drawn as on/off bands and said in words; the history opens from the keyboard and Escape closes it', async () => {
  await home.getByRole('button', { name: 'History of Front door sensor', exact: true }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'History of Front door sensor' });
  await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: 'Week', exact: true }).click();
  const contact = dialog.getByRole('region').filter({ has: page.getByRole('heading', { name: /contact/i }) });
  await expect(contact.getByRole('img', { name: /over the last 7 days: on (once|\d+ times); last (on|off)\.$/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a live value is appended to the shown chart as it arrives: its words and its CSV's last row", async () => {
  const thermostat = await hub.device('Bedroom thermostat');
  const dialog = await openHistory('Bedroom thermostat');
  await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: 'Hour', exact: true }).click();
  const target = dialog.getByRole('region', { name: /^Target temperature/ });
  await expect(target.getByRole('img', { name: /^Target temperature over the last hour: / })).toBeVisible();
  const before = await exportCsv(target, 'Target temperature');

  const changed = await hub.setCapability(thermostat.id, 'target_temperature', 26.5); // another client's change, above the demo's range
  await expect(target.getByRole('img', { name: /^Target temperature over the last hour: .*maximum 26\.5 °C, .*last 26\.5 °C\.$/ })).toBeVisible();
  const after = await exportCsv(target, 'Target temperature');
  expect(after.rows.at(-1)).toEqual([new Date(changed.time).toISOString(), '26.5']);
  expect(after.rows.length).toBeGreaterThanOrEqual(before.rows.length);
  await page.keyboard.press('Escape');
});

test('the energy view: power now, energy per day as bars and per device, the CSV of the shown days adds up to what the meters counted', async () => {
  await home.getByRole('button', { name: 'Energy', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Energy on Home' });
  await expect(dialog.getByRole('status')).toHaveText(/^Using [\d,.]+ W now \(\d+ devices report power\)\.$/);
  const bars = dialog.getByRole('img', { name: /^Energy used per day over the last 7 days: ([\d,.]+) kWh in all; most on .+, least on .+, last .+\.$/ });
  await expect(bars).toBeVisible();
  expect(await paintedPixels('dialog .energy-chart')).toBeGreaterThan(100);
  await expect(dialog.getByRole('rowheader', { name: 'Towel rail', exact: true })).toBeVisible();

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export CSV of the energy per day' }).click();
  const [header, ...rows] = (await readFile((await (await download).path())!, 'utf8')).trimEnd().split('\r\n').map((line) => line.split(','));
  expect(header!.at(-1)).toBe('Total (kWh)');
  expect(rows.length).toBeGreaterThanOrEqual(7); // a rolling week touches 7 or 8 local days
  const total = rows.reduce((sum, row) => sum + Number(row.at(-1)), 0);
  const inAll = Number(/: ([\d,.]+) kWh in all/.exec((await bars.getAttribute('aria-label'))!)![1]!.replaceAll(',', ''));
  expect(inAll).toBeCloseTo(total, 2);
  // A meter's days add up to its last reading minus its first in the range (the demo meters never reset).
  const rail = await hub.device('Towel rail');
  const column = header!.indexOf('Towel rail (kWh)');
  const readings = (await hub.insightsEntries(rail.id, 'meter_power', 'last7Days')).values.flatMap(({ v }) => (typeof v === 'number' ? [v] : []));
  expect(rows.reduce((sum, row) => sum + Number(row[column]), 0)).toBeCloseTo(readings.at(-1)! - readings[0]!, 1);

  await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: 'Month', exact: true }).click();
  await expect(dialog.getByRole('img', { name: /^Energy used per day over the last 31 days: / })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a sign-in without the history scope shows no chart and says why; nothing breaks', async ({ browser }) => {
  const readonly = await startSignedInApp(browser, 'e2e-insights-readonly', { client: 'readonly' });
  try {
    const devices = await openHomeLive(readonly.page);
    await expect(devices.getByText('No charts: Hubdesk was not granted access to the history of Home.')).toBeVisible();
    await expect(devices.getByRole('article', { name: 'Bathroom climate sensor', exact: true })).toBeVisible();
    await expect(devices.locator('.sparkline')).toHaveCount(0);
    await expect(devices.getByRole('button', { name: /^History of / })).toHaveCount(0);
    await expect(devices.getByRole('button', { name: 'Energy', exact: true })).toHaveCount(0);
  } finally {
    await readonly.close();
  }
});

/** The WCAG A/AA violations axe finds in the open dialog, each as "rule: help — elements". */
async function dialogViolations(): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  const found = (await page.evaluate(`axe.run(document.querySelector('dialog[open]'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })`)) as {
    violations: { id: string; help: string; nodes: { target: string[] }[] }[];
  };
  return found.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds no violation in the history and energy dialogs, ${colorScheme}`, async () => {
    await page.emulateMedia({ colorScheme });
    const history = await openHistory('Living room thermostat');
    await expect(history.getByRole('img').first()).toBeVisible();
    expect(await dialogViolations(), 'history').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(history).toBeHidden();

    await home.getByRole('button', { name: 'Energy', exact: true }).click();
    const energy = page.getByRole('dialog', { name: 'Energy on Home' });
    await expect(energy.getByRole('img')).toBeVisible();
    expect(await dialogViolations(), 'energy').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(energy).toBeHidden();
  });
}

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
