/**
 * Charts of the home's history (docs/insights-app.md), end to end in Chromium through the browser host against
 * the reference stack and its backfilled demo history: a sensor card's sparkline, a device's history
 * with its range switch, the text alternative, CSV export of the shown points (compared with what the
 * hub answers another client), and no axe violation in the history dialog in either scheme.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect, type Locator, type Page } from '@playwright/test';
import { INSIGHTS_RESOLUTIONS, type InsightsResolution } from '../../../common/insights';
import { describePair } from '../../../renderer/src/format/insights-series';
import { openHomeLive, startSignedInApp } from '../support/browser-host';
import { appPerFile } from '../support/fixtures';

const test = appPerFile('e2e-insights', { home: true, bypassCSP: true });
test.describe.configure({ mode: 'serial' });

/** How many pixels of a canvas inside `selector` were painted (not transparent). */
const paintedPixels = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const canvas = document.querySelector(${JSON.stringify(selector)} + ' canvas');
    if (!canvas) return -1;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
    return painted;
  })()`) as Promise<number>;

/** The rows of a CSV export: [ISO time, value]. */
async function exportCsv(page: Page, section: Locator, title: string): Promise<{ header: string; rows: [string, string][] }> {
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: `Export CSV of ${title}` }).click();
  const text = await readFile((await (await download).path())!, 'utf8');
  const [header, ...lines] = text.trimEnd().split('\r\n');
  return { header: header!, rows: lines.map((line) => line.split(',') as [string, string]) };
}

/**
 * Opens a device's history from its card with the keyboard: a zone laid out as it scrolls into view
 * moves the cards below it, and a mouse click whose button moved between press and release is lost
 * (docs/testing.md, "A click during a layout shift").
 */
async function openHistory(page: Page, home: Locator, deviceName: string): Promise<Locator> {
  const button = home.getByRole('button', { name: `History of ${deviceName}`, exact: true });
  await button.focus();
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `History of ${deviceName}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a numeric sensor's card shows its last 24 hours as a sparkline, named in words", async ({ page, home }) => {
  const card = home.getByRole('article', { name: 'Bathroom climate sensor', exact: true });
  await card.scrollIntoViewIfNeeded(); // a sparkline is read when its card comes into view
  const sparkline = card.getByRole('img', {
    name: /^Temperature over the last 24 hours: minimum [\d.]+ °C, maximum [\d.]+ °C, average [\d.]+ °C, last [\d.]+ °C\.$/,
  });
  await expect(sparkline).toBeVisible();
  expect(await paintedPixels(page, '[aria-label="Bathroom climate sensor"] .sparkline')).toBeGreaterThan(20);
  // A card without a measured number (a light) has none.
  await expect(home.getByRole('article', { name: 'Ceiling light', exact: true }).locator('.sparkline')).toHaveCount(0);
});

