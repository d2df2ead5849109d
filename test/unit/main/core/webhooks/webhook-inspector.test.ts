import { describe, expect, it } from 'vitest';
import { createBackoff } from '../../../../../main/core/shared/backoff';
import {
  INSPECTOR_MESSAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_CHARS,
  INSPECTOR_PAGE_MAX_ENTRIES,
  INSPECTOR_PREVIEW_BYTES,
  invokeContract,
  type WebhookEntry,
} from '../../../../../common/ipc-contract';
import type { RawWebhookMessage, TapEvent } from '../../../../../common/webhook-protocol';
import {
  createWebhookInspector,
  GONE_AWAITING,
  GONE_DROPPED,
  GONE_EVICTED,
  GONE_UNKNOWN,
  type InspectorChange,
  MAIN_INSPECTOR_BUDGET_BYTES,
  MAIN_INSPECTOR_CAPACITY,
} from '../../../../../main/core/webhooks/webhook-inspector';
import { decodeRawBody } from '../../../../../main/core/webhooks/inspector-body';
import { listed, tapEvent, webhookMessage } from '../fake-listen-server';

const KiB = 1024;
const MiB = 1024 * KiB;
const all = listed;
/** A message whose raw body is exactly `bytes` bytes of JSON. */
function bigMessage(id: string, bytes: number, fill = 'x'): RawWebhookMessage {
  const head = JSON.stringify({ device: { id: 'lamp-1' }, pad: '' });
  const raw = head.replace('"pad":""', `"pad":"${fill.repeat(bytes - head.length)}"`);
  return {
    id,
    receivedAt: '2026-01-01T00:00:00.000Z',
    headers: { 'content-type': 'application/json' },
    query: {},
    rawBody: Buffer.from(raw).toString('base64'),
  };
}
/** A tap event carrying `message` as its request (an intake the tap does not see delivered to this app). */
const tapOf = ({ id: _id, receivedAt: _at, ...request }: RawWebhookMessage, base: TapEvent): TapEvent => ({
  ...base,
  request,
  size: Buffer.byteLength(request.rawBody, 'base64'),
});
const bigTap = (id: string, bytes: number): TapEvent => tapOf(bigMessage(id, bytes), tapEvent(id, 'l1'));
/** The entry of a change that made one. */
const entryOf = (change: InspectorChange): WebhookEntry => {
  if (change?.kind !== 'entry') throw new Error(`expected a new entry, got ${JSON.stringify(change)}`);
  return change.entry;
};

