/**
 * The inspector's tools end to end (docs/webhooks-app.md, "Registrations", "Replay" and "Signatures"): the browser host and the reference stack in
 * their own processes, driven in Chromium. Signatures of each scheme, valid and tampered; replay to
 * the intake (received by the forwarder and delivered again) and to a development server on loopback;
 * edit and replay with a JSON check; copy as curl run by a real curl; export and import; a refused
 * intake shown through the owner's tap with its outcome and reason.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import type { StackInfo } from '../../../services/stack';
import { addWebhookInApp, clearHistoryInApp, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import type { RunningProgram } from '../support/processes';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

const RUNNING = 'Hubdesk is running at ';
/** One secret for all four schemes: Standard Webhooks reads the base64 after whsec_, the others use the text. */
const SIGNING_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

let host: RunningProgram;

test.beforeEach(async ({ page, info }) => {
  host = startBrowserHost(info, tempDir('e2e-inspector-tools'));
  await page.goto(await host.line(RUNNING));
  await addWebhookInApp(page, {
    id: info.webhook.id,
    secret: info.webhook.secret,
    tapCredential: info.webhook.tap_credential,
    signingSecret: SIGNING_SECRET,
    values: 'lamp-1',
  });
  const registration = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
  await expect(registration.getByRole('status').first()).toHaveText('Connected');
  await expect(registration.getByText('Signing secret set: signatures checked')).toBeVisible();
  await expect(registration.getByLabel(/^Intake URL of/)).toHaveText(`${info.webhook_url}/webhook/${info.webhook.id}`);
});
test.afterEach(async () => {
  await host?.stop();
});

const hmac = (key: string | Buffer, data: string, encoding: 'hex' | 'base64') => createHmac('sha256', key).update(data).digest(encoding);
const now = () => Math.floor(Date.now() / 1000);

