/**
 * The dashboard's words (docs/device-controls.md, "Controls"), end to end against the reference stack: a switch's row says its
 * state once, device classes read as words in the class filter, the filters say "N of M devices" and
 * clear in one press, and the flows strip shows the result and time of the last start.
 */
import { expect } from '@playwright/test';
import { appPerFile } from '../support/fixtures';

const test = appPerFile('e2e-dashboard', { home: true });
test.describe.configure({ mode: 'serial' });

test('a switch says its state once: the row is labelled by what it controls, the switch by its device and that', async ({ page, home }) => {
  const light = home.getByRole('article', { name: 'Ceiling light', exact: true });
  const onOff = light.getByRole('switch', { name: 'Ceiling light, on/off', exact: true });
  // `has` is matched inside each row, so it is built from the page, not from the card.
  const row = light.locator('.capability').filter({ has: page.getByRole('switch', { name: 'Ceiling light, on/off', exact: true }) });
  await expect(row.locator('dt')).toHaveText('On/off');
  await expect(onOff).toHaveText(/^(On|Off)$/);
  await expect(light).not.toContainText('Turned on');
});

test('classes read as words, and the filters say how many devices they leave and clear in one press', async ({ home }) => {
  const filters = home.getByRole('search');
  const count = filters.getByRole('status');
  const total = Number(/^(\d+) devices$/.exec((await count.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(1);
  await expect(filters.getByRole('button', { name: 'Clear' })).toHaveCount(0);

  const classChoice = filters.getByLabel('Class');
  await expect(classChoice.getByRole('option', { name: 'Window coverings' })).toHaveCount(1);
  await expect(classChoice.getByRole('option', { name: 'windowcoverings' })).toHaveCount(0);
  await classChoice.selectOption({ label: 'Window coverings' });
  const shown = await home.getByRole('article').count();
  expect(shown).toBeLessThan(total);
  await expect(count).toHaveText(`${shown} of ${total} devices`);

  await filters.getByRole('button', { name: 'Clear' }).click();
  await expect(count).toHaveText(`${total} devices`);
  await expect(classChoice).toHaveValue('');
  await expect(home.getByRole('article')).toHaveCount(total);
  await expect(filters.getByRole('button', { name: 'Clear' })).toHaveCount(0);
});

test('the flows strip shows the result and the time of the last start', async ({ home }) => {
  const strip = home.getByRole('region', { name: 'Flows' });
  await strip.getByRole('button', { name: 'Trigger Good night', exact: true }).click();
  const flow = strip.getByRole('listitem').filter({ hasText: 'Good night' });
  await expect(flow.getByRole('status')).toHaveText('Started');
  await expect(flow.locator('time')).toHaveText(/^at \d{1,2}:\d{2}:\d{2}/);
});