describe('main inspector ring', () => {
  it('keeps at most its capacity, dropping the oldest, newest first', () => {
    const inspector = createWebhookInspector({ capacity: 3 });
    for (const id of ['a', 'b', 'c', 'd']) inspector.tapped('wh', tapEvent(id));
    expect(all(inspector).map((entry) => entry.id)).toEqual(['d', 'c', 'b']);
    expect(inspector.message('wh', 'a')).toEqual({ status: 'gone', reason: GONE_UNKNOWN });
  });

  it('defaults to 1000 entries', () => {
    const inspector = createWebhookInspector();
    for (let i = 0; i < MAIN_INSPECTOR_CAPACITY + 5; i++) inspector.delivered('wh', webhookMessage(`m${i}`));
    expect(MAIN_INSPECTOR_CAPACITY).toBe(1000);
    expect(all(inspector)).toHaveLength(1000);
    expect(all(inspector).at(-1)!.id).toBe('m5');
    expect(inspector.usage().entries).toBe(1000);
  });

  it('merges the delivery into the tap entry: one entry, then a patch of what changed', () => {
    const inspector = createWebhookInspector();
    expect(entryOf(inspector.tapped('wh', tapEvent('m1', 'l1')))).toMatchObject({
      delivered: false,
      method: 'POST',
      awaitingDelivery: false,
      preview: '{"device":{"id":"lamp-1"}}',
    });
    expect(inspector.delivered('wh', webhookMessage('m1'))).toEqual({ kind: 'patch', patch: { webhookId: 'wh', id: 'm1', delivered: true } });
    expect(all(inspector)).toEqual([
      expect.objectContaining({ id: 'm1', delivered: true, method: 'POST', routing: expect.objectContaining({ option: 'key-path', value: 'lamp-1' }) }),
    ]);
    expect(inspector.usage().bodies).toBe(1); // the body is kept once, not once per copy
    expect(inspector.delivered('wh', webhookMessage('m1'))).toBeNull(); // a re-delivery after a resume changes nothing
  });

  it('merges a tap that arrives after the delivery: the patch is the method and the routing', () => {
    const inspector = createWebhookInspector();
    const early = entryOf(inspector.delivered('wh', webhookMessage('m1')));
    expect(early).toMatchObject({
      method: null,
      routing: null,
      delivered: true,
      awaitingDelivery: false,
      size: JSON.stringify({ device: { id: 'lamp-1' } }).length,
    });
    const tap = tapEvent('m1', 'l1', { request: false });
    expect(inspector.tapped('wh', tap)).toEqual({ kind: 'patch', patch: { webhookId: 'wh', id: 'm1', method: 'POST', routing: tap.routing } });
    expect(all(inspector)[0]).toMatchObject({ method: 'POST', delivered: true, routing: tap.routing, preview: early.preview });
  });

  it('a tap event without the request (routed to this app) waits for the delivery, which brings headers and body', () => {
    const inspector = createWebhookInspector();
    const awaiting = entryOf(inspector.tapped('wh', tapEvent('m1', 'l1', { request: false })));
    expect(awaiting).toMatchObject({ delivered: false, awaitingDelivery: true, method: 'POST', headers: {}, query: {}, preview: '', bodyBytes: 26 });
    expect(inspector.message('wh', 'm1')).toEqual({ status: 'gone', reason: GONE_AWAITING });
    expect(inspector.usage().bodies).toBe(0);

    const change = inspector.delivered('wh', webhookMessage('m1'));
    expect(change).toEqual({
      kind: 'patch',
      patch: {
        webhookId: 'wh',
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
      },
    });
    expect(inspector.message('wh', 'm1')).toMatchObject({ status: 'kept', message: { body: { device: { id: 'lamp-1' } }, method: 'POST', delivered: true } });
    expect(inspector.usage().bodies).toBe(1);
  });

  it('keeps the same message id of two webhooks apart; forget and clear remove entries and their bytes', () => {
    const inspector = createWebhookInspector();
    inspector.tapped('wh1', tapEvent('m1'));
    inspector.tapped('wh2', tapEvent('m1'));
    expect(all(inspector)).toHaveLength(2);
    inspector.forget('wh1');
    expect(all(inspector).map((entry) => entry.webhookId)).toEqual(['wh2']);
    expect(inspector.message('wh1', 'm1').status).toBe('gone');
    expect(inspector.message('wh2', 'm1').status).toBe('kept');
    inspector.clear();
    expect(all(inspector)).toEqual([]);
    expect(inspector.usage()).toEqual({ entries: 0, bodies: 0, bytes: 0 });
  });
});