test('a device history: a chart per capability, the range switch reads that range, the CSV is the shown data and matches the hub', async ({
  page,
  home,
  hub,
}) => {
  const device = await hub.device('Bathroom climate sensor');
  const dialog = await openHistory(page, home, 'Bathroom climate sensor');
  const section = dialog.getByRole('region', { name: /^Temperature/ });
  const chart = section.getByRole('img', { name: /^Temperature over the last 24 hours: minimum/ });
  await expect(chart).toBeVisible();
  expect(await paintedPixels(page, 'dialog .capability-history .insights-chart')).toBeGreaterThan(100);

  for (const [label, resolution] of [
    ['Week', 'last7Days'],
    ['Hour', 'lastHour'],
  ] as const satisfies readonly [string, InsightsResolution][]) {
    await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: label, exact: true }).click();
    await expect(dialog.getByRole('button', { name: label, exact: true })).toHaveAttribute('aria-pressed', 'true');
    const rangeWords = resolution === 'last7Days' ? 'the last 7 days' : 'the last hour';
    const named = section.getByRole('img', {
      name: new RegExp(`^Temperature over ${rangeWords}: minimum ([\\d.]+) °C, maximum ([\\d.]+) °C, average [\\d.]+ °C, last ([\\d.]+) °C\\.$`),
    });
    await expect(named).toBeVisible();

    const { header, rows } = await exportCsv(page, section, 'Temperature');
    expect(header).toBe('time,Temperature (°C)');
    // The range asked for: its step between rows, and about its window from first to last.
    const { stepMs, windowMs } = INSIGHTS_RESOLUTIONS[resolution];
    const times = rows.map(([time]) => Date.parse(time));
    expect(times[1]! - times[0]!).toBe(stepMs);
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(windowMs - 3 * stepMs);

    // The words name the CSV's minimum, maximum and last.
    const values = rows.map(([, value]) => Number(value)).filter((value, i) => rows[i]![1] !== '');
    const [, min, max, last] = new RegExp(`minimum ([\\d.]+) °C, maximum ([\\d.]+) °C, average [\\d.]+ °C, last ([\\d.]+) °C`).exec(
      (await named.getAttribute('aria-label'))!,
    )!;
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

test('a chart is read from the keyboard: focused, End reads its last point (the Last figure), Home its first, and the reading is announced', async ({
  page,
  home,
}) => {
  const dialog = await openHistory(page, home, 'Bathroom climate sensor');
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

test('a chart zooms to a dragged range and with + and −; "Show the whole range" shows it whole again; its readout is in the app\'s one time format', async ({
  page,
  home,
}) => {
  const dialog = await openHistory(page, home, 'Bathroom climate sensor');
  const section = dialog.getByRole('region', { name: /^Temperature/ });
  const chart = section.getByRole('img', { name: /^Temperature over the last 24 hours: / });
  const whole = section.getByRole('button', { name: /^Show the whole range of / });
  await expect(whole).toBeHidden();
  await chart.scrollIntoViewIfNeeded(); // the mouse acts in the viewport: the charts below the first are scrolled to
  const plot = (await chart.locator('.u-over').boundingBox())!;
  await page.mouse.move(plot.x + plot.width * 0.3, plot.y + plot.height / 2);
  await page.mouse.down();
  await page.mouse.move(plot.x + plot.width * 0.6, plot.y + plot.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(whole).toBeVisible();
  await whole.click();
  await expect(whole).toBeHidden();

  await chart.focus();
  await page.keyboard.press('+');
  await expect(whole).toBeVisible();
  await page.keyboard.press('-');
  await expect(whole).toBeHidden();
  // The readout as date-time.ts writes a moment in this locale (en-US): "Nov 27, 2026, 14:05", a 24-hour clock.
  await page.keyboard.press('End');
  await expect(section.locator('.chart-readout')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}: [\d.]+ °C$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a boolean is drawn as on/off bands and said in words; the history opens from the keyboard and Escape closes it', async ({ page, home }) => {
  await home.getByRole('button', { name: 'History of Front door sensor', exact: true }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'History of Front door sensor' });
  await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: 'Week', exact: true }).click();
  const contact = dialog.getByRole('region').filter({ has: page.getByRole('heading', { name: /contact/i }) });
  await expect(contact.getByRole('img', { name: /over the last 7 days: on (once|\d+ times); last (on|off)\.$/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a thermostat's history opens on its temperature and target together, its heating painted as bands that match the shown data; set to cool, its cooling", async ({
  page,
  home,
  hub,
}) => {
  const dialog = await openHistory(page, home, 'Living room thermostat');
  const pair = dialog.getByRole('region', { name: 'Compared: Temperature and Target temperature' });
  const chart = pair.getByRole('img', { name: /^Temperature and Target temperature over the last 24 hours: / });
  await expect(chart).toBeVisible();
  expect(await paintedPixels(page, 'dialog .pair-history .insights-chart')).toBeGreaterThan(100);

  // The words are those of the shown points: the two charts' CSVs (each the shown data, checked against the hub above), aligned.
  const measured = dialog.getByRole('region', { name: /^Temperature/ });
  const target = dialog.getByRole('region', { name: /^Target temperature/ });
  const wordsOf = (words: string) => / ((?:Heating|Cooling) .*|Not (?:heating|cooling)\.)$/.exec(words)?.[1];
  const shownWords = (conditioning: 'heating' | 'cooling') =>
    expect.poll(async () => {
      const label = (await chart.getAttribute('aria-label'))!;
      const [m, t] = [await exportCsv(page, measured, 'Temperature'), await exportCsv(page, target, 'Target temperature')];
      const times = m.rows.map(([time]) => Date.parse(time));
      const targetAt = new Map(t.rows.map(([time, value]) => [Date.parse(time), value === '' ? null : Number(value)]));
      const fromData = describePair(
        [
          { title: 'Temperature', type: 'number', decimals: 1, units: '°C', capabilityId: 'measure_temperature' },
          { title: 'Target temperature', type: 'number', decimals: 1, units: '°C', capabilityId: 'target_temperature' },
        ],
        'the last 24 hours',
        [times, m.rows.map(([, value]) => (value === '' ? null : Number(value))), times.map((time) => targetAt.get(time) ?? null)],
        conditioning,
      );
      // A live value may land between the reads: asked again until both say the same.
      return wordsOf(label) === wordsOf(fromData) ? wordsOf(label) : `shown "${wordsOf(label)}", the data says "${wordsOf(fromData)}"`;
    });
  await shownWords('heating').toMatch(/^(Heating (once|\d+ times), .+ in all\.|Not heating\.)$/);

  // Set to cool on the hub (as another client would): the open chart shows when it was cooling instead.
  const thermostat = await hub.device('Living room thermostat');
  await hub.setCapability(thermostat.id, 'thermostat_mode', 'cool');
  await shownWords('cooling').toMatch(/^(Cooling (once|\d+ times), .+ in all\.|Not cooling\.)$/);
  await hub.setCapability(thermostat.id, 'thermostat_mode', 'heat');
  await expect(chart).toHaveAttribute('aria-label', /(Heating .*|Not heating\.)$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('any two series of a device are compared by choosing them in the two lists; a series cannot be drawn with itself', async ({ page, home }) => {
  const dialog = await openHistory(page, home, 'Office air quality');
  const pair = dialog.locator('.pair-history');
  const draw = pair.getByRole('combobox', { name: 'Draw' });
  const withList = pair.getByRole('combobox', { name: 'with' });
  const shown = async () => [await draw.locator('option:checked').textContent(), await withList.locator('option:checked').textContent()];
  const [firstTitle, secondTitle] = await shown();
  await expect(pair.getByRole('heading', { level: 3 })).toHaveText(`Compared: ${firstTitle} and ${secondTitle}`);
  // Each list offers every series, the other list's choice disabled.
  await expect(draw.locator('option:disabled')).toHaveText([secondTitle!]);
  await expect(withList.locator('option:disabled')).toHaveText([firstTitle!]);

  // The one series neither list shows, drawn with the first: heading, chart and words follow.
  const titles = await withList.locator('option').allTextContents();
  const third = titles.find((title) => title !== firstTitle && title !== secondTitle)!;
  expect(titles).toHaveLength(3);
  await withList.selectOption({ label: third });
  await expect(pair.getByRole('heading', { level: 3 })).toHaveText(`Compared: ${firstTitle} and ${third}`);
  const chart = pair.getByRole('img', { name: new RegExp(`^${firstTitle} and ${third} over the last 24 hours: `) });
  await expect(chart).toBeVisible();
  // The pair's last value of the third series is the last value of its own chart (asked again until both
  // are read between two live values).
  const own = dialog.getByRole('region', { name: new RegExp(`^${third}`) }).getByRole('img');
  const lastOf = (words: string | null, pattern: RegExp) => pattern.exec(words ?? '')?.[1];
  await expect
    .poll(async () => {
      const inPair = lastOf(await chart.getAttribute('aria-label'), new RegExp(`; ${third} last ([^;]+)\\.$`));
      const inOwn = lastOf(await own.getAttribute('aria-label'), /, last ([^,]+)\.$/);
      return inPair === inOwn ? inPair : `the pair says ${inPair}, its own chart ${inOwn}`;
    })
    .toMatch(/^\d/);
  expect(await chart.getAttribute('aria-label')).not.toMatch(/Heating|Not heating/);
  expect(await paintedPixels(page, 'dialog .pair-history .insights-chart')).toBeGreaterThan(100);

  // The first list now offers the old second series, and choosing it swaps which is drawn first.
  await expect(draw.locator('option:disabled')).toHaveText([third]);
  await draw.selectOption({ label: secondTitle! });
  await expect(pair.getByRole('heading', { level: 3 })).toHaveText(`Compared: ${secondTitle} and ${third}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a live value is appended to the shown chart as it arrives: its words and its CSV's last row", async ({ page, home, hub }) => {
  const thermostat = await hub.device('Bedroom thermostat');
  const dialog = await openHistory(page, home, 'Bedroom thermostat');
  await dialog.getByRole('group', { name: 'Range' }).getByRole('button', { name: 'Hour', exact: true }).click();
  const target = dialog.getByRole('region', { name: /^Target temperature/ });
  await expect(target.getByRole('img', { name: /^Target temperature over the last hour: / })).toBeVisible();
  const before = await exportCsv(page, target, 'Target temperature');

  const changed = await hub.setCapability(thermostat.id, 'target_temperature', 26.5); // another client's change, above the demo's range
  await expect(target.getByRole('img', { name: /^Target temperature over the last hour: .*maximum 26\.5 °C, .*last 26\.5 °C\.$/ })).toBeVisible();
  const after = await exportCsv(page, target, 'Target temperature');
  expect(after.rows.at(-1)).toEqual([new Date(changed.time).toISOString(), '26.5']);
  expect(after.rows.length).toBeGreaterThanOrEqual(before.rows.length);
  await page.keyboard.press('Escape');
});

/** What a meter counted in [from, to): its last reading of a step before `to` minus its last before `from` (the demo meters never reset). */
function counted(entries: { values: { t: string; v: number | boolean | null }[] }, from: number, to: number): number {
  const lastBefore = (time: number) => entries.values.filter(({ t, v }) => Date.parse(t) < time && typeof v === 'number').at(-1)!.v as number;
  return lastBefore(to) - lastBefore(from);
}
const localMidnight = (time: number, daysAfter = 0) => {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + daysAfter).getTime();
};
const mondayOf = (time: number) => localMidnight(time, -((new Date(time).getDay() + 6) % 7));
/** "1,234.5 kWh" → 1234.5 */
const kwh = (text: string | null) => Number(/([\d,.]+) kWh/.exec(text ?? '')![1]!.replaceAll(',', ''));

test("the Energy view: every hub's meters this week and last week, stacked bars, top consumers, CSV and cost", async ({ page, home, hub }) => {
  await home.getByRole('button', { name: 'Energy', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Energy' })).toHaveAttribute('aria-selected', 'true');
  const view = page.getByRole('region', { name: 'Energy' });
  await expect(view.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Week' })).toHaveAttribute('aria-pressed', 'true');
  const bars = view.getByRole('img', { name: /^Energy used this week, per day: ([\d,.]+) kWh in all; most at .+; largest user .+\.$/ });
  await expect(bars).toBeVisible();
  expect(await paintedPixels(page, '.energy-view .energy-chart')).toBeGreaterThan(100);
  await expect(view.getByText(/^Home is using [\d,.]+ W now \(\d+ devices report power\)\.$/)).toBeVisible();

  // The towel rail's row says what its meter counted this week and last week, as the hub's history has it.
  const now = Date.now();
  const rail = await hub.device('Towel rail');
  const entries = await hub.insightsEntries(rail.id, 'meter_power', 'last14Days');
  const row = view.getByRole('row', { name: /^Towel rail Home / });
  const [thisWeek, lastWeek] = [await row.getByRole('cell').nth(1).textContent(), await row.getByRole('cell').nth(3).textContent()];
  expect(kwh(thisWeek)).toBeCloseTo(counted(entries, mondayOf(now), now + 1), 1);
  expect(kwh(lastWeek)).toBeCloseTo(counted(entries, mondayOf(mondayOf(now) - 1), mondayOf(now)), 1);

  // The home's figures are its devices' sums; the CSV of the week adds up to the same.
  const figures = view.locator('.energy-total .energy-figure');
  const cells = async (column: number) =>
    (await view.locator('tbody tr').evaluateAll((rows, i) => rows.map((r) => r.children[i]!.textContent), column)) as string[];
  const sum = (texts: string[]) => texts.reduce((total, text) => total + kwh(text), 0);
  expect(kwh(await figures.nth(0).textContent())).toBeCloseTo(sum(await cells(2)), 1);
  expect(kwh(await figures.nth(1).textContent())).toBeCloseTo(sum(await cells(4)), 1);
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: 'Export CSV of the energy used this week' }).click();
  const [header, ...rows] = (await readFile((await (await download).path())!, 'utf8'))
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  expect(header!.at(-1)).toBe('Total (kWh)');
  expect(rows).toHaveLength(Math.round((localMidnight(now, 1) - mondayOf(now)) / 86_400_000));
  expect(rows.reduce((total, r) => total + Number(r.at(-1)), 0)).toBeCloseTo(kwh(await figures.nth(0).textContent()), 1);

  // Today beside yesterday.
  await view.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Today' }).click();
  await expect(view.getByRole('img', { name: /^Energy used today, per hour: / })).toBeVisible();
  const recent = await hub.insightsEntries(rail.id, 'meter_power', 'last3Days');
  const today = Date.now();
  expect(kwh(await row.getByRole('cell').nth(1).textContent())).toBeCloseTo(counted(recent, localMidnight(today), today + 1), 1);
  expect(kwh(await row.getByRole('cell').nth(3).textContent())).toBeCloseTo(counted(recent, localMidnight(today, -1), localMidnight(today)), 1);

  // No price yet: none shown, and a way to set one. Set in Settings, the costs follow.
  await expect(view.locator('.energy-cost')).toHaveCount(0);
  await view.getByRole('button', { name: 'Set a price per kWh' }).click();
  const settings = page.getByRole('group', { name: 'Energy' });
  await settings.getByLabel('Price per kWh').fill('abc');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByRole('alert')).toHaveText('The price must be a number from 0 to 1000.');
  await settings.getByLabel('Price per kWh').fill('0.25');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByRole('alert')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Energy' }).click();
  await expect(bars).toBeVisible(); // back on the week, its own readings shown
  // Read together: the figure and its cost of one render.
  const [totalText, costText] = await view
    .locator('.energy-total')
    .first()
    .evaluate((total) => [total.querySelector('.energy-figure')?.textContent ?? '', total.querySelector('.energy-cost')?.textContent ?? '']);
  expect(Number(costText!.replace(/[^\d.]/g, ''))).toBeCloseTo(kwh(totalText!) * 0.25, 1);
  await page.getByRole('tab', { name: 'Hubs' }).click();
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
    // The Energy view says why this hub is not counted, and counts nothing else.
    await readonly.page.getByRole('tab', { name: 'Energy' }).click();
    await expect(readonly.page.getByRole('region', { name: 'Energy' }).getByText('Hubdesk was not granted access to the history of Home.')).toBeVisible();
  } finally {
    await readonly.close();
  }
});

/** The WCAG A/AA violations axe finds in the open dialog, each as "rule: help — elements". */
const dialogViolations = (page: Page) => violationsIn(page, 'dialog[open]');

/** The WCAG A/AA violations axe finds in the element `selector` finds, each as "rule: help — elements". */
async function violationsIn(page: Page, selector: string): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  const found = (await page.evaluate(
    `axe.run(document.querySelector(${JSON.stringify(selector)}), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })`,
  )) as {
    violations: { id: string; help: string; nodes: { target: string[] }[] }[];
  };
  return found.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds no violation in the history dialog and the Energy view, ${colorScheme}`, async ({ page, home }) => {
    await page.emulateMedia({ colorScheme });
    const history = await openHistory(page, home, 'Living room thermostat');
    await expect(history.getByRole('img').first()).toBeVisible();
    expect(await dialogViolations(page), 'history').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(history).toBeHidden();

    await home.getByRole('button', { name: 'Energy', exact: true }).click();
    const energy = page.getByRole('region', { name: 'Energy' });
    await expect(energy.getByRole('img')).toBeVisible();
    expect(await violationsIn(page, '.energy-view'), 'energy').toEqual([]);
    await page.getByRole('tab', { name: 'Hubs' }).click();
  });
}

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
