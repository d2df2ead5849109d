/**
 * The browser host's bridge when a frame cannot be sent (docs/security.md, "Byte budgets"): an answer whose serialisation
 * throws (`RangeError: Invalid string length`, as a snapshot of 1,000 × 256 KiB bodies did) or that is
 * over the frame bound becomes an error envelope; such an event is dropped; both are logged; nothing
 * escapes as an unhandled rejection, and the bridge keeps serving. Real loopback sockets, a stand-in core.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventName, SessionView } from '../../../../common/ipc-contract';
import { type RunningBrowserHost, startBrowserHostServer } from '../../../../main/browser-host/server';
import { MAX_OUTGOING_FRAME_BYTES, serialiseBounded, UNSENDABLE_ANSWER } from '../../../../main/core/host/frame-guard';
import type { HubdeskCore } from '../../../../main/core/host/hubdesk-core';
import { bridgeMessages } from '../../../support/bridge-messages';
import { fakeHubdeskCore, recordingLogger } from '../../../support/core-fakes';
import { tempDir } from '../../../support/temp-dir';

const SECRET = 'the-per-run-secret';
const view = {
  auth: { status: 'signed-out' },
  notices: [],
  backend: { authUrl: 'http://127.0.0.1:1', embedded: true, portalUrl: null },
  tokenStorage: 'encrypted',
  allowUnencryptedRoutes: true,
} satisfies SessionView;
/** What JSON.stringify does with a string past V8's limit, without needing 512 MiB to show it. */
const unserialisable = {
  toJSON: () => {
    throw new RangeError('Invalid string length');
  },
};
const logger = recordingLogger();
const listeners = new Map<EventName, (payload: unknown) => void>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
let host: RunningBrowserHost;

function fakeCore(): HubdeskCore {
  return fakeHubdeskCore(
    {
      'session.get': async () => view,
      'hubs.list': async () => [unserialisable],
      'inspector.clear': async () => 'x'.repeat(MAX_OUTGOING_FRAME_BYTES),
      'webhooks.list': async () => [],
    },
    {
      onEvent: (name, listener) => {
        listeners.set(name, listener as (payload: unknown) => void);
        return () => listeners.delete(name);
      },
    },
  );
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  const root = tempDir('static');
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Hubdesk</title>');
  host = await startBrowserHostServer({ staticRoot: root, secret: SECRET, logger, createCore: async () => fakeCore() });
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await host?.close();
});

async function welcomed() {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge`, { origin: host.origin, maxPayload: 64 * 1024 * 1024 });
  const { next } = bridgeMessages(ws);
  await new Promise((resolve) => ws.once('open', resolve));
  expect(await next()).toMatchObject({ type: 'challenge' });
  ws.send(JSON.stringify({ type: 'hello', token: SECRET }));
  expect(await next()).toMatchObject({ type: 'welcome' });
  expect(await next()).toMatchObject({ type: 'event', name: 'session.changed' });
  const invoke = async (id: number, channel: string) => {
    ws.send(JSON.stringify({ type: 'invoke', id, channel, args: [] }));
    return next();
  };
  return { ws, next, invoke };
}

describe('browser host bridge: frames that cannot be sent', () => {
  it('answers a result whose serialisation throws RangeError with an error envelope, logs it, and keeps serving', async () => {
    const { ws, invoke } = await welcomed();
    expect(await invoke(1, 'hubs.list')).toEqual({ type: 'result', id: 1, envelope: UNSENDABLE_ANSWER });
    expect(
      logger.lines.some(
        (line) => line.level === 'error' && line.message === 'bridge: a message could not be sent' && String(line.fields?.reason).includes('RangeError'),
      ),
    ).toBe(true);
    // The same socket still works.
    expect(await invoke(2, 'webhooks.list')).toEqual({ type: 'result', id: 2, envelope: { ok: true, value: [] } });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(unhandled).toEqual([]);
    ws.close();
  });

  it('answers a result over the frame bound with an error envelope instead of sending it', async () => {
    const { ws, invoke } = await welcomed();
    expect(await invoke(1, 'inspector.clear')).toEqual({ type: 'result', id: 1, envelope: UNSENDABLE_ANSWER });
    expect(logger.lines.some((line) => line.level === 'error' && /over the \d+-byte frame bound/.test(String(line.fields?.reason)))).toBe(true);
    expect(unhandled).toEqual([]);
    ws.close();
  });

  it('drops an event that cannot be serialised (logged) and still delivers the next one', async () => {
    const { ws, next } = await welcomed();
    listeners.get('webhooks.status')!({ webhookId: 'wh', connection: { state: 'connected' }, big: 10n });
    listeners.get('webhooks.status')!({ webhookId: 'wh', connection: unserialisable });
    listeners.get('webhooks.status')!({ webhookId: 'wh', connection: { state: 'connecting' } });
    expect(await next()).toEqual({ type: 'event', name: 'webhooks.status', payload: { webhookId: 'wh', connection: { state: 'connecting' } } });
    expect(logger.lines.filter((line) => line.message === 'bridge: a message could not be sent' && line.fields?.name === 'webhooks.status')).toHaveLength(2);
    expect(unhandled).toEqual([]);
    ws.close();
  });
});

describe('serialiseBounded', () => {
  it('never throws: cycles, BigInt, a RangeError and oversize values become reasons', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(serialiseBounded(cycle)).toMatchObject({ ok: false, reason: expect.stringContaining('TypeError') });
    expect(serialiseBounded(1n)).toMatchObject({ ok: false });
    expect(serialiseBounded(unserialisable)).toMatchObject({ ok: false, reason: expect.stringContaining('RangeError: Invalid string length') });
    expect(serialiseBounded(undefined)).toMatchObject({ ok: false });
    expect(serialiseBounded('é'.repeat(60), 100)).toMatchObject({ ok: false }); // 62 characters, but 122 bytes
    expect(serialiseBounded({ a: 1 }, 100)).toEqual({ ok: true, text: '{"a":1}' });
  });
});