describe('the forwarder\'s notice of dropped messages (docs/webhooks-app.md, "Dropped by the forwarder")', () => {
  const id = (sequence: number) => `evt_000000001_${sequence.toString(36).padStart(10, '0')}`;
  const awaited = (inspector: ReturnType<typeof createWebhookInspector>, webhookId: string, sequence: number) =>
    inspector.tapped(webhookId, tapEvent(id(sequence), 'l1', { request: false }));
  const byId = (inspector: ReturnType<typeof createWebhookInspector>) => new Map(all(inspector).map((entry) => [entry.id, entry]));

  it('marks the entries of the webhook still awaiting their delivery, up to the notice, and no others', () => {
    const inspector = createWebhookInspector();
    for (const sequence of [1, 2, 3, 4]) awaited(inspector, 'wh', sequence);
    awaited(inspector, 'other', 5);
    inspector.delivered('wh', webhookMessage(id(2)));
    const patches = inspector.dropped('wh', { type: 'dropped', through: id(3), count: 2 });
    expect(patches).toEqual([
      { webhookId: 'wh', id: id(1), awaitingDelivery: false, droppedByForwarder: true },
      { webhookId: 'wh', id: id(3), awaitingDelivery: false, droppedByForwarder: true },
    ]);
    const entries = byId(inspector);
    expect(entries.get(id(2))).toMatchObject({ delivered: true, awaitingDelivery: false });
    expect(entries.get(id(2))!.droppedByForwarder).toBeUndefined();
    expect(entries.get(id(4))).toMatchObject({ awaitingDelivery: true });
    expect(entries.get(id(5))).toMatchObject({ awaitingDelivery: true });
    expect(inspector.message('wh', id(1))).toEqual({ status: 'gone', reason: GONE_DROPPED });
    // Told again (a reconnect): nothing more to mark.
    expect(inspector.dropped('wh', { type: 'dropped', through: id(3), count: 2 })).toEqual([]);
  });

  it('marks a tap event that comes after the notice, and ignores a notice whose id is not a forwarder id', () => {
    const inspector = createWebhookInspector();
    expect(inspector.dropped('wh', { type: 'dropped', through: 'not-a-forwarder-id', count: 1 })).toEqual([]);
    inspector.dropped('wh', { type: 'dropped', through: id(7), count: 1 });
    expect(entryOf(awaited(inspector, 'wh', 7))).toMatchObject({ awaitingDelivery: false, droppedByForwarder: true });
    expect(entryOf(awaited(inspector, 'wh', 8))).toMatchObject({ awaitingDelivery: true });
    // An older notice (out of order) does not move the mark back.
    inspector.dropped('wh', { type: 'dropped', through: id(6), count: 1 });
    expect(entryOf(awaited(inspector, 'wh', 6)).droppedByForwarder).toBe(true);
    inspector.forget('wh');
    expect(entryOf(awaited(inspector, 'wh', 5)).droppedByForwarder).toBeUndefined();
  });
});

describe('main inspector summaries', () => {
  it('never carry the body: a preview of at most 1 KiB with truncated and bodyBytes', () => {
    const inspector = createWebhookInspector();
    const summary = entryOf(inspector.tapped('wh', bigTap('m1', 256 * KiB)));
    expect(summary).not.toHaveProperty('body');
    expect(summary).not.toHaveProperty('rawBody');
    expect(summary).toMatchObject({ bodyBytes: 256 * KiB, truncated: true, previewKind: 'text' });
    expect(summary.preview.startsWith('{"device":{"id":"lamp-1"},"pad":"xxx')).toBe(true);
    expect(Buffer.byteLength(summary.preview)).toBeLessThanOrEqual(INSPECTOR_PREVIEW_BYTES);
    expect(JSON.stringify(summary).length).toBeLessThan(4 * KiB);
  });

  it('shows a small body whole; a body that is not UTF-8 as base64; a character cut at the end is dropped', () => {
    const inspector = createWebhookInspector();
    expect(entryOf(inspector.tapped('wh', tapEvent('small')))).toMatchObject({ preview: '{"device":{"id":"lamp-1"}}', previewKind: 'text', truncated: false });
    const binary = { ...webhookMessage('bin'), rawBody: Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('base64') };
    expect(entryOf(inspector.delivered('wh', binary))).toMatchObject({ preview: '//4AAQ==', previewKind: 'base64', truncated: false, bodyBytes: 4 });
    // 2,000 "é" (2 bytes each): the 1,024-byte cut falls on a character boundary or just after one.
    const accents = entryOf(inspector.delivered('wh', bigMessage('acc', 4000, 'é')));
    expect(accents.previewKind).toBe('text');
    expect(accents.preview).not.toContain('\uFFFD');
    expect(Buffer.byteLength(accents.preview)).toBeLessThanOrEqual(INSPECTOR_PREVIEW_BYTES);
  });

  it('cuts very long header values, many headers and a huge routing value (the full message has them whole)', () => {
    const inspector = createWebhookInspector();
    const headers = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, 'v'.repeat(5000)]));
    const event = bigTap('m1', 2 * KiB);
    const summary = entryOf(
      inspector.tapped('wh', { ...event, request: { ...event.request!, headers }, routing: { ...event.routing, value: 'k'.repeat(100_000) } }),
    );
    expect(summary.pairsCut).toBe(true);
    expect(Object.keys(summary.headers)).toHaveLength(64);
    expect(JSON.stringify(summary).length).toBeLessThan(80 * KiB);
    expect(String(summary.routing!.value).length).toBeLessThanOrEqual(1025);
    const full = inspector.message('wh', 'm1');
    expect(full.status === 'kept' && Object.keys(full.message.headers).length).toBe(100);
    expect(full.status === 'kept' && full.message.routing!.value).toBe('k'.repeat(100_000));
  });
});

