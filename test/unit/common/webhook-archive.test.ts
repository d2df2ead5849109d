import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesBase64 } from '../../../common/base64';
import { ARCHIVE_MAX_MESSAGES } from '../../../common/archive-reader';
import { type ArchivedMessage, toHar, toNdjson } from '../../../common/webhook-archive';
import { readText } from '../../support/archive-files';

const creator = { name: 'Hubdesk', version: '0.1.0' };
const urlOf = (webhookId: string) => `http://127.0.0.1:8080/webhook/${webhookId}`;
const text = (value: string) => bytesBase64(new TextEncoder().encode(value));

const message = (overrides: Partial<ArchivedMessage> = {}): ArchivedMessage => ({
  webhookId: 'wh_1',
  id: 'm1',
  receivedAt: '2026-11-24T10:00:00.000Z',
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=abc' },
  query: { hub: 'h1' },
  rawBody: text('{"device":{"id":"lamp-1"}}'),
  routing: { option: 'key-path', keyPath: 'body.device.id', value: 'lamp-1', matched: [{ listenerId: 'l1', hubId: 'h1' }] },
  delivered: true,
  ...overrides,
});

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const arbitraryMessage = fc.record({
  webhookId: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
  id: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
  receivedAt: fc.date({ min: new Date(2020, 0, 1), max: new Date(2030, 0, 1), noInvalidDate: true }).map((date) => date.toISOString()),
  method: fc.constantFrom('POST', 'PUT', 'PATCH'),
  headers: fc.dictionary(headerName, fc.string({ maxLength: 30 }), { maxKeys: 5 }),
  query: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
  rawBody: fc.uint8Array({ maxLength: 200 }).map(bytesBase64),
  routing: fc.constant(null),
  delivered: fc.boolean(),
});
/** A routing decision with its keys in the forwarder's order (not the schema's): a file written again must still be the same. */
const arbitraryRouting = fc.oneof(
  fc.constant(null),
  fc.record({
    reason: fc.string({ maxLength: 20 }),
    matched: fc.array(fc.record({ hubId: fc.string({ maxLength: 5 }), listenerId: fc.string({ maxLength: 8 }) }), { maxLength: 2 }),
    value: fc.jsonValue({ maxDepth: 2 }),
    keyPath: fc.constant('body.device.id'),
    option: fc.constantFrom('key-path' as const, 'query' as const),
  }),
);
const arbitraryRefusal = fc.record(
  {
    jsonError: fc.record({ column: fc.integer({ min: 1, max: 99 }), line: fc.integer({ min: 1, max: 9 }), offset: fc.nat(999) }),
    bodyTruncated: fc.boolean(),
    reason: fc.string({ maxLength: 40 }),
    error: fc.constantFrom('payload_too_large', 'invalid_request'),
    status: fc.constantFrom(400, 413, 431),
  },
  { requiredKeys: ['status', 'error', 'reason'] },
);
/** Signature checks, keys in another order than the schema's. */
const arbitrarySignature = fc.oneof(
  fc.constant({ status: 'unsigned' as const }),
  fc.record({ scheme: fc.constantFrom('github' as const, 'stripe' as const), status: fc.constantFrom('valid' as const, 'no-secret' as const) }),
  fc.record({
    detail: fc.string({ maxLength: 30 }),
    reason: fc.constantFrom('mismatch' as const, 'timestamp-too-old' as const),
    scheme: fc.constant('github' as const),
    status: fc.constant('invalid' as const),
  }),
);
/** Messages as the inspector has them: accepted, or refused with the first bytes of a body whose whole size is larger; with the signature check or without (older files). */
const anyMessage = fc
  .tuple(
    arbitraryMessage,
    arbitraryRouting,
    fc.option(arbitraryRefusal, { nil: undefined }),
    fc.option(fc.integer({ min: 201, max: 10_000_000 }), { nil: undefined }),
    fc.option(arbitrarySignature, { nil: undefined }),
  )
  .map(([base, routing, rejected, size, signature]): ArchivedMessage => ({
    ...base,
    routing,
    ...(rejected && { rejected }),
    ...(rejected && size !== undefined && { size }),
    ...(signature && { signature }),
  }));
const uniqueMessages = fc.uniqueArray(anyMessage, { maxLength: 8, selector: (m) => `${m.webhookId}/${m.id}` });

