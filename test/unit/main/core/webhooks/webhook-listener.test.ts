import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_UNDO_MS, type WebhookEntry, type WebhookEntryPatch, type WebhookStatus, type WebhookView } from '../../../../../common/ipc-contract';
import { createSecretStore } from '../../../../../main/core/shared/secret-store';
import { createInspectorFace } from '../../../../../main/core/webhooks/inspector-face';
import { createWebhookHistory } from '../../../../../main/core/webhooks/webhook-history';
import {
  createWebhookListener,
  NO_FORWARDER_REASON,
  NO_SECRET_REASON,
  UNDO_TOO_LATE,
  type WebhookListener,
} from '../../../../../main/core/webhooks/webhook-listener';
import { WEBHOOK_PING_MS } from '../../../../../main/core/webhooks/webhook-channel';
import { createWebhookRegistrations } from '../../../../../main/core/webhooks/webhook-registrations';
import { AppError } from '../../../../../common/app-error';
import { HUB_NOT_IN_ACCOUNT, SIGN_IN_FOR_HUB } from '../../../../../main/core/webhooks/webhook-hub-token';
import { fakeCipher, memoryStore, recordingLogger } from '../../../../support/core-fakes';
import { type FakeListenServer, type Register, manualSchedule, startFakeListenServer, tapEvent, webhookMessage } from '../fake-listen-server';

const SECRET = 'webhook-secret-for-tests';
const TAP_ID = 'tc_abcdefghijklmnop';
const TAP_SECRET = 'tap-credential-secret-0123456789';
const TAP_CREDENTIAL = `${TAP_ID}.${TAP_SECRET}`;
const input = { id: 'wh1', secret: SECRET, routing: { kind: 'keys' as const, values: ['lamp-1'] } };
const withTap = { ...input, tapCredential: TAP_CREDENTIAL };
const SIGNING_SECRET = "It's a Secret to Everybody";

let server: FakeListenServer;
let listeners: WebhookListener[] = [];

beforeEach(async () => {
  server = await startFakeListenServer({ wh1: SECRET }, { tapCredentials: { [TAP_ID]: TAP_SECRET } });
});
afterEach(async () => {
  for (const listener of listeners) listener.dispose();
  listeners = [];
  await server.close();
});

function setup(
  options: {
    store?: ReturnType<typeof memoryStore>;
    webhookUrl?: string | null;
    storage?: 'encrypted' | 'memory-only';
    now?: () => number;
    delegationToken?: (hubId: string) => Promise<string>;
  } = {},
) {
  const store = options.store ?? memoryStore();
  const schedule = manualSchedule();
  const logger = recordingLogger();
  const clock = { now: options.now ?? (() => 0) };
  // In memory (no folder): the history is the inspector, as in the app.
  const history = createWebhookHistory({ dir: null, secrets: createSecretStore({ cipher: fakeCipher('basic_text'), store, logger }), store, logger, clock });
  const listener = createWebhookListener({
    webhookUrl: options.webhookUrl === undefined ? server.url : options.webhookUrl,
    // basic_text without the user's permission: secrets are kept in memory only.
    registrations: createWebhookRegistrations({
      secrets: createSecretStore({ cipher: fakeCipher(options.storage === 'memory-only' ? 'basic_text' : 'aes-256-gcm'), store, logger }),
      store,
      logger,
    }),
    inspector: history.inspector,
    logger,
    clock,
    channelOptions: { schedule: schedule.schedule },
    schedule: schedule.schedule,
    ...(options.delegationToken && { delegationToken: options.delegationToken }),
  });
  listeners.push(listener);
  const inspector = createInspectorFace({
    history,
    webhookUrl: options.webhookUrl === undefined ? server.url : options.webhookUrl,
    signingSecret: listener.signingSecret,
    announce: listener.announce,
    clock,
  });
  const entries: WebhookEntry[] = [];
  const patches: WebhookEntryPatch[] = [];
  const statuses: WebhookStatus[] = [];
  listener.on('webhooks.entry', (entry) => entries.push(entry));
  listener.on('webhooks.entryPatch', (patch) => patches.push(patch));
  listener.on('webhooks.status', (status) => statuses.push(status));
  return { listener, inspector, store, entries, patches, statuses, schedule, logger };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
};