describe('main inspector byte budget', () => {
  it('defaults to 64 MiB', () => expect(MAIN_INSPECTOR_BUDGET_BYTES).toBe(64 * MiB));

  it('stays within its budget under a flood of 256 KiB bodies: the oldest bodies go first, the entries stay listed', () => {
    const budget = 4 * MiB;
    const inspector = createWebhookInspector({ budgetBytes: budget });
    const template = bigMessage('t', 256 * KiB);
    for (let i = 0; i < 100; i++) {
      const message = { ...template, id: `m${i}` };
      // Routed to this app: the tap's event comes without the request, the delivery brings it.
      inspector.tapped('wh', tapEvent(message.id, 'l1', { request: false }));
      inspector.delivered('wh', message);
      expect(inspector.usage().bytes).toBeLessThanOrEqual(budget);
    }
    const { bodies, entries } = inspector.usage();
    expect(entries).toBe(100);
    // Each body is accounted its bytes (kept as text, one byte a character for ASCII; the parsed body is not kept): 15 fit in 4 MiB.
    expect(bodies).toBe(15);
    // The newest ones are kept, the older ones answer "gone" with the reason.
    expect(inspector.message('wh', 'm99')).toMatchObject({ status: 'kept', message: { id: 'm99', delivered: true, method: 'POST' } });
    expect(inspector.message('wh', 'm0')).toEqual({ status: 'gone', reason: GONE_EVICTED });
    const kept = all(inspector).filter((entry) => inspector.message('wh', entry.id).status === 'kept');
    expect(kept.map((entry) => entry.id)).toEqual(Array.from({ length: 15 }, (_, i) => `m${99 - i}`));
  }, 30_000);

  it('does not take back an evicted body from a late copy, and never keeps a body larger than the budget', () => {
    const inspector = createWebhookInspector({ budgetBytes: 1 * MiB });
    inspector.tapped('wh', bigTap('old', 256 * KiB));
    for (let i = 0; i < 5; i++) inspector.tapped('wh', bigTap(`n${i}`, 256 * KiB));
    expect(inspector.message('wh', 'old').status).toBe('gone');
    inspector.delivered('wh', bigMessage('old', 256 * KiB)); // a re-delivery after a resume
    expect(inspector.message('wh', 'old').status).toBe('gone');
    expect(inspector.message('wh', 'n4').status).toBe('kept');

    inspector.tapped('wh', bigTap('huge', 1100 * KiB)); // over the whole budget
    expect(inspector.message('wh', 'huge')).toEqual({ status: 'gone', reason: GONE_EVICTED });
    expect(inspector.message('wh', 'n4').status).toBe('kept'); // the huge one evicted nothing
    expect(inspector.usage().bytes).toBeLessThanOrEqual(1 * MiB);
  });

  it('drops whole entries when summaries alone fill the budget', () => {
    const inspector = createWebhookInspector({ budgetBytes: 32 * KiB });
    for (let i = 0; i < 100; i++) inspector.tapped('wh', tapEvent(`m${i}`));
    expect(inspector.usage().bytes).toBeLessThanOrEqual(32 * KiB);
    expect(inspector.usage().entries).toBeLessThan(100);
    expect(all(inspector)[0]!.id).toBe('m99');
  });
});

