import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TapEvent } from '../../../../../common/webhook-protocol';
import { decodeEntryParts, readCheckpoint, removeCheckpoint, writeCheckpoint } from '../../../../../main/core/webhooks/history-checkpoint';
import { createWebhookInspector, type WebhookInspector } from '../../../../../main/core/webhooks/webhook-inspector';
import { tempDir } from '../../../../support/temp-dir';
import { listed, tapEvent, webhookMessage } from '../fake-listen-server';

const KiB = 1024;
const key = randomBytes(32);
const forwarderId = (sequence: number) => `evt_000000001_${String(sequence).padStart(10, '0')}`;

/** Everything a user can read of an inspector: its rows, each full message, what it accounts. */
const seen = (inspector: WebhookInspector) => {
  const rows = listed(inspector);
  return {
    rows,
    messages: rows.map((row) => inspector.message(row.webhookId, row.id)),
    facts: rows.map((row) => inspector.bodyFacts(row.webhookId, row.id) ?? null),
    usage: inspector.usage(),
  };
};

/** An inspector holding one of each kind of entry the inspector keeps. */
function everyKind(budgetBytes = 8 * 1024 * KiB): WebhookInspector {
  const inspector = createWebhookInspector({ budgetBytes });
  // Large bodies past the budget, first: the oldest of them are evicted, their entries stay.
  for (let i = 0; i < 4; i++) inspector.delivered('wh', webhookMessage(`large-${i}`, { pad: 'x'.repeat(3 * 1024 * KiB) }), 900 + i);
  inspector.delivered('wh', webhookMessage('plain', { device: { id: 'lamp-1' }, n: 5 }), 1000);
  inspector.delivered('wh', { ...webhookMessage('exponent'), rawBody: Buffer.from('{"n":1e3}').toString('base64') }, 1001);
  const bodies = [Buffer.from('\uFEFF{"a":"é✓"}'), Buffer.from('{"a":"é✓ \\"q\\""}'), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3]), Buffer.alloc(0)];
  bodies.forEach((bytes, i) => inspector.delivered('wh', { ...webhookMessage(`bytes-${i}`), rawBody: bytes.toString('base64') }, 1010 + i));
  // A tap without the request (routed to this app): awaiting its delivery; and one the forwarder then dropped.
  inspector.tapped('wh', tapEvent(forwarderId(1), 'l1', { request: false }), 1020);
  inspector.tapped('wh', tapEvent(forwarderId(5), 'l1', { request: false }), 1021);
  inspector.dropped('wh', { type: 'dropped', through: forwarderId(2), count: 2 });
  inspector.tapped('other', tapEvent('seen-by-tap', 'l2'), 1030);
  const rejected = { status: 413, error: 'payload_too_large', reason: 'too large', bodyTruncated: true };
  const refusal: TapEvent = {
    id: 'refused',
    receivedAt: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    size: 300_000,
    routing: { option: 'none', matched: [], reason: rejected.reason },
    rejected,
    request: { headers: { 'x-sender': 'big' }, query: { hub: 'h1' }, rawBody: Buffer.from('{"a').toString('base64') },
  };
  inspector.tapped('wh', refusal, 1040);
  inspector.imported(
    {
      ...webhookMessage('imported', { x: 1 }),
      webhookId: 'wh',
      method: 'PUT',
      routing: { option: 'key-path', keyPath: 'body.x', value: 'v'.repeat(3000), matched: [] },
      delivered: true,
      signature: { status: 'valid', scheme: 'github' },
    },
    1050,
  );
  return inspector;
}

async function roundTrip(inspector: WebhookInspector, through = 7): Promise<{ restored: WebhookInspector; through: number; bytes: number }> {
  const dir = tempDir('checkpoint');
  const written = await writeCheckpoint(dir, key, { through, state: inspector.exportState() });
  const read = await readCheckpoint(dir, key);
  if (read.status !== 'read') throw new Error(`checkpoint ${read.status}`);
  expect(read.bytes).toBe(written);
  const restored = createWebhookInspector({ capacity: 10_000, budgetBytes: 8 * 1024 * KiB });
  restored.restoreState(read.state, decodeEntryParts);
  return { restored, through: read.through, bytes: read.bytes };
}