describe('webhook listener', () => {
  it('without a tap credential opens the listener only: the webhook secret never opens a tap', async () => {
    const { listener, statuses } = setup();
    const view = await listener.add(input);
    expect(view.hasTapCredential).toBe(false);
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    expect(server.registrations.map((r) => r.role)).toEqual(['listener']);
    expect(server.registrations[0]).not.toHaveProperty('credentialId');
    expect(server.peers('tap')).toHaveLength(0);
  });

  it('with a tap credential also opens the tap, proving the credential under its own listener id', async () => {
    const { listener } = setup();
    const view = await listener.add(withTap);
    expect(view.hasTapCredential).toBe(true);
    await server.registered(2);
    const listenerReg = server.registrations.find((r) => r.role === 'listener')!;
    const tapReg = server.registrations.find((r) => r.role === 'tap')!;
    expect(listenerReg.data).toEqual({ $key: 'lamp-1' });
    expect(listenerReg).not.toHaveProperty('credentialId');
    expect(tapReg).toMatchObject({ credentialId: TAP_ID });
    expect(tapReg.listenerId).not.toBe(listenerReg.listenerId);
    expect(JSON.stringify(server.registrations)).not.toContain(TAP_SECRET);
  });

  it("a tap the forwarder refuses shows the forwarder's reason, stays refused, and the listener keeps delivering", async () => {
    const { listener, statuses, entries, schedule } = setup();
    await listener.add({ ...withTap, tapCredential: `${TAP_ID}.not-the-tap-secret-at-all` });
    await until(() => statuses.at(-1)?.connection.state === 'refused');
    const refused = listener.list()[0]!.connection;
    expect(refused).toEqual({ state: 'refused', reason: expect.stringContaining('The forwarder refused the tap (bad secret)') });
    expect(refused.state === 'refused' && refused.reason).toContain('developer portal');
    expect(schedule.pending().filter((task) => task.ms > 0 && task.ms < WEBHOOK_PING_MS)).toHaveLength(0); // no retry scheduled (the open listener's heartbeat ticks are longer)
    // Deliveries to this app go on.
    server.send('listener', { type: 'message', message: webhookMessage('m1') });
    await until(() => entries.length === 1);
    expect(entries[0]).toMatchObject({ id: 'm1', delivered: true, routing: null });
    // Adding it again (the registration changes) tries again.
    await listener.add(withTap);
    await until(() => statuses.at(-1)?.connection.state === 'connected');
  });

  it('a tap credential revoked while open: refused with the reason, no reconnect', async () => {
    const { listener, statuses } = setup();
    await listener.add(withTap);
    await server.registered(2);
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    server.revoke(TAP_ID);
    await until(() => statuses.at(-1)?.connection.state === 'refused');
    expect(listener.list()[0]!.connection).toMatchObject({ reason: expect.stringContaining('revoked (fake forwarder)') });
    expect(server.registrations).toHaveLength(2);
  });

  it('registers hub routing by hub id, and $keys for several values', async () => {
    const extra = await startFakeListenServer({ wh1: SECRET, wh2: SECRET });
    try {
      const { listener } = setup({ webhookUrl: extra.url });
      await listener.add({ ...input, routing: { kind: 'hub', hubId: 'hub-1' } });
      await listener.add({ ...input, id: 'wh2', routing: { kind: 'keys', values: ['a', 7] } });
      await extra.registered(2);
      const listenersOnly = extra.registrations.filter((r) => r.role === 'listener');
      expect(listenersOnly.find((r) => r.webhookId === 'wh1')).toMatchObject({ hubId: 'hub-1' });
      expect(listenersOnly.find((r) => r.webhookId === 'wh2')).toMatchObject({ data: { $keys: ['a', 7] } });
    } finally {
      await extra.close();
    }
  });

  it('reports connected once both sockets are registered, and never shows the secret, tap credential or signing secret in a view or log', async () => {
    const { listener, statuses, entries, logger } = setup();
    const view = await listener.add({ ...withTap, label: 'Lamp', signingSecret: SIGNING_SECRET });
    expect(view).toEqual({
      id: 'wh1',
      routing: input.routing,
      label: 'Lamp',
      hasTapCredential: true,
      hasSigningSecret: true,
      intakeUrl: `${server.url}/webhook/wh1`,
      connection: { state: 'connecting' },
    });
    await server.registered(2);
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    expect(listener.list()).toEqual([{ ...view, connection: { state: 'connected' } }]);
    server.send('tap', { type: 'tap', event: tapEvent('m1') });
    await until(() => entries.length === 1);
    server.revoke(TAP_ID); // a refusal is logged too
    await until(() => statuses.at(-1)?.connection.state === 'refused');
    for (const payload of [view, listener.list(), statuses, entries, logger.lines]) {
      const text = JSON.stringify(payload);
      for (const secret of [SECRET, TAP_SECRET, SIGNING_SECRET]) expect(text).not.toContain(secret);
    }
  });

  it('edits the signing secret in place: the verdict follows it, the view says only whether one is set, no reconnect', async () => {
    const { listener, inspector, entries, statuses, logger } = setup();
    await listener.add(input);
    await server.registered(1);
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    const signed = { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17', 'content-type': 'text/plain' };
    server.send('listener', {
      type: 'message',
      message: { ...webhookMessage('m1'), headers: signed, rawBody: Buffer.from('Hello, World!').toString('base64') },
    });
    await until(() => entries.length === 1);
    expect(inspector.message('wh1', 'm1')).toMatchObject({ signature: { status: 'no-secret' } });
    const views: WebhookView[] = [];
    listener.on('webhooks.view', (view) => views.push(view));
    const edited = await listener.edit({ id: 'wh1', signingSecret: SIGNING_SECRET });
    expect(edited).toMatchObject({ hasSigningSecret: true, connection: { state: 'connected' } });
    expect(views).toEqual([edited]);
    expect(inspector.message('wh1', 'm1')).toMatchObject({ signature: { status: 'valid', scheme: 'github' } });
    await listener.edit({ id: 'wh1', signingSecret: 'not the one it was signed with' });
    expect(inspector.message('wh1', 'm1')).toMatchObject({ signature: { status: 'invalid', reason: 'mismatch' } });
    expect((await listener.edit({ id: 'wh1', signingSecret: null })).hasSigningSecret).toBe(false);
    expect(server.registrations).toHaveLength(1);
    expect(JSON.stringify([views, listener.list(), logger.lines])).not.toContain(SIGNING_SECRET);
    await expect(listener.edit({ id: 'no-such', signingSecret: null })).rejects.toThrow(AppError);
  });

  it('a new routing registers again under the same listener id, so the forwarder resumes it', async () => {
    const { listener } = setup();
    await listener.add(input);
    await server.registered(1);
    const view = await listener.edit({ id: 'wh1', routing: { kind: 'keys', values: ['lamp-2', 3] } });
    expect(view.routing).toEqual({ kind: 'keys', values: ['lamp-2', 3] });
    await server.registered(2);
    const [first, second] = server.registrations;
    expect(second).toMatchObject({ listenerId: first!.listenerId, data: { $keys: ['lamp-2', 3] } });
  });

  it('checks a delivered message’s signature with the registration’s signing secret, against the raw bytes', async () => {
    const { listener, inspector, entries } = setup();
    await listener.add({ ...input, signingSecret: SIGNING_SECRET });
    await server.registered(1);
    // GitHub's published example: "Hello, World!" signed with "It's a Secret to Everybody".
    const signed = { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17', 'content-type': 'text/plain' };
    const message = (id: string, body: string) => ({ ...webhookMessage(id), headers: signed, rawBody: Buffer.from(body).toString('base64') });
    server.send('listener', { type: 'message', message: message('good', 'Hello, World!') });
    server.send('listener', { type: 'message', message: message('tampered', 'Hello, World?') });
    await until(() => entries.length === 2);
    expect(inspector.message('wh1', 'good')).toMatchObject({ status: 'kept', signature: { status: 'valid', scheme: 'github' } });
    expect(inspector.message('wh1', 'tampered')).toMatchObject({ status: 'kept', signature: { status: 'invalid', reason: 'mismatch' } });

    await listener.add(input); // the same webhook again, now without a signing secret
    expect(listener.list()[0]!.hasSigningSecret).toBe(false);
    expect(inspector.message('wh1', 'good')).toMatchObject({ signature: { status: 'no-secret', scheme: 'github' } });
  });

  it('an imported message is checked against now, not the arrival its file states: a capture an hour old is too old', async () => {
    const signedAt = Date.parse('2026-11-24T10:00:00.000Z');
    let now = signedAt + 60 * 60 * 1000;
    const { listener, inspector } = setup({ now: () => now });
    await listener.add({ ...input, signingSecret: SIGNING_SECRET });
    await server.registered(1);
    const timestamp = String(signedAt / 1000);
    const body = '{"device":{"id":"lamp-1"}}';
    const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const archived = {
      webhookId: 'wh1',
      id: 'captured',
      receivedAt: new Date(signedAt).toISOString(),
      method: 'POST',
      headers: { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
      query: {},
      rawBody: Buffer.from(body).toString('base64'),
      routing: null,
      delivered: true,
    };
    await inspector.import([archived]);
    expect(inspector.message('wh1', 'captured')).toMatchObject({
      signature: { status: 'invalid', reason: 'timestamp-too-old', detail: 'Signed 60 minutes ago; at most 5 minutes is accepted.' },
    });
    now = signedAt + 60 * 1000; // checked a minute after it was signed, it is valid
    expect(inspector.message('wh1', 'captured')).toMatchObject({ signature: { status: 'valid', scheme: 'slack' } });
  });

  it('the tap names the listener as its own, so an intake routed here is tapped without its request', async () => {
    const { listener } = setup();
    await listener.add(withTap);
    await server.registered(2);
    const listenerReg = server.registrations.find((r) => r.role === 'listener')!;
    const tapReg = server.registrations.find((r) => r.role === 'tap')!;
    expect(listenerReg).toMatchObject({ rawBodyOnly: true });
    expect(tapReg).toMatchObject({ ownListenerIds: [listenerReg.listenerId] });
  });

  it('emits one inspector entry per message, then a patch: the tap event (awaiting), then the delivery', async () => {
    const { listener, inspector, entries, patches } = setup();
    await listener.add(withTap);
    await server.registered(2);
    const listenerId = server.peers('listener')[0]!.register.listenerId;
    server.send('tap', { type: 'tap', event: tapEvent('m1', listenerId, { request: false }) });
    await until(() => entries.length === 1);
    server.send('listener', { type: 'message', message: webhookMessage('m1') });
    await until(() => patches.length === 1);
    expect(entries[0]).toMatchObject({
      webhookId: 'wh1',
      id: 'm1',
      delivered: false,
      awaitingDelivery: true,
      preview: '',
      routing: { matched: [{ listenerId }] },
    });
    expect(patches[0]).toEqual({
      webhookId: 'wh1',
      id: 'm1',
      delivered: true,
      awaitingDelivery: false,
      headers: { 'content-type': 'application/json' },
      query: {},
      pairsCut: false,
      bodyBytes: 26,
      preview: '{"device":{"id":"lamp-1"}}',
      previewKind: 'text',
      truncated: false,
    });
    expect(entries).toHaveLength(1);
    expect(inspector.snapshot({ limit: 10 }).entries).toEqual([expect.objectContaining({ id: 'm1', delivered: true, awaitingDelivery: false })]);
    await server.acked(1);

    // The delivery first, then the tap: the patch is the routing and the method, and a re-delivery changes nothing.
    server.send('listener', { type: 'message', message: webhookMessage('m2') });
    await until(() => entries.length === 2);
    server.send('tap', { type: 'tap', event: tapEvent('m2', listenerId, { request: false }) });
    await until(() => patches.length === 2);
    expect(entries[1]).toMatchObject({ id: 'm2', delivered: true, method: null, routing: null });
    expect(patches[1]).toEqual({ webhookId: 'wh1', id: 'm2', method: 'POST', routing: expect.objectContaining({ matched: [{ listenerId }] }) });
    server.send('listener', { type: 'message', message: webhookMessage('m2') });
    await server.acked(3);
    expect([entries.length, patches.length]).toEqual([2, 2]);
  });

  it('after a restart of the app, resumes after the persisted last acknowledgement', async () => {
    const first = setup();
    await first.listener.add(input);
    await server.registered(1);
    server.send('listener', { type: 'message', message: webhookMessage('m41') });
    await server.acked(1);
    first.listener.dispose();

    const second = setup({ store: first.store });
    await second.listener.start();
    await server.registered(2);
    const [before, resumed] = server.registrations as [Register, Register];
    expect(resumed).toMatchObject({ resumeAfter: 'm41', listenerId: before.listenerId });
    expect(second.listener.list().map((view) => view.id)).toEqual(['wh1']);
  });

  it('shows the name the forwarder gives the webhook, as one safe line, kept with the registration for when it is offline', async () => {
    const names: Record<string, string> = { wh1: 'Lamp\u202e events\n(staging)' };
    await server.close();
    server = await startFakeListenServer({ wh1: SECRET }, { names });
    const first = setup();
    const views: WebhookView[] = [];
    first.listener.on('webhooks.view', (view) => views.push(view));
    expect((await first.listener.add(input)).webhookName).toBeUndefined();
    await until(() => views.length === 1);
    expect(views[0]).toMatchObject({ id: 'wh1', webhookName: 'Lamp events (staging)', connection: { state: 'connected' } });
    expect(first.listener.list()[0]!.webhookName).toBe('Lamp events (staging)');

    // Renamed in the portal: the next registration brings the new name; the same name again is no change.
    names.wh1 = 'Lamp events';
    first.listener.reconnect();
    await until(() => views.length === 2);
    expect(views[1]!.webhookName).toBe('Lamp events');
    first.listener.reconnect();
    await server.registered(3);
    await until(() => first.listener.list()[0]!.connection.state === 'connected');
    expect(views).toHaveLength(2);
    first.listener.dispose();

    const offline = setup({ store: first.store, webhookUrl: null });
    await offline.listener.start();
    expect(offline.listener.list()[0]).toMatchObject({ webhookName: 'Lamp events', connection: { state: 'unavailable' } });
    // Added again with a new secret: the same webhook keeps its name.
    expect((await offline.listener.add({ ...input, secret: 'another-secret-value' })).webhookName).toBe('Lamp events');
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

  it('remove closes the sockets at once, and forgets the entries and the saved registration when the undo time is over', async () => {
    const { listener, inspector, store, schedule } = setup();
    await listener.add(withTap);
    await server.registered(2);
    server.send('tap', { type: 'tap', event: tapEvent('m1') });
    await until(() => inspector.snapshot({ limit: 10 }).entries.length === 1);
    listener.remove('wh1');
    await until(() => server.peers().length === 0);
    expect(listener.list()).toEqual([]);
    const [forgetting] = schedule.pending(WEBHOOK_UNDO_MS);
    expect(forgetting).toBeDefined();
    expect(inspector.snapshot({ limit: 10 }).entries).toHaveLength(1);
    schedule.fire(forgetting!);
    expect(inspector.snapshot({ limit: 10 }).entries).toEqual([]);
    expect(() => listener.undoRemove('wh1')).toThrow(UNDO_TOO_LATE);
    const again = setup({ store });
    await again.listener.start();
    expect(again.listener.list()).toEqual([]);
  });

  it('undo within the time brings the registration back as it was: same listener id, secrets, entries, connected again', async () => {
    const { listener, inspector, store, schedule, statuses } = setup();
    await listener.add({ ...withTap, signingSecret: SIGNING_SECRET });
    await server.registered(2);
    const listenerId = server.registrations.find((r) => r.role === 'listener')!.listenerId;
    server.send('tap', { type: 'tap', event: tapEvent('m1') });
    await until(() => inspector.snapshot({ limit: 10 }).entries.length === 1);
    listener.remove('wh1');
    await until(() => server.peers().length === 0);
    const view = listener.undoRemove('wh1');
    expect(view).toMatchObject({ id: 'wh1', hasTapCredential: true, hasSigningSecret: true });
    await server.registered(4);
    expect(server.registrations.filter((r) => r.role === 'listener').map((r) => r.listenerId)).toEqual([listenerId, listenerId]);
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    expect(schedule.pending(WEBHOOK_UNDO_MS)).toEqual([]);
    expect(inspector.snapshot({ limit: 10 }).entries).toHaveLength(1);
    const again = setup({ store });
    await again.listener.start();
    expect(again.listener.list().map((v) => v.id)).toEqual(['wh1']);
  });

  it('a new add of a webhook being removed keeps it, and dispose finishes pending removals', async () => {
    const { listener, store, schedule } = setup();
    await listener.add(input);
    await server.registered(1);
    listener.remove('wh1');
    await listener.add(input);
    expect(schedule.pending(WEBHOOK_UNDO_MS)).toEqual([]);
    expect(listener.list().map((v) => v.id)).toEqual(['wh1']);

    listener.remove('wh1');
    listener.dispose();
    const again = setup({ store });
    await again.listener.start();
    expect(again.listener.list()).toEqual([]);
  });
});

describe('a registration naming a hub', () => {
  const hubInput = { id: 'wh1', secret: SECRET, routing: { kind: 'hub' as const, hubId: 'hub-1' } };

  it("sends the signed-in account's delegation token for that hub; key values ask for none", async () => {
    const asked: string[] = [];
    const { listener } = setup({ delegationToken: async (hubId) => (asked.push(hubId), `token-for-${hubId}-${asked.length}`) });
    await listener.add(hubInput);
    await server.registered(1);
    expect(server.registrations[0]).toMatchObject({ hubId: 'hub-1', delegationToken: 'token-for-hub-1-1' });
    await listener.add(input); // the same webhook by key values now
    await server.registered(2);
    expect(server.registrations[1]).not.toHaveProperty('delegationToken');
    expect(asked).toEqual(['hub-1']);
  });

  it('signed out, waits and says why; retryWaiting after a sign-in registers it; a hub of another account says so', async () => {
    let signedIn = false;
    const { listener, statuses } = setup({
      delegationToken: async (hubId) => {
        if (!signedIn) throw new AppError('signed-out', 'You are not signed in.');
        if (hubId !== 'hub-1') throw new AppError('hub-not-found', 'This hub is no longer in your account.');
        return 'token-1';
      },
    });
    await listener.add(hubInput);
    await until(() => statuses.at(-1)?.connection.state === 'unavailable');
    expect(statuses.at(-1)!.connection).toEqual({ state: 'unavailable', reason: SIGN_IN_FOR_HUB });
    signedIn = true;
    listener.retryWaiting();
    await until(() => statuses.at(-1)?.connection.state === 'connected');
    expect(server.registrations).toMatchObject([{ delegationToken: 'token-1' }]);

    await listener.add({ ...hubInput, routing: { kind: 'hub', hubId: 'hub-2' } });
    await until(() => statuses.at(-1)?.connection.state === 'unavailable');
    expect(statuses.at(-1)!.connection).toEqual({ state: 'unavailable', reason: HUB_NOT_IN_ACCOUNT });
  });

  it("the cloud unreachable: reconnecting with the cloud client's words, retried with backoff", async () => {
    const { listener, statuses, schedule } = setup({
      delegationToken: async () => Promise.reject(new AppError('cloud-unreachable', 'Hubdesk could not reach the cloud at http://cloud.test.')),
    });
    await listener.add(hubInput);
    await until(() => statuses.at(-1)?.connection.state === 'reconnecting');
    expect(statuses.at(-1)!.connection).toMatchObject({ state: 'reconnecting', attempt: 1, reason: 'Hubdesk could not reach the cloud at http://cloud.test.' });
    expect(schedule.pending().length).toBeGreaterThan(0);
  });
});