describe('main inspector pages and full messages', () => {
  it('pages newest first with a cursor, up to the limit, and ends with a null cursor', () => {
    const inspector = createWebhookInspector();
    for (let i = 0; i < 5; i++) inspector.tapped('wh', tapEvent(`m${i}`));
    const first = inspector.snapshot({ limit: 2 });
    expect(first.entries.map((e) => e.id)).toEqual(['m4', 'm3']);
    const second = inspector.snapshot({ before: first.nextCursor!, limit: 2 });
    expect(second.entries.map((e) => e.id)).toEqual(['m2', 'm1']);
    // New entries meanwhile do not shift the pages.
    inspector.tapped('wh', tapEvent('m5'));
    const third = inspector.snapshot({ before: second.nextCursor!, limit: 2 });
    expect(third).toEqual({ entries: [expect.objectContaining({ id: 'm0' })], nextCursor: null });
  });

  it('bounds a page by characters too', () => {
    const inspector = createWebhookInspector();
    const headers = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`x-h${i}`, 'v'.repeat(1000)]));
    for (let i = 0; i < 50; i++) inspector.tapped('wh', { ...tapEvent(`m${i}`), request: { ...tapEvent(`m${i}`).request!, headers } });
    const page = inspector.snapshot({ limit: INSPECTOR_PAGE_MAX_ENTRIES });
    expect(page.entries.length).toBeLessThan(50);
    expect(page.nextCursor).not.toBeNull();
    expect(JSON.stringify(page).length).toBeLessThanOrEqual(INSPECTOR_PAGE_MAX_CHARS + 1024);
  });

  it('the page request and the message verb are validated by the contract', () => {
    const snapshot = invokeContract['inspector.snapshot'].args;
    expect(snapshot.safeParse([{ limit: 50 }]).success).toBe(true);
    expect(snapshot.safeParse([{ before: 12, limit: 200 }]).success).toBe(true);
    expect(snapshot.safeParse([{ limit: 201 }]).success).toBe(false);
    expect(snapshot.safeParse([{ limit: 0 }]).success).toBe(false);
    expect(snapshot.safeParse([]).success).toBe(false);
    expect(snapshot.safeParse([{ limit: 10, extra: 1 }]).success).toBe(false);
    const message = invokeContract['inspector.message'].args;
    expect(message.safeParse(['wh_1', 'm1']).success).toBe(true);
    expect(message.safeParse(['wh/1', 'm1']).success).toBe(false);
    expect(message.safeParse(['wh', '']).success).toBe(false);
    expect(message.safeParse(['wh', 'x'.repeat(201)]).success).toBe(false);
    expect(message.safeParse(['wh']).success).toBe(false);
  });

  it('answers the full message within its bound: a parsed body that does not fit is left out, then the raw body is cut', () => {
    const inspector = createWebhookInspector();
    inspector.tapped('wh', bigTap('ok', 256 * KiB));
    const ok = inspector.message('wh', 'ok');
    expect(ok).toMatchObject({ status: 'kept', message: { bodyOmitted: false, rawTruncated: false } });
    expect(ok.status === 'kept' && Buffer.from(ok.message.rawBody, 'base64').length).toBe(256 * KiB);

    // A text body of 256 KiB of control characters: six times longer once escaped as JSON.
    const control = '\u0001'.repeat(256 * KiB);
    inspector.tapped(
      'wh',
      tapOf({ ...webhookMessage('esc'), headers: { 'content-type': 'text/plain' }, rawBody: Buffer.from(control).toString('base64') }, tapEvent('esc', 'l1')),
    );
    const escaped = inspector.message('wh', 'esc');
    expect(escaped).toMatchObject({ status: 'kept', message: { bodyOmitted: true, rawTruncated: false } });
    expect(JSON.stringify(escaped).length).toBeLessThanOrEqual(INSPECTOR_MESSAGE_MAX_CHARS + 200);

    // Another forwarder may send more than 256 KiB: 1 MiB of raw body does not fit even alone.
    inspector.tapped('wh', tapOf(bigMessage('big', 1024 * KiB), tapEvent('big', 'l1')));
    const big = inspector.message('wh', 'big');
    expect(big).toMatchObject({ status: 'kept', message: { bodyOmitted: true, rawTruncated: true } });
    expect(JSON.stringify(big).length).toBeLessThanOrEqual(INSPECTOR_MESSAGE_MAX_CHARS + 200);
    expect(big.status === 'kept' && big.message.rawBody.length % 4).toBe(0);
  });
});