describe('the history checkpoint (docs/webhooks-app.md, "History")', () => {
  it('gives back the inspector as it was: rows, full messages, body facts, bytes accounted, and the segment it holds', async () => {
    const inspector = everyKind();
    const before = seen(inspector);
    expect(before.rows.some((row) => row.awaitingDelivery)).toBe(true);
    expect(before.messages.some((message) => message.status === 'gone')).toBe(true); // the evicted large body
    const { restored, through } = await roundTrip(inspector, 42);
    expect(through).toBe(42);
    expect(seen(restored)).toEqual(before);
    for (const id of ['bytes-0', 'bytes-1', 'bytes-2', 'bytes-3']) expect(restored.source('wh', id)?.rawBody, id).toBe(inspector.source('wh', id)?.rawBody);
    // Searches read the restored bodies and what is known of them.
    const search = (i: WebhookInspector, keyPath: string) => i.snapshot({ limit: 50, filter: { keyPath } }).entries.map((entry) => entry.id);
    expect(search(restored, 'body.n == 1000')).toEqual(search(inspector, 'body.n == 1000'));
    expect(search(restored, 'body.n == 1000')).toEqual(['exponent']);
  });

  it('saves a restored entry not read since as it was read, and reads the rest in steps', async () => {
    const inspector = everyKind();
    const before = seen(inspector);
    const once = (await roundTrip(inspector)).restored;
    const twice = (await roundTrip(once)).restored; // `once` was never read: its parts went back as their text
    const total = before.usage.entries;
    expect(twice.readRestored(3)).toBe(total - 3);
    expect(twice.readRestored(total)).toBe(0);
    expect(seen(twice)).toEqual(before);
  });

  it('an entry whose parts do not read is listed by its id and time alone, its body still there', () => {
    const inspector = createWebhookInspector();
    const body = { text: '{"a":1}', bytes: 7, escaped: false };
    const entry = { arrivedAt: Date.parse('2026-01-02T03:04:05Z'), webhookId: 'wh', id: 'm1', awaitingDelivery: false, evicted: false, entryBytes: 500 };
    inspector.restoreState(
      {
        entries: [
          { ...entry, bodyBytes: 7, body, parts: Buffer.from('["not parts"]') },
          { ...entry, id: 'm2', bodyBytes: 0, body: null, parts: Buffer.from('{') },
        ],
        bodyOrder: [0],
        droppedThrough: [],
      },
      decodeEntryParts,
    );
    expect(listed(inspector).map(({ id, receivedAt, routing, preview }) => ({ id, receivedAt, routing, preview }))).toEqual([
      { id: 'm2', receivedAt: '2026-01-02T03:04:05.000Z', routing: null, preview: '' },
      { id: 'm1', receivedAt: '2026-01-02T03:04:05.000Z', routing: null, preview: '{"a":1}' },
    ]);
    expect(inspector.message('wh', 'm1')).toMatchObject({ status: 'kept', message: { rawBody: Buffer.from('{"a":1}').toString('base64') } });
  });

  it('goes on as the inspector would: a delivery ends the wait, a late tap event after the drop notice is marked, eviction order is kept', async () => {
    const inspector = everyKind();
    const { restored } = await roundTrip(inspector);
    for (const each of [inspector, restored]) {
      each.delivered('wh', webhookMessage(forwarderId(5), { late: true }), 2000);
      each.tapped('wh', tapEvent(forwarderId(2), 'l1', { request: false }), 2001);
      each.delivered('wh', webhookMessage('large-9', { pad: 'y'.repeat(3 * 1024 * KiB) }), 2002);
    }
    expect(seen(restored)).toEqual(seen(inspector));
    expect(listed(restored).find((row) => row.id === forwarderId(2))).toMatchObject({ droppedByForwarder: true });
  });

  it('an empty inspector, and one past a frame of entries, come back the same', async () => {
    expect(seen((await roundTrip(createWebhookInspector())).restored)).toEqual(seen(createWebhookInspector()));
    const many = createWebhookInspector({ capacity: 10_000 });
    for (let i = 0; i < 4_500; i++) many.delivered(`wh${i % 3}`, webhookMessage(`m${i}`, { i }), i);
    const { restored } = await roundTrip(many);
    expect(restored.usage()).toEqual(many.usage());
    expect(listed(restored).map((row) => row.id)).toEqual(listed(many).map((row) => row.id));
  });

  it('is none without a file, and damaged when changed, cut short, of another key, or its entries do not add up', async () => {
    const dir = tempDir('checkpoint-damaged');
    expect(await readCheckpoint(dir, key)).toEqual({ status: 'none' });
    await writeCheckpoint(dir, key, { through: 3, state: everyKind().exportState() });
    const file = join(dir, 'checkpoint');
    const good = readFileSync(file);
    expect(good.includes(Buffer.from('lamp-1'))).toBe(false); // sealed
    const damagedBy = async (bytes: Buffer) => {
      writeFileSync(file, bytes);
      return (await readCheckpoint(dir, key)).status;
    };
    const flipped = Buffer.from(good);
    flipped[good.length - 20]! ^= 1;
    expect(await damagedBy(flipped)).toBe('damaged');
    expect(await damagedBy(good.subarray(0, good.length - 100))).toBe('damaged');
    expect(await damagedBy(good.subarray(0, 10))).toBe('damaged');
    writeFileSync(file, good);
    expect((await readCheckpoint(dir, randomBytes(32))).status).toBe('damaged');
    // A frame dropped whole (each frame opens on its own): the count in the head does not add up.
    const many = createWebhookInspector({ capacity: 10_000 });
    for (let i = 0; i < 2_500; i++) many.delivered('wh', webhookMessage(`m${i}`), i);
    await writeCheckpoint(dir, key, { through: 1, state: many.exportState() });
    const frames = readFileSync(file);
    const headEnd = 13 + 4 + frames.readUInt32BE(13);
    const firstEntriesEnd = headEnd + 4 + frames.readUInt32BE(headEnd);
    expect(await damagedBy(Buffer.concat([frames.subarray(0, headEnd), frames.subarray(firstEntriesEnd)]))).toBe('damaged');
    writeFileSync(file, frames);
    expect((await readCheckpoint(dir, key)).status).toBe('read');
    await removeCheckpoint(dir);
    expect(await readCheckpoint(dir, key)).toEqual({ status: 'none' });
  });
});