describe('HAR 1.2', () => {
  it('writes a HAR log whose request is the intake as received, with Hubdesk’s own fields under _hubdesk', () => {
    const har = JSON.parse(toHar([message()], creator, urlOf)) as { log: { version: string; creator: unknown; entries: Record<string, never>[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual(creator);
    const [entry] = har.log.entries as unknown as Record<string, Record<string, unknown>>[];
    expect(entry!.request).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:8080/webhook/wh_1?hub=h1',
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'x-hub-signature-256', value: 'sha256=abc' },
      ],
      queryString: [{ name: 'hub', value: 'h1' }],
      postData: { mimeType: 'application/json', text: '{"device":{"id":"lamp-1"}}' },
      bodySize: 26,
    });
    expect(entry!.response).toMatchObject({ status: 202 });
    expect(entry!._hubdesk).toMatchObject({ webhookId: 'wh_1', id: 'm1', delivered: true });
  });

  it('keeps a binary body as base64 with _encoding', () => {
    const binary = bytesBase64(new Uint8Array([0, 255, 1, 128]));
    const har = JSON.parse(toHar([message({ rawBody: binary })], creator, urlOf)) as { log: { entries: { request: { postData: unknown } }[] } };
    expect(har.log.entries[0]!.request.postData).toEqual({ mimeType: 'application/json', text: binary, _encoding: 'base64' });
  });

  it('imports back equal, whatever the bytes, headers and query (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(arbitraryMessage, { maxLength: 8, selector: (m) => `${m.webhookId}/${m.id}` }), async (messages) => {
        const read = (await readText(toHar(messages, creator, urlOf))).result;
        expect(read).toMatchObject({ format: 'har', skippedCount: 0 });
        expect(read.messages).toEqual(messages);
      }),
    );
  });

  it('imports a HAR from another tool: the webhook id from the path, the body as text, a header named twice with both values in order, a __proto__ header dropped', async () => {
    const foreign = JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          {
            startedDateTime: '2026-11-01T09:00:00.000Z',
            request: {
              method: 'post',
              url: 'https://hooks.example/webhook/wh_9?x=1&x=2',
              headers: [
                { name: 'Content-Type', value: 'application/json' },
                { name: 'X-Twice', value: 'first' },
                { name: 'x-twice', value: 'second' },
                { name: '__proto__', value: 'not a prototype' },
              ],
              postData: { mimeType: 'application/json', text: '{"a":"é"}' },
            },
            response: { status: 200 },
          },
        ],
      },
    });
    const { messages, skippedCount } = (await readText(foreign)).result;
    expect(skippedCount).toBe(0);
    expect(messages[0]).toMatchObject({ webhookId: 'wh_9', method: 'POST', query: { x: '1' }, rawBody: text('{"a":"é"}'), routing: null, delivered: false });
    // A header named __proto__ is dropped by the schema's record, never taken as a prototype.
    expect(messages[0]!.headers).toEqual({ 'content-type': 'application/json', 'x-twice': 'first, second' });
    expect(Object.getPrototypeOf(messages[0]!.headers)).toBe(Object.prototype);
  });
});