describe('imported messages and the source of a message', () => {
  it("keeps the signature check an imported message's file says was made, and answers it with the message", () => {
    const inspector = createWebhookInspector();
    const claimed = { status: 'valid', scheme: 'github' } as const;
    inspector.imported({ ...webhookMessage('m1'), webhookId: 'wh', method: 'POST', routing: null, delivered: true, signature: claimed });
    inspector.imported({ ...webhookMessage('m2'), webhookId: 'wh', method: 'POST', routing: null, delivered: true });
    const [one, two] = [inspector.message('wh', 'm1'), inspector.message('wh', 'm2')];
    expect(one.status === 'kept' && one.message.archivedSignature).toEqual(claimed);
    expect(two.status === 'kept' && 'archivedSignature' in two.message).toBe(false);
  });

  const archived = {
    webhookId: 'wh',
    id: 'imp-1',
    receivedAt: '2026-01-02T03:04:05.000Z',
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-a': 'b' },
    query: { hub: 'h1' },
    rawBody: Buffer.from('{"device":{"id":"lamp-1"}}').toString('base64'),
    routing: { option: 'key-path' as const, keyPath: 'body.device.id', value: 'lamp-1', matched: [] },
    delivered: true,
  };

  it('makes an entry marked imported with the file’s routing and delivery, kept in full; the same one again is nothing', () => {
    const inspector = createWebhookInspector();
    const entry = entryOf(inspector.imported(archived));
    expect(entry).toMatchObject({
      webhookId: 'wh',
      id: 'imp-1',
      method: 'PUT',
      imported: true,
      delivered: true,
      awaitingDelivery: false,
      routing: archived.routing,
      preview: '{"device":{"id":"lamp-1"}}',
    });
    expect(inspector.imported(archived)).toBeNull();
    expect(inspector.message('wh', 'imp-1')).toMatchObject({
      status: 'kept',
      message: { rawBody: archived.rawBody, query: { hub: 'h1' }, body: { device: { id: 'lamp-1' } } },
    });
    expect(inspector.source('wh', 'imp-1')).toEqual({
      method: 'PUT',
      receivedAt: archived.receivedAt,
      headers: archived.headers,
      query: archived.query,
      rawBody: archived.rawBody,
      imported: true,
    });
  });

  it('a tap event of a refused intake makes an entry with the refusal, not awaiting any delivery', () => {
    const inspector = createWebhookInspector();
    const rejected = { status: 413, error: 'payload_too_large', reason: 'The request body is larger than 262144 bytes.' };
    const event: TapEvent = {
      id: 'evt_r',
      receivedAt: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      size: 300_000,
      routing: { option: 'none', matched: [], reason: rejected.reason },
      rejected,
      request: { headers: { 'x-sender': 'big' }, query: {}, rawBody: '' },
    };
    expect(entryOf(inspector.tapped('wh', event))).toMatchObject({
      rejected,
      awaitingDelivery: false,
      delivered: false,
      size: 300_000,
      headers: { 'x-sender': 'big' },
    });
    expect(inspector.message('wh', 'evt_r')).toMatchObject({ status: 'kept', message: { rejected, rawBody: '' } });
  });

  it('an imported refusal is listed as it was: its refusal and the whole size of its cut body', () => {
    const inspector = createWebhookInspector();
    const rejected = { status: 413, error: 'payload_too_large', reason: 'too large', bodyTruncated: true };
    const archived = {
      webhookId: 'wh',
      id: 'imp-r',
      receivedAt: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      headers: {},
      query: {},
      rawBody: Buffer.from('{"a').toString('base64'),
      routing: { option: 'none' as const, matched: [], reason: 'too large' },
      delivered: false,
      rejected,
      size: 300_000,
    };
    expect(entryOf(inspector.imported(archived))).toMatchObject({ rejected, size: 300_000, bodyBytes: 3, imported: true });
    expect(inspector.message('wh', 'imp-r')).toMatchObject({ status: 'kept', message: { rejected, size: 300_000 } });
  });

  it("a refused intake's kept first bytes and JSON error position reach the full message; its size stays the whole body's", () => {
    const inspector = createWebhookInspector();
    const broken = '{"device": {"id": "lamp-1",\n  "on" true}}';
    const rejected = {
      status: 400,
      error: 'invalid_request',
      reason: 'The body is not valid JSON (line 2, column 8, byte 35): ":" was expected.',
      jsonError: { offset: 35, line: 2, column: 8 },
    };
    const event: TapEvent = {
      id: 'evt_j',
      receivedAt: '2026-01-01T00:00:00.000Z',
      method: 'POST',
      size: Buffer.byteLength(broken),
      routing: { option: 'none', matched: [], reason: rejected.reason },
      rejected,
      request: { headers: { 'content-type': 'application/json' }, query: {}, rawBody: Buffer.from(broken).toString('base64') },
    };
    expect(entryOf(inspector.tapped('wh', event))).toMatchObject({ rejected, bodyBytes: Buffer.byteLength(broken), preview: broken, truncated: false });
    expect(inspector.message('wh', 'evt_j')).toMatchObject({ status: 'kept', message: { rejected, rawBody: event.request!.rawBody, body: broken } });

    const first = Buffer.alloc(64 * 1024, 0x61);
    const large: TapEvent = {
      ...event,
      id: 'evt_l',
      size: 1_000_000,
      rejected: { status: 413, error: 'payload_too_large', reason: 'too large', bodyTruncated: true },
      request: { headers: {}, query: {}, rawBody: first.toString('base64') },
    };
    expect(entryOf(inspector.tapped('wh', large))).toMatchObject({ size: 1_000_000, bodyBytes: first.length, rejected: { bodyTruncated: true } });
    expect(inspector.message('wh', 'evt_l')).toMatchObject({ status: 'kept', message: { size: 1_000_000, rawBody: first.toString('base64') } });
  });

  it('gives back exactly the bytes received: a leading BOM, text that is not ASCII, bytes that are not UTF-8', () => {
    const inspector = createWebhookInspector();
    const bodies = [Buffer.from('\uFEFF{"a":"é✓"}'), Buffer.from('{"a":"é✓"}'), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3]), Buffer.alloc(0)];
    bodies.forEach((bytes, i) => inspector.delivered('wh', { ...webhookMessage(`b${i}`), rawBody: bytes.toString('base64') }));
    bodies.forEach((bytes, i) => expect(Buffer.from(inspector.source('wh', `b${i}`)!.rawBody, 'base64').equals(bytes)).toBe(true));
    // The BOM is not part of the JSON: the body still parses.
    expect(inspector.message('wh', 'b0')).toMatchObject({ status: 'kept', message: { body: { a: 'é✓' } } });
  });

  it('has no source for a message it does not keep, or whose body it dropped', () => {
    const inspector = createWebhookInspector({ budgetBytes: 64 * KiB });
    expect(inspector.source('wh', 'nope')).toBeUndefined();
    inspector.delivered('wh', bigMessage('big-1', 40 * KiB));
    inspector.delivered('wh', bigMessage('big-2', 40 * KiB));
    expect(inspector.source('wh', 'big-1')).toBeUndefined();
    expect(inspector.source('wh', 'big-2')?.rawBody.length).toBeGreaterThan(30 * KiB);
  });
});