/** Headers that sign `body` in each scheme. */
const SCHEMES: Record<string, (body: string) => Record<string, string>> = {
  'Standard Webhooks': (body) => {
    const id = `msg_${Math.random().toString(36).slice(2)}`;
    const ts = String(now());
    const key = Buffer.from(SIGNING_SECRET.slice('whsec_'.length), 'base64');
    return { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${hmac(key, `${id}.${ts}.${body}`, 'base64')}` };
  },
  GitHub: (body) => ({ 'x-hub-signature-256': `sha256=${hmac(SIGNING_SECRET, body, 'hex')}` }),
  Stripe: (body) => {
    const ts = now();
    return { 'stripe-signature': `t=${ts},v1=${hmac(SIGNING_SECRET, `${ts}.${body}`, 'hex')}` };
  },
  Slack: (body) => {
    const ts = String(now());
    return { 'x-slack-request-timestamp': ts, 'x-slack-signature': `v0=${hmac(SIGNING_SECRET, `v0:${ts}:${body}`, 'hex')}` };
  },
};

async function post(info: StackInfo, body: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  expect(response.status).toBe(202);
}

/** An intake the forwarder refuses: its status, or 'closed' when it closed before the upload ended (a 413 may). */
async function postRefused(info: StackInfo, body: string, headers: Record<string, string> = {}): Promise<number | 'closed'> {
  return fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  }).then(
    (response) => response.status,
    () => 'closed' as const,
  );
}
const BROKEN_JSON = '{"device": {"id": "lamp-1",\n  "on" true}}';

const messageRows = (page: Page) => page.getByRole('list', { name: 'Webhook messages' }).getByRole('listitem');
const details = (page: Page) => page.getByRole('region', { name: 'Message details' });

/** Selects the newest message once there are `count`, and waits for its full message. */
async function openNewest(page: Page, count: number) {
  await expect(messageRows(page)).toHaveCount(count);
  await messageRows(page).first().getByRole('button').click();
  await expect(details(page).getByRole('group', { name: 'Replay and copy' })).toBeVisible();
}

test('each scheme’s signature shows as valid, and a tampered body as invalid with the reason', async ({ page, info }) => {
  let count = 0;
  for (const [scheme, sign] of Object.entries(SCHEMES)) {
    const body = JSON.stringify({ device: { id: 'lamp-1' }, scheme });
    await post(info, body, sign(body));
    await openNewest(page, ++count);
    await expect(details(page).getByText(`Valid signature (${scheme})`, { exact: true })).toBeVisible();

    await post(info, body.replace('lamp-1"', 'lamp-1" '), sign(body));
    await openNewest(page, ++count);
    await expect(details(page).getByText(`Invalid signature (${scheme})`, { exact: true })).toBeVisible();
    await expect(details(page).getByText('The signature does not match the body and the signing secret.')).toBeVisible();
  }
  await post(info, JSON.stringify({ device: { id: 'lamp-1' } }));
  await openNewest(page, count + 1);
  await expect(details(page).getByText('Unsigned', { exact: true })).toBeVisible();
});

test('replay to the intake is delivered again; replay to a local server brings the same bytes and shows its answer; edits are checked', async ({
  page,
  info,
}) => {
  const received: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const devUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dev/hook`;
  try {
    const body = '{"device":{"id":"lamp-1"},"note":"it\'s ünïcode"}';
    await post(info, body, { 'x-custom': 'one' });
    await openNewest(page, 1);
    const actions = details(page).getByRole('group', { name: 'Replay and copy' });
    const answer = details(page).getByRole('region', { name: 'Replay answer' });

    await actions.getByRole('button', { name: 'Replay to intake' }).click();
    await expect(answer.getByText('202', { exact: true })).toBeVisible();
    await expect(messageRows(page)).toHaveCount(2);

    await actions.getByLabel('Replay to URL').fill(devUrl);
    await actions.getByRole('button', { name: 'Send' }).click();
    await expect(answer.getByText('201', { exact: true })).toBeVisible();
    await expect(answer.getByLabel('Answer body')).toHaveText('thanks');
    expect(received).toHaveLength(1);
    expect(received[0]!.body.toString()).toBe(body);
    expect(received[0]!.headers['x-custom']).toBe('one');

    // Edit and replay: a body that is not JSON is refused with its position; a valid edit is sent.
    await actions.getByRole('button', { name: 'Edit and replay…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit and replay' });
    await expect(dialog.getByLabel('Send to')).toHaveValue(devUrl);
    await dialog.getByLabel('Body').fill('{"device": {"id": "lamp-2",}}');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(/not valid JSON \(line 1, column 28\)/);
    await dialog.getByLabel('Body').fill('{"device": {"id": "lamp-2"}}');
    await dialog.getByLabel(/^Headers/).fill('Content-Type: application/json\nX-Edited: yes');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]!.body.toString()).toBe('{"device": {"id": "lamp-2"}}');
    expect(received[1]!.headers['x-edited']).toBe('yes');
    expect(received[1]!.headers['x-custom']).toBeUndefined();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('copy as curl gives a command that a real curl runs to deliver the same bytes again', async ({ page, context, info }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const body = `{"device":{"id":"lamp-1"},"quote":"it's \`id\` $(echo no) %s \\\\ ünï"}`;
  await post(info, body, { 'x-quote': `a'b"c $HOME` });
  await openNewest(page, 1);
  const actions = details(page).getByRole('group', { name: 'Replay and copy' });
  await actions.getByRole('button', { name: 'Copy as curl' }).click();
  await expect(actions.getByText('curl command copied.')).toBeVisible();
  const command = await page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );
  expect(command).toMatch(/^curl --globoff/);

  await promisify(execFile)('/bin/sh', ['-c', `${command} --silent --show-error --fail --max-time 10 --output /dev/null`]);
  await openNewest(page, 2);
  await expect(details(page).getByLabel('Raw body', { exact: true })).toHaveText(body);
  await expect(
    details(page)
      .getByRole('table', { name: 'Headers' })
      .getByRole('row', { name: /x-quote/ }),
  ).toContainText(`a'b"c $HOME`);
});

test('export as HAR and as NDJSON, clear, import each again: the same file byte for byte, refusals included, marked imported, that can be replayed', async ({
  page,
  info,
}) => {
  await post(info, '{"device":{"id":"lamp-1"},"n":1}', { 'x-order': 'first' });
  expect(await postRefused(info, BROKEN_JSON)).toBe(400);
  expect([413, 'closed']).toContain(await postRefused(info, 'x'.repeat(300 * 1024)));
  await expect(messageRows(page)).toHaveCount(3);
  await post(info, '{"device":{"id":"lamp-1"},"n":2}', SCHEMES.GitHub!('{"device":{"id":"lamp-1"},"n":2}'));
  await expect(messageRows(page)).toHaveCount(4);
  const toolbar = page.locator('.inspector-toolbar');

  const exportAs = async (format: 'HAR 1.2 (browsers, proxies)' | 'NDJSON (one message a line)') => {
    await toolbar.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export messages' });
    await dialog.getByRole('radio', { name: format }).check();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export' }).click();
    const path = await (await download).path();
    await expect(toolbar.getByRole('status').last()).toHaveText(/^Exported 4 messages to hubdesk-webhooks-/);
    return { path, text: readFileSync(path, 'utf8') };
  };
  const har = await exportAs('HAR 1.2 (browsers, proxies)');
  const ndjson = await exportAs('NDJSON (one message a line)');
  const parsedHar = JSON.parse(har.text) as {
    log: { version: string; entries: { request: { url: string; bodySize: number }; response: { status: number } }[] };
  };
  expect(parsedHar.log.version).toBe('1.2');
  expect(parsedHar.log.entries.map((entry) => entry.request.url)).toEqual([0, 1, 2, 3].map(() => `${info.webhook_url}/webhook/${info.webhook.id}`));
  // The forwarder's real answers, and the 413's whole size beside its first 64 KiB.
  expect(parsedHar.log.entries.map((entry) => entry.response.status)).toEqual([202, 400, 413, 202]);
  expect(parsedHar.log.entries[2]!.request.bodySize).toBe(300 * 1024);
  expect(ndjson.text.trim().split('\n')).toHaveLength(4);

  for (const file of [har, ndjson]) {
    await clearHistoryInApp(page);
    await expect(messageRows(page)).toHaveCount(0);
    await page.getByLabel('HAR or NDJSON file to import').setInputFiles(file.path);
    await expect(toolbar.getByRole('status').last()).toHaveText(/^Imported 4 messages from /);
    await expect(messageRows(page)).toHaveCount(4);
    await expect(messageRows(page).filter({ hasText: 'imported · ' })).toHaveCount(4);
    // Every row as it was: the refusals with their chips.
    await expect(messageRows(page).getByText('413 rejected', { exact: true })).toHaveCount(1);
    await expect(messageRows(page).getByText('400 rejected', { exact: true })).toHaveCount(1);
    // The history's figure is current at once, not 0 B until its next 5 s reading.
    await expect(page.locator('.history-bound')).not.toHaveText(/History 0 B /);
    // Re-exported, the file is the same, byte for byte.
    const again = await exportAs(file === har ? 'HAR 1.2 (browsers, proxies)' : 'NDJSON (one message a line)');
    expect(again.text).toBe(file.text);
  }

  // An imported message is inspected and replayed like a received one: its signature is checked too.
  await messageRows(page).first().getByRole('button').click();
  await expect(details(page).getByText('Valid signature (GitHub)', { exact: true })).toBeVisible();
  await details(page).getByRole('button', { name: 'Replay to intake' }).click();
  await expect(details(page).getByRole('region', { name: 'Replay answer' }).getByText('202', { exact: true })).toBeVisible();
  await expect(messageRows(page)).toHaveCount(5);

  // A file that is not an archive is refused line by line, and nothing is added.
  await page
    .getByLabel('HAR or NDJSON file to import')
    .setInputFiles({ name: 'notes.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from('hello\n{"id":1}\n') });
  await expect(toolbar.getByRole('status').last()).toHaveText(/^Imported 0 messages from notes\.ndjson \(NDJSON\); 2 skipped \(line 1: not JSON; line 2: /);
  await expect(messageRows(page)).toHaveCount(5);
});

test('an intake the forwarder refuses (413) is listed through the tap with its status and reason; outcomes are chips', async ({ page, info }) => {
  await post(info, '{"device":{"id":"lamp-1"}}');
  await expect(messageRows(page).first().getByText('This app', { exact: true })).toBeVisible();

  // 300 KiB: over the forwarder's 256 KiB. It answers 413 and may close before the upload ends.
  const status = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sender': 'too big' },
    body: 'x'.repeat(300 * 1024),
  }).then(
    (response) => response.status,
    () => 'closed',
  );
  expect([413, 'closed']).toContain(status);
  await expect(messageRows(page)).toHaveCount(2);
  const refused = messageRows(page).first();
  await expect(refused.getByText('413 rejected', { exact: true })).toBeVisible();
  await refused.getByRole('button').click();
  await expect(details(page).getByText(/^The forwarder refused it with 413 \(payload_too_large\): The request body is larger than/)).toBeVisible();
  await expect(
    details(page)
      .getByRole('table', { name: 'Headers' })
      .getByRole('row', { name: /x-sender/ }),
  ).toContainText('too big');
  // Its first bytes (64 KiB, or what the client had sent before it saw the answer), and its whole size.
  await expect(details(page).getByText(/^The forwarder refused it and kept its first [\d.]+ (KB|B) of 300\.0 KB \(truncated\)\.$/)).toBeVisible();
  await expect(details(page).getByLabel('Raw body')).toHaveText(/^x+$/);

  // Not JSON: the raw body as sent, and where it stops parsing.
  expect(await postRefused(info, BROKEN_JSON)).toBe(400);
  await expect(messageRows(page)).toHaveCount(3);
  await messageRows(page).first().getByRole('button').click();
  await expect(
    details(page).getByText(/^The forwarder refused it with 400 \(invalid_request\): The body is not valid JSON \(line 2, column 8, byte 35\)/),
  ).toBeVisible();
  await expect(details(page).getByRole('note')).toHaveText('The JSON stops parsing at line 2, column 8 (byte 35).');
  await expect(details(page).getByLabel('Where the JSON stops')).toHaveText('  "on" true}}\n       ^');
  await expect(details(page).getByLabel('Raw body')).toHaveText(BROKEN_JSON);

  // Matched nothing: a key no registration has.
  await post(info, '{"device":{"id":"nobody"}}');
  await expect(messageRows(page)).toHaveCount(4);
  await expect(messageRows(page).first().getByText('No match', { exact: true })).toBeVisible();
  await messageRows(page).first().getByRole('button').click();
  await expect(details(page).getByText(/^Matched nothing: body\.device\.id = "nobody"\./)).toBeVisible();
});

test('the detail pane: a resizable split, array indices, long arrays folded, copy a key path, pretty JSON, hex for binary, scroll reset', async ({
  page,
  context,
  info,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The list and the details sit side by side only where the inspector is wide (a container query).
  await page.setViewportSize({ width: 1920, height: 1000 });
  const items = Array.from({ length: 250 }, (_, i) => ({ n: i }));
  await post(info, JSON.stringify({ device: { id: 'lamp-1', 'b-c': [{ x: 1 }] }, items }));
  await openNewest(page, 1);
  const body = details(page).getByRole('group', { name: 'Body' });

  // The split: the keyboard moves it, and it is remembered across a reload.
  const separator = page.getByRole('separator', { name: 'Resize the message list' });
  await expect(separator).toHaveAttribute('aria-valuenow', '50');
  const listWidth = () =>
    page
      .locator('.inspector-scroll')
      .evaluate((element) => (element as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width);
  const before = await listWidth();
  await separator.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(separator).toHaveAttribute('aria-valuenow', '40');
  expect(await listWidth()).toBeLessThan(before);

  // Arrays: indices shown; 250 items start folded, and open in pages of 100.
  const itemsToggle = body.getByRole('button', { name: /"items": \[ … 250 items \]$/ });
  await expect(itemsToggle).toHaveAttribute('aria-expanded', 'false');
  await itemsToggle.click();
  await expect(body.getByText('99:', { exact: true })).toBeVisible();
  await expect(body.getByText('100:', { exact: true })).toHaveCount(0);
  await body.getByRole('button', { name: 'Show 100 more of 150' }).click();
  await expect(body.getByText('199:', { exact: true })).toBeVisible();

  // Copy a key path in the forwarder's syntax, and a value.
  await body.getByRole('button', { name: /"b-c": \[/ }).click();
  await body.getByRole('button', { name: "Copy the key path body.device['b-c'][0]" }).click();
  const clipboard = () =>
    page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
  await expect.poll(clipboard).toBe("body.device['b-c'][0]");
  await body.getByRole('button', { name: 'Copy the value of body.device.id' }).click();
  await expect.poll(clipboard).toBe('"lamp-1"');

  // Raw: as received, or pretty-printed.
  const raw = details(page).getByLabel('Raw body', { exact: true });
  await expect(raw).toHaveText(/^\{"device":\{"id":"lamp-1"/);
  await details(page).getByRole('button', { name: 'Pretty JSON' }).click();
  await expect(raw).toHaveText(/^\{\n {2}"device": \{\n {4}"id": "lamp-1"/);

  // The pane is scrolled down; another message starts at its top, and a binary one is shown in hex.
  const pane = details(page);
  await pane.evaluate((element) => ((element as unknown as { scrollTop: number }).scrollTop = 10_000));
  expect(await pane.evaluate((element) => (element as unknown as { scrollTop: number }).scrollTop)).toBeGreaterThan(0);
  const response = await fetch(`${info.webhook_url}/webhook/${info.webhook.id}?hub=${encodeURIComponent('lamp-1')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array([0, 1, 2, 0xff, 0x41]),
  });
  expect(response.status).toBe(202);
  await openNewest(page, 2);
  await expect.poll(() => pane.evaluate((element) => (element as unknown as { scrollTop: number }).scrollTop)).toBe(0);
  await expect(details(page).getByRole('button', { name: 'Hex' })).toHaveAttribute('aria-pressed', 'true');
  await expect(raw).toHaveText(/^00000000 {2}00 01 02 ff 41 +\|\.\.\.\.A\|$/);

  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize the message list' })).toHaveAttribute('aria-valuenow', '40');
});

test('find messages: full-text search in bodies, a key-path condition checked as typed, outcome toggles, and new matches arriving', async ({ page, info }) => {
  await post(info, JSON.stringify({ device: { id: 'lamp-1' }, note: `${'x'.repeat(3000)}needle` }));
  await post(info, '{"device":{"id":"lamp-2"}}');
  await post(info, '{"device":{"id":"nobody"}}');
  await expect(messageRows(page)).toHaveCount(3);
  const filters = page.getByRole('search', { name: 'Find messages' });

  // The needle is past the 1 KiB preview the list holds: main searches the whole body.
  await filters.getByLabel('Search').fill('NEEDLE');
  await expect(messageRows(page)).toHaveCount(1);
  await expect(filters.getByRole('status')).toHaveText('1 matching message');
  await filters.getByLabel('Search').fill('');
  await expect(messageRows(page)).toHaveCount(3);

  await filters.getByLabel('Key path').fill('body..device');
  await expect(filters.getByText(/^At 6: /)).toBeVisible();
  await filters.getByLabel('Key path').fill('body.device.id == lamp-2');
  await expect(messageRows(page).filter({ hasText: 'lamp-2' })).toHaveCount(1);
  await expect(messageRows(page)).toHaveCount(1);
  await messageRows(page).first().getByRole('button').click();
  await expect(details(page).getByText(/body\.device\.id = "lamp-2"/)).toBeVisible();
  // A new message that matches shows up while filtered; one that does not, does not.
  await post(info, '{"device":{"id":"lamp-2"},"n":2}');
  await post(info, '{"device":{"id":"lamp-3"}}');
  await expect(messageRows(page)).toHaveCount(2);

  // Without the key path everything shows again (asked after the typing pause); then only what
  // matched no registration: everything but lamp-1, the one value the webhook routes.
  await filters.getByLabel('Key path').fill('');
  await expect(messageRows(page)).toHaveCount(5);
  // Outcome, webhook, method and time are folded under "Filters", which counts what is chosen there.
  await expect(filters.getByRole('group', { name: 'Outcome' })).toBeHidden();
  await filters.getByText('Filters', { exact: true }).click();
  await filters.getByRole('group', { name: 'Outcome' }).getByRole('button', { name: 'No match' }).click();
  await expect(messageRows(page)).toHaveCount(4);
  await expect(messageRows(page).getByText('No match', { exact: true })).toHaveCount(4);
  await expect(filters.getByText('Filters (1)', { exact: true })).toBeVisible();

  await filters.getByRole('button', { name: 'Clear filters' }).click();
  await expect(messageRows(page)).toHaveCount(5);
  await expect(filters.getByRole('button', { name: 'Clear filters' })).toHaveCount(0);
});

test('the key-path playground shows what a path extracts from the selected message, where it does not parse, and which registration it would match', async ({
  page,
  info,
}) => {
  await post(info, '{"device":{"id":"lamp-1","room":{"name":"Hall"}}}');
  await openNewest(page, 1);
  const playground = details(page).getByRole('region', { name: 'Key-path playground' });
  const input = playground.getByLabel('Key path');
  // It starts from the webhook's own key path, as the forwarder ran it.
  await expect(input).toHaveValue('body.device.id');
  await expect(playground.getByText('Extracts "lamp-1"')).toBeVisible();
  await expect(playground.getByText(`Would match this app's ${info.webhook.id}.`)).toBeVisible();

  await input.fill("body.device['room'].name");
  await expect(playground.getByText('Extracts "Hall"')).toBeVisible();
  await expect(playground.getByText("None of this app's registrations has the value Hall.")).toBeVisible();
  await input.fill('body.device.room');
  await expect(playground.getByText(/can match no registration/)).toBeVisible();
  await input.fill('body.missing');
  await expect(playground.getByText(/^Extracts nothing from this message/)).toBeVisible();
  await input.fill('body..id');
  await expect(playground.getByText(/^At 6: /)).toBeVisible();
});