describe('what each message was', () => {
  it("HAR keeps the forwarder's answer: 202 with the id, or the refusal's status and error body; the whole size of a cut body", () => {
    const refused = message({
      id: 'r1',
      routing: { option: 'none', matched: [], reason: 'too large' },
      delivered: false,
      rawBody: text('{"a'),
      size: 300_000,
      rejected: { status: 413, error: 'payload_too_large', reason: 'too large', bodyTruncated: true },
    });
    const unknownSize = message({
      id: 'r2',
      rawBody: text('x'),
      rejected: { status: 413, error: 'payload_too_large', reason: 'too large', bodyTruncated: true },
    });
    const har = JSON.parse(toHar([message(), refused, unknownSize], creator, urlOf)) as {
      log: { entries: { request: { bodySize: number }; response: Record<string, unknown>; _hubdesk: Record<string, unknown> }[] };
    };
    const [accepted, tooLarge, unknown] = har.log.entries;
    expect(accepted!.response).toMatchObject({ status: 202, statusText: 'Accepted', content: { mimeType: 'application/json', text: '{"id":"m1"}' } });
    expect(tooLarge!.response).toMatchObject({
      status: 413,
      statusText: 'payload_too_large',
      content: { text: '{"error":"payload_too_large","error_description":"too large"}' },
    });
    expect(tooLarge!.request.bodySize).toBe(300_000);
    expect(tooLarge!._hubdesk).toMatchObject({ rejected: refused.rejected, size: 300_000, delivered: false });
    expect(unknown!.request.bodySize).toBe(-1);
  });

  it('export → import → export gives the same file, byte for byte, refusals included (HAR and NDJSON, property)', async () => {
    await fc.assert(
      fc.asyncProperty(uniqueMessages, async (messages) => {
        for (const write of [(m: ArchivedMessage[]) => toHar(m, creator, urlOf), toNdjson]) {
          const file = write(messages);
          const read = (await readText(file)).result;
          expect(read.skippedCount).toBe(0);
          expect(read.messages.map((m) => m.rejected)).toEqual(messages.map((m) => m.rejected && expect.objectContaining(m.rejected)));
          expect(read.messages.map((m) => m.signature)).toEqual(messages.map((m) => m.signature));
          expect(write(read.messages)).toBe(file);
        }
      }),
    );
  });

  it('refuses a HAR entry whose _hubdesk fields are wrong, saying which', async () => {
    const har = JSON.parse(toHar([message(), message({ id: 'm2' }), message({ id: 'm3' })], creator, urlOf)) as {
      log: { entries: { _hubdesk: Record<string, unknown> }[] };
    };
    har.log.entries[0]!._hubdesk.routing = { option: 'sideways', matched: [] };
    har.log.entries[1]!._hubdesk.rejected = { status: 200, error: 'x', reason: 'y' };
    har.log.entries[2]!._hubdesk.size = -5;
    har.log.entries.push({
      ...har.log.entries[2]!,
      _hubdesk: { ...har.log.entries[2]!._hubdesk, id: 'm4', size: undefined, signature: { status: 'trusted' } },
    });
    const read = (await readText(JSON.stringify(har))).result;
    expect(read.messages).toEqual([]);
    expect(read.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^_hubdesk\.routing\.option: /),
      expect.stringMatching(/^_hubdesk\.rejected\.status: /),
      expect.stringMatching(/^_hubdesk\.size: /),
      expect.stringMatching(/^_hubdesk\.signature/),
    ]);
  });
});

describe('NDJSON', () => {
  it('is one message a line and imports back equal (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(arbitraryMessage, { maxLength: 8, selector: (m) => `${m.webhookId}/${m.id}` }), async (messages) => {
        const file = toNdjson(messages);
        expect(file.split('\n').filter(Boolean)).toHaveLength(messages.length);
        expect((await readText(file)).result).toMatchObject({ format: 'ndjson', messages, skippedCount: 0 });
      }),
    );
  });
});

describe('bad files', () => {
  it('skips what is wrong, with its place and reason, and keeps the rest', async () => {
    const good = JSON.stringify(message());
    const file = [
      good,
      'not json',
      JSON.stringify({ ...message({ id: 'm2' }), method: 'post me' }),
      JSON.stringify(message()),
      JSON.stringify({ ...message({ id: 'm3' }), rawBody: 'A'.repeat(400_000) }),
    ].join('\n');
    const read = (await readText(file)).result;
    expect(read.messages.map((m) => m.id)).toEqual(['m1']);
    expect(read.skippedCount).toBe(4);
    expect(read.skipped).toEqual([
      { at: 'line 2', reason: 'not JSON' },
      { at: 'line 3', reason: expect.stringMatching(/^method: /) },
      { at: 'line 4', reason: 'message m1 appears twice' },
      { at: 'line 5', reason: expect.stringMatching(/^rawBody: a body is at most 256 KiB/) },
    ]);
  });

  it('takes at most ARCHIVE_MAX_MESSAGES messages and stops at the next one, saying so', async () => {
    const exactly = (await readText(toNdjson(Array.from({ length: ARCHIVE_MAX_MESSAGES }, (_, i) => message({ id: `m${i}` }))))).result;
    expect(exactly.messages).toHaveLength(ARCHIVE_MAX_MESSAGES);
    expect(exactly.stopped).toBeUndefined();
    const file = toNdjson(Array.from({ length: ARCHIVE_MAX_MESSAGES + 5 }, (_, i) => message({ id: `m${i}` })));
    const read = (await readText(file)).result;
    expect(read.messages).toHaveLength(ARCHIVE_MAX_MESSAGES);
    expect(read.skippedCount).toBe(0);
    expect(read.stopped).toEqual({ at: `line ${ARCHIVE_MAX_MESSAGES + 1}`, reason: expect.stringMatching(/^more than 1000 messages/) });
  });

  it('a HAR entry that is not one, or whose URL does not parse, is skipped', async () => {
    const har = JSON.stringify({ log: { entries: [{ nope: true }, { startedDateTime: 'x', request: { method: 'POST', url: 'not a url', headers: [] } }] } });
    const read = (await readText(har)).result;
    expect(read.format).toBe('har');
    expect(read.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/^not a HAR entry/), 'its URL does not parse']);
  });
});