describe('filtered pages (docs/webhooks-app.md, "Finding messages")', () => {
  it('pages only the entries that match: text in the whole body, a key path, an outcome; a bad key path is refused', () => {
    const inspector = createWebhookInspector();
    inspector.delivered('wh', webhookMessage('m1', { device: { id: 'lamp-1' }, note: 'x'.repeat(2000) + 'needle' }));
    inspector.delivered('wh', webhookMessage('m2', { device: { id: 'lamp-2' } }));
    inspector.tapped('wh', tapEvent('m3'));
    const ids = (filter: Parameters<typeof inspector.snapshot>[0]['filter']) => inspector.snapshot({ limit: 10, filter }).entries.map((entry) => entry.id);
    // The needle is past the 1 KiB preview: found in the kept body.
    expect(ids({ text: 'NEEDLE' })).toEqual(['m1']);
    expect(ids({ keyPath: 'body.device.id == lamp-2' })).toEqual(['m2']);
    expect(ids({ outcomes: ['this-app'] })).toEqual(['m2', 'm1']);
    expect(ids({ outcomes: ['no-match'] })).toEqual(['m3']);
    expect(() => inspector.snapshot({ limit: 10, filter: { keyPath: 'body..x' } })).toThrow(/does not parse at 6/);
  });

  it('a key path searched again gives the same answer, and a body that arrives since is read', () => {
    const inspector = createWebhookInspector();
    const matching = () => inspector.snapshot({ limit: 10, filter: { keyPath: 'body.device.id == lamp-1' } }).entries.map((entry) => entry.id);
    inspector.delivered('wh', webhookMessage('a', { device: { id: 'lamp-1' } }));
    inspector.delivered('wh', webhookMessage('b', { device: { id: 'lamp-2' } }));
    inspector.tapped('wh', tapEvent('c', 'l1', { request: false })); // its body comes with the delivery
    expect(matching()).toEqual(['a']);
    expect(matching()).toEqual(['a']);
    inspector.delivered('wh', webhookMessage('c', { device: { id: 'lamp-1' } }));
    expect(matching()).toEqual(['c', 'a']);
    for (const other of ['body.x exists', 'body.y exists', 'body.z exists']) inspector.snapshot({ limit: 10, filter: { keyPath: other } }); // other paths push it out
    expect(matching()).toEqual(['c', 'a']);
    // The same path with another value or operator: the kept values answer it right.
    const ids = (keyPath: string) => inspector.snapshot({ limit: 10, filter: { keyPath } }).entries.map((entry) => entry.id);
    expect(ids('body.device.id == lamp-2')).toEqual(['b']);
    expect(ids('body.device.id != lamp-1')).toEqual(['b']);
    expect(ids('body.device.id exists')).toEqual(['c', 'b', 'a']);
    expect(matching()).toEqual(['c', 'a']);
  });

  it('pages a filtered result with the cursor', () => {
    const inspector = createWebhookInspector();
    for (let i = 0; i < 5; i++) inspector.delivered('wh', webhookMessage(`m${i}`, { device: { id: i % 2 === 0 ? 'even' : 'odd' } }));
    const first = inspector.snapshot({ limit: 2, filter: { keyPath: 'body.device.id == even' } });
    expect(first.entries.map((entry) => entry.id)).toEqual(['m4', 'm2']);
    const second = inspector.snapshot({ limit: 2, before: first.nextCursor!, filter: { keyPath: 'body.device.id == even' } });
    expect(second.entries.map((entry) => entry.id)).toEqual(['m0']);
    expect(second.nextCursor).toBeNull();
  });
});

