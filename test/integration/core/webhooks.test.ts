/**
 * The app core's webhook listener against the real reference forwarder over real sockets: a
 * registration in the core, a POST to the intake, and the inspector entry (routing from the tap,
 * delivery from the listener) arriving as events. A TCP proxy between the core and the forwarder cuts
 * the connection for real, to show that the listener resumes and receives what it missed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROPPED_BY_FORWARDER, type WebhookEntry, type WebhookEntryPatch, type WebhookStatus } from '../../../common/ipc-contract';
import { WebSocket } from 'ws';
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { type RunningStack, startStack } from '../../../services/stack';
import { formatTapCredential } from '../../../common/webhook-protocol';
import type { OpenWebSocket } from '../../../main/core/shared/live-socket';
import { createTrustedWebSocket } from '../../../main/trusted-fetch';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { fakeCipher, memoryStore, recordingLogger } from '../../support/core-fakes';
import { stackBackend } from '../../support/stack-backend';
import { webhooksEventually as eventually } from '../../support/next-event';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let stack: RunningStack;
let proxy: TcpProxy;
const cores: HubdeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
  proxy = await startTcpProxy(stack.info.webhook_url);
});
afterAll(async () => {
  for (const core of cores) await core.dispose();
  await proxy?.close();
  await stack?.close();
});

async function newCore(webhookUrl: string, store = memoryStore(), openWebSocket?: OpenWebSocket, info = stack.info) {
  const logs = recordingLogger();
  const core = await createHubdeskCore({
    backend: { ...stackBackend(info), webhookUrl },
    cipher: fakeCipher(),
    store,
    openExternal: async () => {},
    logger: logs,
    openWebSocket,
  });
  cores.push(core);
  const entries: WebhookEntry[] = [];
  const patches: WebhookEntryPatch[] = [];
  const statuses: WebhookStatus[] = [];
  core.onEvent('webhooks.entry', (entry) => entries.push(entry));
  core.onEvent('webhooks.entryPatch', (patch) => patches.push(patch));
  core.onEvent('webhooks.status', (status) => statuses.push(status));
  /** The entry of `id` as the renderer has it: its one entry event with the patches since applied, as the store applies them. */
  const shown = (id: string): WebhookEntry | undefined => {
    const entry = entries.find((candidate) => candidate.id === id);
    return (
      entry &&
      patches.filter((patch) => patch.id === id).reduce<WebhookEntry>((merged, { webhookId: _w, id: _i, ...changes }) => ({ ...merged, ...changes }), entry)
    );
  };
  return { core, store, entries, patches, shown, statuses, logs };
}

