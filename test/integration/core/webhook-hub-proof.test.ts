/**
 * The app's real registration path for a hub (docs/webhooks-app.md, "Proving the hub"): the core, signed in
 * to the reference cloud through its consent pages, registers as one of the account's hubs with a fresh
 * delegation token at every connection, against forwarders that check it (docs/security.md, "A listener's
 * hub id is proven"). Signed out it waits and says why; it connects once signed in, comes back after a
 * dropped connection and after its forwarder restarts (on Redis, where a spent token is refused by every
 * instance, a restarted one too), each time with a token never sent before, never logged, never in an event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEntry, WebhookStatus } from '../../../common/ipc-contract';
import { ListenerClientMessageSchema } from '../../../common/webhook-protocol';
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { type OpenWebSocket, plainWebSocket } from '../../../main/core/shared/live-socket';
import { SIGN_IN_FOR_HUB } from '../../../main/core/webhooks/webhook-hub-token';
import { type RunningStack, startStack } from '../../../services/stack';
import { consent } from '../../support/consent-driver';
import { fakeCipher, memoryStore, recordingLogger } from '../../support/core-fakes';
import { forwarderStores, type ForwarderStores } from '../../support/forwarder-stores';
import { stackBackend } from '../../support/stack-backend';
import { webhooksEventually as eventually } from '../../support/next-event';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let stack: RunningStack;
let proxy: TcpProxy;
let homeId: string;
const cores: HubdeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
  proxy = await startTcpProxy(stack.info.webhook_url);
  homeId = stack.info.hubs.find((hub) => hub.name === 'Home')!.id;
});
afterAll(async () => {
  for (const core of cores) await core.dispose();
  await proxy?.close();
  await stack?.close();
});

/** A core (signed out) whose listener sockets are watched: every register frame it sends is kept. */
async function newCore(webhookUrl: string) {
  const logs = recordingLogger();
  const registers: { hubId?: string; delegationToken?: string }[] = [];
  const watching: OpenWebSocket = (url, options) => {
    const ws = plainWebSocket(url, options);
    const send = ws.send.bind(ws);
    ws.send = ((data: string, ...rest: never[]) => {
      const frame = ListenerClientMessageSchema.safeParse(JSON.parse(data));
      if (frame.success && frame.data.type === 'register') registers.push(frame.data);
      return (send as (...args: unknown[]) => void)(data, ...rest);
    }) as typeof ws.send;
    return ws;
  };
  const opened: string[] = [];
  const core = await createHubdeskCore({
    backend: { ...stackBackend(stack.info), webhookUrl },
    cipher: fakeCipher(),
    store: memoryStore(),
    openExternal: async (url) => void opened.push(url),
    logger: logs,
    openWebSocket: watching,
  });
  cores.push(core);
  const statuses: WebhookStatus[] = [];
  const entries: WebhookEntry[] = [];
  core.onEvent('webhooks.status', (status) => statuses.push(status));
  core.onEvent('webhooks.entry', (entry) => entries.push(entry));
  const signIn = async () => {
    await core.handlers['auth.signIn']();
    const redirect = await consent(opened.at(-1)!, stack.info.user, 'Allow');
    expect(await core.handleOAuthCallback(Object.fromEntries(redirect.searchParams))).toBe('accepted');
  };
  /** The tokens sent, each once; what reached the log and the renderer holds none of them. */
  const checkTokens = () => {
    const tokens = registers.map((register) => register.delegationToken);
    expect(tokens.every((token) => typeof token === 'string' && token.length > 0)).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    const shown = JSON.stringify([logs.lines, statuses, entries]);
    for (const token of tokens) expect(shown).not.toContain(token!);
  };
  return { core, statuses, entries, registers, signIn, checkTokens };
}