describe('the parsed body, decoded from the raw body as the forwarder decodes it', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  it('JSON (also +json and with a charset), form fields (first value), text, and null when empty', () => {
    expect(decodeRawBody(b64('{"a":[1,{"b":null}]}'), 'application/json; charset=utf-8')).toEqual({ a: [1, { b: null }] });
    expect(decodeRawBody(b64('{"a":1}'), 'application/vnd.api+json')).toEqual({ a: 1 });
    expect(decodeRawBody(b64('a=1&b=two&a=3'), 'application/x-www-form-urlencoded')).toEqual({ a: '1', b: 'two' });
    expect(decodeRawBody(b64('plain words'), 'text/plain')).toBe('plain words');
    expect(decodeRawBody(b64('{"a":1}'), undefined)).toBe('{"a":1}');
    expect(decodeRawBody('', 'application/json')).toBeNull();
    expect(decodeRawBody(b64('not json'), 'application/json')).toBe('not json');
  });

  it('keeps a __proto__ key as plain data', () => {
    const body = decodeRawBody(b64('{"__proto__":{"polluted":true}}'), 'application/json') as Record<string, unknown>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
  });

  it('reads the content type from the whole headers even when the summary cut them', () => {
    const inspector = createWebhookInspector();
    const headers = { ...Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`x-h${i}`, 'v'])), 'content-type': 'application/x-www-form-urlencoded' };
    inspector.delivered('wh', { ...webhookMessage('form'), headers, rawBody: b64('a=1') });
    expect(all(inspector)[0]!.headers).not.toHaveProperty('content-type');
    expect(inspector.message('wh', 'form')).toMatchObject({ status: 'kept', message: { body: { a: '1' } } });
  });
});

describe('backoff', () => {
  it('doubles from 250 ms up to 30 s, with up to half of each step random', () => {
    const low = createBackoff(() => 0);
    const high = createBackoff(() => 1);
    const lows = Array.from({ length: 10 }, () => low.next());
    const highs = Array.from({ length: 10 }, () => high.next());
    expect(highs).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(lows).toEqual(highs.map((ms) => ms / 2));
    expect(high.attempts()).toBe(10);
  });
  it('starts over after reset', () => {
    const backoff = createBackoff(() => 1);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.attempts()).toBe(0);
    expect(backoff.next()).toBe(250);
  });
});
