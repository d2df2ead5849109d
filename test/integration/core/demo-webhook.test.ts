/**
 * "Use the demo webhook" and its renewal after a restart, with the app core against the real forwarder over
 * real sockets: the demo webhook is registered with its tap credential (no secret typed), the first message the
 * core shows is accepted and arrives in the inspector; a restarted app whose demo forwarder has a new demo
 * webhook registers the same routing with it by itself, and the new example arrives too. A registration of a
 * webhook the forwarder does not know is `gone`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirstWebhook, WebhookEntry, WebhookStatus } from '../../../common/ipc-contract';
import { formatTapCredential } from '../../../common/webhook-protocol';
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import type { BackendConfig } from '../../../main/core/shared/ports';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { DEMO_WEBHOOK_KEY_PATH, type RunningStack, startStack } from '../../../services/stack';
import { fakeCipher, memoryStore, recordingLogger } from '../../support/core-fakes';
import { webhooksEventually as eventually } from '../../support/next-event';
import { stackBackend } from '../../support/stack-backend';

let stack: RunningStack;
const cores: HubdeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
});
afterAll(async () => {
  for (const core of cores) await core.dispose();
  await stack?.close();
});

async function newCore(demoWebhook: BackendConfig['demoWebhook'], store = memoryStore()) {
  const logs = recordingLogger();
  const core = await createHubdeskCore({
    backend: { ...stackBackend(stack.info), webhookUrl: stack.info.webhook_url, demoWebhook },
    cipher: fakeCipher(),
    store,
    openExternal: async () => {},
    logger: logs,
  });
  cores.push(core);
  const entries: WebhookEntry[] = [];
  const statuses: WebhookStatus[] = [];
  core.onEvent('webhooks.entry', (entry) => entries.push(entry));
  core.onEvent('webhooks.status', (status) => statuses.push(status));
  return { core, store, entries, statuses, logs };
}

const lastState = (statuses: WebhookStatus[], id: string) => statuses.findLast((status) => status.webhookId === id)?.connection;

async function send(first: FirstWebhook): Promise<string> {
  const { url, headers, body } = first.example!;
  const response = await fetch(url, { method: 'POST', headers: Object.fromEntries(headers), body });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

describe('the demo webhook', () => {
  it('is used with one call, its example arrives, and a restarted app moves it to the new demo webhook', async () => {
    const demo = {
      id: stack.info.webhook.id,
      secret: stack.info.webhook.secret,
      tapCredential: stack.info.webhook.tap_credential,
      keyPath: DEMO_WEBHOOK_KEY_PATH,
    };
    const before = await newCore(demo);
    const first = await before.core.handlers['webhooks.useDemo']({ kind: 'keys', values: ['my-device'] });
    expect(first.view).toMatchObject({ id: demo.id, hasTapCredential: true, routing: { kind: 'keys', values: ['my-device'] } });
    expect(JSON.stringify(first)).not.toContain(demo.secret);
    await eventually(before.core, () => lastState(before.statuses, demo.id)?.state === 'connected');
    const sent = await send(first);
    await eventually(before.core, () => before.entries.some((entry) => entry.id === sent));
    await before.core.dispose();

    // The demo forwarder restarted: a new demo webhook (here made beside the old one in the same forwarder).
    const renewed = await stack.webhooks.setKeyPath(
      (await stack.webhooks.create({ name: 'Demo webhook', ownerId: 'user-demo-next' })).id,
      DEMO_WEBHOOK_KEY_PATH,
    );
    const tap = await stack.webhooks.createTapCredential(renewed.id);
    const after = await newCore(
      { id: renewed.id, secret: renewed.secret, tapCredential: formatTapCredential(tap), keyPath: DEMO_WEBHOOK_KEY_PATH },
      before.store,
    );
    await eventually(after.core, () => lastState(after.statuses, renewed.id)?.state === 'connected');
    const views = await after.core.handlers['webhooks.list']();
    expect(views.map((view) => [view.id, view.routing])).toEqual([[renewed.id, { kind: 'keys', values: ['my-device'] }]]);
    const again = await send({ view: views[0]!, example: { ...first.example!, url: first.example!.url.replace(demo.id, renewed.id) } });
    await eventually(after.core, () => after.entries.some((entry) => entry.id === again));
    expect(JSON.stringify(after.logs.lines)).not.toContain(renewed.secret);
  });

  it('a registration of a webhook the forwarder does not know is gone, with words that say so', async () => {
    const { core, statuses } = await newCore(undefined);
    await core.handlers['webhooks.add']({ id: 'wh_never_made', secret: 'a-secret-for-nothing', routing: { kind: 'keys', values: ['a'] } });
    await eventually(core, () => lastState(statuses, 'wh_never_made')?.state === 'refused');
    expect(lastState(statuses, 'wh_never_made')).toEqual({ state: 'refused', reason: 'This webhook no longer exists on the forwarder.', gone: true });
  });
});