async function post(forwarderUrl: string, webhookId: string, hubId: string, body: unknown): Promise<string> {
  const response = await fetch(`${forwarderUrl}/webhook/${webhookId}?hub=${encodeURIComponent(hubId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

const last = (statuses: WebhookStatus[]) => statuses.at(-1)?.connection;

describe("a registration naming one of the account's hubs", () => {
  it('waits signed out, saying why; once signed in it registers with a token, and again with a fresh one after a drop', async () => {
    const { core, statuses, entries, registers, signIn, checkTokens } = await newCore(proxy.url);
    const { id, secret } = stack.info.webhook;
    await core.handlers['webhooks.add']({ id, secret, routing: { kind: 'hub', hubId: homeId } });
    await eventually(core, () => last(statuses)?.state === 'unavailable');
    expect(last(statuses)).toEqual({ state: 'unavailable', reason: SIGN_IN_FOR_HUB });
    expect(registers).toHaveLength(0); // nothing is sent without the proof

    await signIn();
    await eventually(core, () => last(statuses)?.state === 'connected');
    expect(registers).toMatchObject([{ hubId: homeId }]);
    const first = await post(stack.info.webhook_url, id, homeId, { n: 1 });
    await eventually(core, () => entries.some((entry) => entry.id === first && entry.delivered));

    proxy.drop();
    await eventually(core, () => last(statuses)?.state === 'reconnecting');
    const missed = await post(stack.info.webhook_url, id, homeId, { n: 2 });
    proxy.restore();
    await eventually(core, () => entries.some((entry) => entry.id === missed && entry.delivered));
    expect(registers).toHaveLength(2);
    checkTokens();
    await core.handlers['webhooks.remove'](id);
  });

  it('a hub of another account: the cloud gives no token for it, and the registration says so instead of trying', async () => {
    const { core, statuses, registers, signIn } = await newCore(stack.info.webhook_url);
    await signIn();
    await core.handlers['webhooks.add']({
      id: stack.info.webhook.id,
      secret: stack.info.webhook.secret,
      routing: { kind: 'hub', hubId: 'hub-of-someone-else' },
    });
    await eventually(core, () => last(statuses)?.state === 'unavailable');
    expect(last(statuses)).toEqual({ state: 'unavailable', reason: expect.stringContaining('no such hub') });
    expect(registers).toHaveLength(0);
    await core.handlers['webhooks.remove'](stack.info.webhook.id);
  });
});

describe('after its forwarder restarts (Redis, the used tokens shared and kept)', () => {
  let stores: ForwarderStores;
  beforeAll(async () => {
    stores = await forwarderStores('redis');
  });
  afterAll(() => stores?.close());

  it('the app registers again with a fresh token and receives the hub’s messages', async () => {
    const hubIds = { verify: { cloudUrl: stack.info.auth_url } };
    const before = await stores.start({ hubIds });
    const webhook = await stores.store.create({ name: 'restarts', ownerId: 'developer' });
    const { core, statuses, entries, registers, signIn, checkTokens } = await newCore(before.url);
    await signIn();
    await core.handlers['webhooks.add']({ id: webhook.id, secret: webhook.secret, routing: { kind: 'hub', hubId: homeId } });
    await eventually(core, () => last(statuses)?.state === 'connected');
    const first = await post(before.url, webhook.id, homeId, { n: 1 });
    await eventually(core, () => entries.some((entry) => entry.id === first && entry.delivered));

    await before.drain(); // listeners are told to reconnect (1001)
    await eventually(core, () => last(statuses)?.state === 'reconnecting');
    const after = await stores.start({ hubIds, port: Number(new URL(before.url).port) });
    await eventually(core, () => last(statuses)?.state === 'connected');
    const second = await post(after.url, webhook.id, homeId, { n: 2 });
    await eventually(core, () => entries.some((entry) => entry.id === second && entry.delivered));
    expect(registers.length).toBeGreaterThanOrEqual(2);
    checkTokens();
    await core.handlers['webhooks.remove'](webhook.id);
  });
});
