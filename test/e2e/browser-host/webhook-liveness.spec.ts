/**
 * A silent forwarder in the Webhooks view (docs/hub-realtime.md, "Liveness"; docs/webhooks-app.md): the
 * browser host (real core and renderer) against a forwarder in a process of its own, which is stopped
 * (SIGSTOP) and continued (SIGCONT). The registration's status must say in words that the forwarder is
 * not responding, and the inspector's summary count it, then both say connected again, with no action.
 * What is shown is asserted, not how soon (the bench times it: docs/benchmarks.md, "Noticing a silent hub").
 */
import { expect } from '@playwright/test';
import { addWebhookInApp, openApp, startBrowserHost } from '../support/browser-host';
import { stackPerFile } from '../support/fixtures';
import { type ForwarderPeer, freeze, startForwarderPeer, thaw } from '../../support/liveness-peers';
import { tempDir } from '../../support/temp-dir';

const test = stackPerFile();

/** Generous: the status changes seconds after the freeze and the thaw, later on a loaded machine. */
const SHOWN_WITHIN_MS = 60_000;

let forwarder: ForwarderPeer;
test.beforeAll(async () => void (forwarder = await startForwarderPeer()));
test.afterAll(() => forwarder?.close());

test('a stopped forwarder is shown not responding, and connected again once it runs', async ({ browser, info }) => {
  test.setTimeout(3 * SHOWN_WITHIN_MS);
  const host = startBrowserHost({ ...info, webhook_url: forwarder.url }, tempDir('e2e-webhook-liveness'));
  const context = await browser.newContext();
  try {
    const page = await openApp(context, host);
    await addWebhookInApp(page, { id: forwarder.webhook.id, secret: forwarder.webhook.secret, values: 'lamp-1' });
    const status = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').getByRole('status');
    const summary = page
      .getByRole('region', { name: 'Inspector' })
      .getByRole('status')
      .filter({ hasText: / connected/ });
    await expect(status).toHaveText('Connected');
    freeze(forwarder.program);
    try {
      await expect(status).toHaveText(/^Not responding: no answer from the forwarder for \d+ s; waiting for it on the open connection$/, {
        timeout: SHOWN_WITHIN_MS,
      });
      await expect(summary).toHaveText('0 of 1 connected, 1 not responding');
    } finally {
      thaw(forwarder.program);
    }
    await expect(status).toHaveText('Connected', { timeout: SHOWN_WITHIN_MS });
    await expect(summary).toHaveText('1 of 1 connected');
  } finally {
    await context.close();
    await host.stop();
  }
});
