import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEntry, WebhookStatus } from '../../../../common/ipc-contract';
import { createWebhookInspector } from '../../../../main/core/webhook-inspector';
import { createWebhookListener, NO_FORWARDER_REASON, NO_SECRET_REASON, type WebhookListener } from '../../../../main/core/webhook-listener';
import { createWebhookRegistrations } from '../../../../main/core/webhook-registrations';
import { fakeCipher, memoryStore, recordingLogger } from '../../../support/core-fakes';
import { type FakeListenServer, manualSchedule, startFakeListenServer, tapEvent, webhookMessage } from './fake-listen-server';

const SECRET = 'webhook-secret-for-tests';
const input = { id: 'wh1', secret: SECRET, routing: { kind: 'keys' as const, values: ['lamp-1'] } };

let server: FakeListenServer;
let listeners: WebhookListener[] = [];

beforeEach(async () => {
  server = await startFakeListenServer({ wh1: SECRET });
});
afterEach(async () => {
  for (const listener of listeners) listener.dispose();
  listeners = [];
  await server.close();
});

function setup(options: { store?: ReturnType<typeof memoryStore>; webhookUrl?: string | null; storage?: 'encrypted' | 'memory-only' } = {}) {
  const store = options.store ?? memoryStore();
  const schedule = manualSchedule();
  const listener = createWebhookListener({
    webhookUrl: options.webhookUrl === undefined ? server.url : options.webhookUrl,
    registrations: createWebhookRegistrations({ cipher: fakeCipher(), store, logger: recordingLogger(), storage: () => options.storage ?? 'encrypted' }),
    inspector: createWebhookInspector(),
    logger: recordingLogger(),
    clock: { now: () => 0 },
    channelOptions: { schedule: schedule.schedule },
  });
  listeners.push(listener);
  const entries: WebhookEntry[] = [];
  const statuses: WebhookStatus[] = [];
  listener.on('webhooks.entry', (entry) => entries.push(entry));
  listener.on('webhooks.status', (status) => statuses.push(status));
  return { listener, store, entries, statuses, schedule };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
};

describe('webhook listener', () => {
  it('opens a listener and a tap per registration, with different listener ids', async () => {
    const { listener } = setup();
    await listener.add(input);
    await server.registered(2);
    const listenerReg = server.registrations.find((r) => r.role === 'listener')!;
    expect(listenerReg.data).toEqual({ $key: 'lamp-1' });
    expect(server.registrations.find((r) => r.role === 'tap')!.listenerId).not.toBe(listenerReg.listenerId);
  });

  it('registers hub routing by hub id, and $keys for several values', async () => {
    const extra = await startFakeListenServer({ wh1: SECRET, wh2: SECRET });
    try {
      const { listener } = setup({ webhookUrl: extra.url });
      await listener.add({ ...input, routing: { kind: 'hub', hubId: 'hub-1' } });
      await listener.add({ ...input, id: 'wh2', routing: { kind: 'keys', values: ['a', 7] } });
      await extra.registered(4);
      const listenersOnly = extra.registrations.filter((r) => r.role === 'listener');
      expect(listenersOnly.find((r) => r.webhookId === 'wh1')).toMatchObject({ hubId: 'hub-1' });
      expect(listenersOnly.find((r) => r.webhookId === 'wh2')).toMatchObject({ data: { $keys: ['a', 7] } });
    } finally {
      await extra.close();
    }
  });

  it('reports connected once both sockets are registered, and never shows the secret in a view', async () => {
    const { listener, statuses } = setup();
    const view = await listener.add({ ...input, label: 'Lamp' });
    expect(view).toEqual({ id: 'wh1', routing: input.routing, label: 'Lamp', connection: { state: 'connecting' } });
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    expect(listener.list()).toEqual([{ ...view, connection: { state: 'connected' } }]);
    for (const payload of [view, listener.list(), statuses]) expect(JSON.stringify(payload)).not.toContain(SECRET);
  });

  it('emits one inspector entry per message: the tap event, then the same entry marked delivered', async () => {
    const { listener, entries } = setup();
    await listener.add(input);
    await server.registered(2);
    const listenerId = server.peers('listener')[0]!.register.listenerId;
    server.send('tap', { type: 'tap', event: tapEvent('m1', listenerId) });
    await until(() => entries.length === 1);
    server.send('listener', { type: 'message', message: webhookMessage('m1') });
    await until(() => entries.length === 2);
    expect(entries[0]).toMatchObject({ webhookId: 'wh1', id: 'm1', delivered: false, routing: { matched: [{ listenerId }] } });
    expect(entries[1]).toMatchObject({ webhookId: 'wh1', id: 'm1', delivered: true, method: 'POST' });
    expect(listener.inspector.snapshot({ limit: 10 }).entries).toHaveLength(1);
    await server.acked(1);
  });

  it('after a restart of the app, resumes after the persisted last acknowledgement', async () => {
    const first = setup();
    await first.listener.add(input);
    await server.registered(2);
    server.send('listener', { type: 'message', message: webhookMessage('m41') });
    await server.acked(1);
    first.listener.dispose();

    const second = setup({ store: first.store });
    await second.listener.start();
    await server.registered(4);
    const before = server.registrations.slice(0, 2).find((r) => r.role === 'listener')!;
    const resumed = server.registrations.slice(2).find((r) => r.role === 'listener')!;
    expect(resumed).toMatchObject({ resumeAfter: 'm41', listenerId: before.listenerId });
    expect(second.listener.list().map((view) => view.id)).toEqual(['wh1']);
  });

  it('a wrong secret shows refused', async () => {
    const { listener, statuses } = setup();
    await listener.add({ ...input, secret: 'wrong-secret-value' });
    await until(() => statuses.at(-1)?.connection.state === 'refused');
    expect(listener.list()[0]!.connection).toEqual({ state: 'refused', reason: 'The forwarder refused the webhook secret.' });
  });

  it('without a forwarder, registrations are kept and say why they do not connect', async () => {
    const { listener } = setup({ webhookUrl: null });
    const view = await listener.add(input);
    expect(view.connection).toEqual({ state: 'unavailable', reason: NO_FORWARDER_REASON });
    expect(server.registrations).toHaveLength(0);
  });

  it('a registration whose secret was kept in memory only comes back without it after a restart', async () => {
    const first = setup({ storage: 'memory-only' });
    await first.listener.add(input);
    first.listener.dispose();
    const second = setup({ store: first.store, storage: 'memory-only' });
    await second.listener.start();
    expect(second.listener.list()[0]!.connection).toEqual({ state: 'unavailable', reason: NO_SECRET_REASON });
  });

  it('remove closes the sockets, forgets the entries and the saved registration', async () => {
    const { listener, store } = setup();
    await listener.add(input);
    await server.registered(2);
    server.send('tap', { type: 'tap', event: tapEvent('m1') });
    await until(() => listener.inspector.snapshot({ limit: 10 }).entries.length === 1);
    listener.remove('wh1');
    await until(() => server.peers().length === 0);
    expect(listener.list()).toEqual([]);
    expect(listener.inspector.snapshot({ limit: 10 }).entries).toEqual([]);
    const again = setup({ store });
    await again.listener.start();
    expect(again.listener.list()).toEqual([]);
  });
});