async function post(body: unknown, webhookId = stack.info.webhook.id): Promise<string> {
  const response = await fetch(`${stack.info.webhook_url}/webhook/${webhookId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test': 'hubdesk' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const connected = (statuses: WebhookStatus[], id: string) => statuses.findLast((s) => s.webhookId === id)?.connection.state === 'connected';

describe('webhook listener against the reference forwarder', () => {
  it('delivers a matching intake to the core, with the routing decision from the tap: one entry event, then one patch', async () => {
    const { core, entries, patches, shown, statuses } = await newCore(stack.info.webhook_url);
    const { id, secret, tap_credential: tapCredential } = stack.info.webhook;
    const view = await core.handlers['webhooks.add']({ id, secret, tapCredential, routing: { kind: 'keys', values: ['lamp-1'] } });
    expect(view.hasTapCredential).toBe(true);
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(JSON.stringify(view)).not.toContain(tapCredential);
    await eventually(core, () => connected(statuses, id));

    const eventId = await post({ device: { id: 'lamp-1' }, on: true });
    await eventually(core, () => !!shown(eventId)?.delivered && shown(eventId)?.routing != null && shown(eventId)?.awaitingDelivery === false);
    const entry = shown(eventId)!;
    expect(entries.filter((e) => e.id === eventId)).toHaveLength(1);
    // Whichever of delivery and tap came second is a small patch: the delivery flag, or the method and the routing.
    const [patch] = patches.filter((p) => p.id === eventId);
    expect(patches.filter((p) => p.id === eventId)).toHaveLength(1);
    expect(Object.keys(patch!).sort()).toEqual(expect.arrayContaining(['id', 'webhookId']));
    expect(patch).not.toHaveProperty('preview');
    expect(JSON.stringify(patch).length).toBeLessThan(JSON.stringify(entry).length);
    expect(entry).toMatchObject({
      webhookId: id,
      method: 'POST',
      preview: JSON.stringify({ device: { id: 'lamp-1' }, on: true }),
      truncated: false,
      headers: { 'x-test': 'hubdesk' },
      routing: { option: 'key-path', keyPath: 'body.device.id', value: 'lamp-1' },
      delivered: true,
    });
    expect(entry.routing!.matched.length).toBeGreaterThan(0);
    const full = await core.handlers['inspector.message'](id, eventId);
    expect(full).toMatchObject({ status: 'kept', message: { body: { device: { id: 'lamp-1' }, on: true } } });
    expect(full.status === 'kept' && Buffer.from(full.message.rawBody, 'base64').toString()).toBe(JSON.stringify({ device: { id: 'lamp-1' }, on: true }));
    expect((await core.handlers['inspector.snapshot']({ limit: 10 })).entries[0]).toMatchObject({ id: eventId, delivered: true });

    // Another device's message is seen by the tap, with why it was not routed here, and not delivered.
    const otherId = await post({ device: { id: 'kettle-9' } });
    await eventually(core, () => entries.some((e) => e.id === otherId));
    const other = entries.findLast((e) => e.id === otherId)!;
    expect(other).toMatchObject({
      delivered: false,
      awaitingDelivery: false,
      preview: JSON.stringify({ device: { id: 'kettle-9' } }),
      routing: { option: 'key-path', value: 'kettle-9', matched: [] },
    });
    const otherFull = await core.handlers['inspector.message'](id, otherId);
    expect(otherFull).toMatchObject({ status: 'kept', message: { body: { device: { id: 'kettle-9' } } } });
    expect(other.routing!.reason).toBeTruthy();
    await core.handlers['webhooks.remove'](id);
  });

  it("without a tap credential: no tap, only this app's deliveries (no routing, no other hubs' traffic)", async () => {
    const { core, entries, statuses } = await newCore(stack.info.webhook_url);
    const { id, secret } = stack.info.webhook;
    const view = await core.handlers['webhooks.add']({ id, secret, routing: { kind: 'keys', values: ['lamp-2'] } });
    expect(view.hasTapCredential).toBe(false);
    await eventually(core, () => connected(statuses, id));
    const other = await post({ device: { id: 'not-mine' } });
    const mine = await post({ device: { id: 'lamp-2' } });
    await eventually(core, () => entries.some((e) => e.id === mine));
    expect(entries.find((e) => e.id === mine)).toMatchObject({ delivered: true, routing: null });
    // The forwarder handles intakes in order, so the other one was tapped (if at all) before "mine" was delivered.
    expect(entries.some((e) => e.id === other)).toBe(false);
    await core.handlers['webhooks.remove'](id);
  });

  it("a wrong or revoked tap credential: the tap is refused with the forwarder's reason, deliveries go on", async () => {
    const { core, shown, statuses, logs } = await newCore(stack.info.webhook_url);
    const { id, secret } = stack.info.webhook;
    const credential = await stack.webhooks.createTapCredential(id);
    const tapCredential = formatTapCredential(credential);
    await core.handlers['webhooks.add']({ id, secret, tapCredential, routing: { kind: 'keys', values: ['lamp-3'] } });
    await eventually(core, () => connected(statuses, id));

    await stack.webhooks.revokeTapCredential(id, credential.id);
    await eventually(core, () => statuses.at(-1)?.connection.state === 'refused');
    const [refused] = await core.handlers['webhooks.list']();
    expect(refused!.connection).toEqual({ state: 'refused', reason: expect.stringContaining('(the tap credential was revoked in the developer portal)') });
    const mine = await post({ device: { id: 'lamp-3' } });
    await eventually(core, () => !!shown(mine)?.delivered);
    expect((await core.handlers['webhooks.list']())[0]!.connection.state).toBe('refused'); // final: no retry until the registration changes

    // Added again with the (revoked) credential, the forwarder says why.
    await core.handlers['webhooks.add']({ id, secret, tapCredential, routing: { kind: 'keys', values: ['lamp-3'] } });
    await eventually(core, () => statuses.at(-1)?.connection.state === 'refused');
    expect((await core.handlers['webhooks.list']())[0]!.connection).toMatchObject({ reason: expect.stringContaining('(unknown or revoked tap credential)') });
    for (const line of logs.lines) expect(JSON.stringify(line)).not.toContain(credential.secret);
    await core.handlers['webhooks.remove'](id);
  });

  it('refuses a wrong secret: the status says so', async () => {
    const { core, statuses } = await newCore(stack.info.webhook_url);
    await core.handlers['webhooks.add']({ id: stack.info.webhook.id, secret: 'definitely-not-the-secret', routing: { kind: 'keys', values: ['x'] } });
    await eventually(core, () => statuses.some((s) => s.connection.state === 'refused'));
    expect((await core.handlers['webhooks.list']())[0]!.connection).toEqual({ state: 'refused', reason: 'The forwarder refused the webhook secret.' });
  });

  it('after the connection drops, reconnects and receives what it missed', async () => {
    const { core, shown, statuses } = await newCore(proxy.url);
    const { id, secret, tap_credential: tapCredential } = stack.info.webhook;
    await core.handlers['webhooks.add']({ id, secret, tapCredential, routing: { kind: 'keys', values: ['sensor-7'] } });
    await eventually(core, () => connected(statuses, id));
    const before = await post({ device: { id: 'sensor-7' }, n: 1 });
    await eventually(core, () => !!shown(before)?.delivered);

    proxy.drop();
    await eventually(core, () => statuses.at(-1)?.connection.state === 'reconnecting');
    const missed = [await post({ device: { id: 'sensor-7' }, n: 2 }), await post({ device: { id: 'sensor-7' }, n: 3 })];
    proxy.restore();

    await eventually(core, () => missed.every((m) => !!shown(m)?.delivered));
    await eventually(core, () => connected(statuses, id)); // the tap is back too
    const snapshot = (await core.handlers['inspector.snapshot']({ limit: 10 })).entries;
    expect(snapshot.filter((e) => e.delivered).map((e) => (JSON.parse(e.preview) as { n: number }).n)).toEqual([3, 2, 1]);
    expect(proxy.connections()).toBeGreaterThanOrEqual(4); // listener and tap, before and after the drop
  });
});

describe("a forwarder whose buffer for this app fills while the app's listener is away", () => {
  it('marks what it dropped "Dropped by the forwarder", from its notice, and delivers the rest', async () => {
    const small = await startStack({ remoteLatencyMs: 0, forwarder: { resumeBufferSize: 2 } });
    try {
      // The listener's registrations fail while `away` (the socket is cut as it registers); the tap's go through.
      let away = false;
      const listeners = new Set<WebSocket>();
      const openWebSocket: OpenWebSocket = (url, options) => {
        const socket = new WebSocket(url, options);
        const send = socket.send.bind(socket) as (data: string) => void;
        (socket as { send: (data: string) => void }).send = (data: string) => {
          if (!String(data).includes('"role":"listener"')) return send(data);
          listeners.add(socket);
          socket.once('close', () => listeners.delete(socket));
          if (away) socket.terminate();
          else send(data);
        };
        return socket;
      };
      const { core, shown, statuses } = await newCore(small.info.webhook_url, memoryStore(), openWebSocket, small.info);
      const { id, secret, tap_credential: tapCredential } = small.info.webhook;
      const send = async (n: number) => {
        const response = await fetch(`${small.info.webhook_url}/webhook/${id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ device: { id: 'lamp-9' }, n }),
        });
        expect(response.status).toBe(202);
        return ((await response.json()) as { id: string }).id;
      };
      await core.handlers['webhooks.add']({ id, secret, tapCredential, routing: { kind: 'keys', values: ['lamp-9'] } });
      await eventually(core, () => connected(statuses, id));
      const first = await send(0);
      await eventually(core, () => !!shown(first)?.delivered);

      away = true;
      for (const socket of listeners) socket.terminate();
      await eventually(core, () => statuses.at(-1)?.connection.state === 'reconnecting');
      const missed = [await send(1), await send(2), await send(3), await send(4)];
      // The tap saw them routed here: they await their delivery.
      await eventually(core, () => missed.every((m) => shown(m)?.awaitingDelivery === true));
      away = false;

      await eventually(core, () => missed.slice(2).every((m) => !!shown(m)?.delivered));
      await eventually(core, () => missed.slice(0, 2).every((m) => shown(m)?.droppedByForwarder === true));
      for (const m of missed.slice(0, 2)) expect(shown(m)).toMatchObject({ delivered: false, awaitingDelivery: false });
      for (const m of missed.slice(2)) expect(shown(m)!.droppedByForwarder).toBeUndefined();
      const dropped = await core.handlers['inspector.message'](id, missed[0]!);
      expect(dropped).toEqual({ status: 'gone', reason: DROPPED_BY_FORWARDER });
      const listed = await core.handlers['inspector.snapshot']({ limit: 10, filter: { outcomes: ['dropped'] } });
      expect(listed.entries.map((entry) => entry.id).sort()).toEqual(missed.slice(0, 2).sort());
    } finally {
      await small.close();
    }
  });
});

describe('an https forwarder behind the configured extra CA', () => {
  it('is reached through the host’s WebSocket port, which trusts that CA', async () => {
    const certificates = await createStackCertificates(['127.0.0.1']); // a CA of its own, not a system root
    const front = await startTcpProxy(stack.info.webhook_url, { tls: certificates.server });
    try {
      const { core, entries, statuses } = await newCore(front.url, memoryStore(), createTrustedWebSocket(certificates.ca));
      const { id, secret } = stack.info.webhook;
      await core.handlers['webhooks.add']({ id, secret, routing: { kind: 'keys', values: ['tls-lamp'] } });
      await eventually(core, () => connected(statuses, id));
      expect(front.connections()).toBeGreaterThan(0); // the listener came in over TLS

      const eventId = await post({ device: { id: 'tls-lamp' } });
      await eventually(core, () => entries.some((e) => e.id === eventId && e.delivered));
    } finally {
      await front.close();
    }
  });
});
