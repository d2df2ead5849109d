/**
 * The forwarder over real sockets: routing by hub, key path and `$keys`, the tap's decisions, resume
 * after a dropped connection, authentication of the channel, heartbeats, and hostile intake requests
 * (each followed by a normal request that must still be served).
 *
 * "Not forwarded" is shown without waiting: after the request under test, a marker request that the
 * listener does match is sent; the channel keeps order, so the marker arriving first proves the other
 * one was never sent.
 *
 * The whole suite runs on both stores: in memory, and on a real Redis (the caps, the resume, the taps and
 * the refusals behave the same).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  REFUSED_BODY_KEPT_BYTES,
  CLOSE_BAD_SECRET,
  CLOSE_CREDENTIAL_KIND,
  CLOSE_CREDENTIAL_REVOKED,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_REPLACED,
  CLOSE_TOO_MANY_LISTENERS,
  CLOSE_UNKNOWN_WEBHOOK,
  LISTEN_PATH,
} from '../../../common/webhook-protocol';
import { LISTENER_NEEDS_SECRET, TAP_NEEDS_CREDENTIAL } from '../../../services/forwarder/listener-channel';
import { sequenceOf } from '../../../services/forwarder/message-ids';
import type { RunningForwarder } from '../../../services/forwarder/forwarder';
import {
  MAX_TAP_CREDENTIALS,
  type TapCredential,
  TapCredentialLimitError,
  type WebhookRecord,
  type WebhookStore,
} from '../../../services/forwarder/webhook-store';
import { forwarderStores, type ForwarderStores, STORE_KINDS } from '../../support/forwarder-stores';
import { rawExchange, writeAsync } from '../../support/raw-http';
import { ChannelClosed, newTapCredential, TestListener, type TestListenerOptions } from '../../support/webhook-listener';
import { WebSocket } from 'ws';

/** Small enough for the size tests to reach quickly; the time limits stay the service's defaults. */
const SMALL_LIMITS = { bodyBytes: 64 * 1024, jsonDepth: 64, headers: 100 };

describe.each(STORE_KINDS)('the forwarder on the %s store', (kind) => {
  let stores: ForwarderStores;
  let store: WebhookStore;
  let forwarder: RunningForwarder;
  let webhook: WebhookRecord;
  const open: TestListener[] = [];

  beforeAll(async () => {
    stores = await forwarderStores(kind);
    store = stores.store;
    // The default time limits (seconds): the slow-client test below starts an instance with short ones, so
    // no other test's request can run into them on a busy machine.
    forwarder = await stores.start({ limits: SMALL_LIMITS, heartbeatMs: 60_000 });
  });
  afterAll(() => stores.close());
  afterEach(async () => {
    await Promise.all(open.splice(0).map((listener) => listener.close()));
  });

  /** A fresh webhook per test, so registrations never leak between tests. */
  async function newWebhook(keyPath: string | null = null): Promise<WebhookRecord> {
    webhook = await store.create({ name: 'test', ownerId: 'owner-1' });
    return keyPath === null ? webhook : await store.setKeyPath(webhook.id, keyPath);
  }

  async function listen(options: Omit<TestListenerOptions, 'forwarderUrl' | 'webhookId' | 'secret'> & Partial<TestListenerOptions>): Promise<TestListener> {
    const listener = await TestListener.connect({ forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, ...options });
    open.push(listener);
    return listener;
  }

  async function post(body: unknown, query = '', headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${forwarder.url}/webhook/${webhook.id}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  async function postId(body: unknown, query = ''): Promise<string> {
    const { status, json } = await post(body, query);
    expect(status).toBe(202);
    return (json as { id: string }).id;
  }

  /** The service answers a normal request after whatever came before. */
  async function expectServing(): Promise<void> {
    const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'serving-tap' });
    const id = await postId({ ok: true });
    expect((await tap.nextTap()).id).toBe(id);
  }

  describe('intake', () => {
    it('answers 202 with the event id whether or not anything matched, and 404 for an unknown webhook', async () => {
      await newWebhook();
      const { status, json } = await post({ hello: 'world' });
      expect(status).toBe(202);
      expect(json).toEqual({ id: expect.stringMatching(/^evt_[0-9a-z]{9}_[0-9a-z]{10}$/) });
      const unknown = await fetch(`${forwarder.url}/webhook/wh_nope`, { method: 'POST', body: '{}' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: 'not_found' });
    });

    it('refuses another method (405, Allow: POST) and another path (404) in the JSON error shape, without reading a body', async () => {
      await newWebhook();
      const get = await fetch(`${forwarder.url}/webhook/${webhook.id}`);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      expect(await get.json()).toMatchObject({ error: 'method_not_allowed' });
      for (const path of ['/', '/webhook/', `/webhook/${webhook.id}/more`, '/webhook/%E0%A4%A']) {
        const other = await fetch(`${forwarder.url}${path}`, { method: 'POST', body: '{}' });
        expect(other.status, path).toBe(404);
        expect(other.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(await other.json()).toMatchObject({ error: 'not_found' });
      }
      await expectServing();
    });

    it('delivers headers (lower-cased, no cookie or hop-by-hop), first query values, the parsed body and the raw bytes', async () => {
      await newWebhook();
      const listener = await listen({ listenerId: 'l1', hubId: 'hub-1' });
      const raw = '{"temperature": 21.5, "room": "kitchen"}';
      await post(raw, '?hub=hub-1&x=1&x=2', { 'X-Signature': 'abc', cookie: 'session=secret', 'proxy-authorization': 'Basic eA==' });
      const message = await listener.nextMessage();
      expect(message.body).toEqual({ temperature: 21.5, room: 'kitchen' });
      expect(message.query).toEqual({ hub: 'hub-1', x: '1' });
      expect(message.headers['x-signature']).toBe('abc');
      expect(message.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(message.headers).not.toHaveProperty('cookie');
      expect(message.headers).not.toHaveProperty('proxy-authorization');
      expect(Buffer.from(message.rawBody, 'base64').toString('utf8')).toBe(raw);
      expect(Date.parse(message.receivedAt)).not.toBeNaN();
    });

    it('passes on every value of a header sent several times, in order, joined with ", " (User-Agent too, which Node keeps once)', async () => {
      await newWebhook();
      const listener = await listen({ listenerId: 'l1', hubId: 'hub-1' });
      const lines = [
        'User-Agent: first-agent',
        'X-Note: a',
        'user-agent: second-agent',
        'X-Note: b',
        'X-Note: c',
        'Content-Type: text/plain',
        'Content-Length: 2',
        'Connection: close',
      ];
      const answer = await rawExchange(
        forwarder.url,
        (socket) => void socket.write([`POST /webhook/${webhook.id}?hub=hub-1 HTTP/1.1`, 'Host: 127.0.0.1', ...lines, '', 'hi'].join('\r\n')),
      );
      expect(answer.status).toBe(202);
      const message = await listener.nextMessage();
      expect(message.headers['user-agent']).toBe('first-agent, second-agent');
      expect(message.headers['x-note']).toBe('a, b, c');
    });

    it('registering names the webhook as its owner did, to a listener and to a tap', async () => {
      webhook = await store.create({ name: '  Lamp events  ', ownerId: 'owner-1' });
      expect((await listen({ listenerId: 'named', hubId: 'h' })).webhookName).toBe('Lamp events');
      expect((await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'named-tap' })).webhookName).toBe('Lamp events');
    });

    it('parses form bodies and keeps other content as text', async () => {
      await newWebhook();
      const listener = await listen({ listenerId: 'l1', hubId: 'h' });
      await fetch(`${forwarder.url}/webhook/${webhook.id}?hub=h`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=1&b=two&a=3',
      });
      expect((await listener.nextMessage()).body).toEqual({ a: '1', b: 'two' });
      await fetch(`${forwarder.url}/webhook/${webhook.id}?hub=h`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'plain words' });
      expect((await listener.nextMessage()).body).toBe('plain words');
    });
  });

  describe('routing', () => {
    it('?hub= delivers to exactly the listeners of that hub', async () => {
      await newWebhook();
      const [a1, b, a2] = [
        await listen({ listenerId: 'a1', hubId: 'hub-a' }),
        await listen({ listenerId: 'b', hubId: 'hub-b' }),
        await listen({ listenerId: 'a2', hubId: 'hub-a' }),
      ];
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });
      const id = await postId({ n: 1 }, '?hub=hub-a');
      expect((await a1.nextMessage()).id).toBe(id);
      expect((await a2.nextMessage()).id).toBe(id);
      const decision = (await tap.nextTap()).routing;
      expect(decision.option).toBe('query');
      expect(decision.matched).toEqual(
        expect.arrayContaining([
          { listenerId: 'a1', hubId: 'hub-a' },
          { listenerId: 'a2', hubId: 'hub-a' },
        ]),
      );
      expect(decision.matched).toHaveLength(2);
      const marker = await postId({ n: 2 }, '?hub=hub-b');
      expect((await b.nextMessage()).id).toBe(marker);
    });

    it('the key path delivers to exactly the listeners whose $key or $keys holds the value', async () => {
      await newWebhook('body.device.id');
      const one = await listen({ listenerId: 'one', data: { $key: 'dev-1' } });
      const many = await listen({ listenerId: 'many', data: { $keys: ['dev-2', 'dev-3'] } });
      const also = await listen({ listenerId: 'also', data: { $key: 'dev-3' } });
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });

      const toThree = await postId({ device: { id: 'dev-3' } });
      expect((await many.nextMessage()).id).toBe(toThree);
      expect((await also.nextMessage()).id).toBe(toThree);
      const toTwo = await postId({ device: { id: 'dev-2' } });
      expect((await many.nextMessage()).id).toBe(toTwo);
      const toOne = await postId({ device: { id: 'dev-1' } });
      expect((await one.nextMessage()).id).toBe(toOne);

      const decisions = [await tap.nextTap(), await tap.nextTap(), await tap.nextTap()].map((event) => event.routing);
      expect(decisions[0]).toMatchObject({ option: 'key-path', keyPath: 'body.device.id', value: 'dev-3' });
      expect(decisions[0]!.matched.map((m) => m.listenerId).sort()).toEqual(['also', 'many']);
      expect(decisions[1]!.matched).toEqual([{ listenerId: 'many' }]);
      expect(decisions[2]!.matched).toEqual([{ listenerId: 'one' }]);
      // Neither "one" nor "also" got anything it did not match.
      expect(one.messages.all).toHaveLength(1);
      const marker = await postId({ device: { id: 'dev-3' } });
      expect((await also.nextMessage()).id).toBe(marker);
      expect(also.ids()).toEqual([toThree, marker]);
    });

    it('compares numbers and strings by canonical form: $key 5 matches 5 and "5", $key true matches "true"', async () => {
      await newWebhook('query.n');
      const five = await listen({ listenerId: 'five', data: { $key: 5 } });
      const yes = await listen({ listenerId: 'yes', data: { $keys: [true] } });
      const viaQuery = await postId({}, '?n=5'); // the query gives the string "5"
      expect((await five.nextMessage()).id).toBe(viaQuery);
      await store.setKeyPath(webhook.id, 'body.n');
      const viaNumber = await postId({ n: 5 });
      expect((await five.nextMessage()).id).toBe(viaNumber);
      const viaBoolean = await postId({ n: 'true' });
      expect((await yes.nextMessage()).id).toBe(viaBoolean);
      expect(five.messages.all).toHaveLength(2);
    });

    it('a request matching nothing is not forwarded, and the tap says why', async () => {
      await newWebhook('body.device.id');
      const listener = await listen({ listenerId: 'l', hubId: 'hub-x', data: { $key: 'dev-1' } });
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });

      const noMatch = await postId({ device: { id: 42 } });
      const nothing = await postId({ other: true });
      const noHub = await postId({ device: { id: 'dev-1' } }, '?hub=hub-y');
      const events = [await tap.nextTap(), await tap.nextTap(), await tap.nextTap()];
      expect(events.map((event) => event.id)).toEqual([noMatch, nothing, noHub]);
      expect(events[0]!.routing).toEqual({ option: 'key-path', keyPath: 'body.device.id', value: 42, matched: [], reason: 'no registration has $key "42"' });
      expect(events[1]!.routing).toMatchObject({ option: 'key-path', matched: [], reason: expect.stringContaining('resolved to nothing') });
      expect(events[2]!.routing).toMatchObject({ option: 'query', matched: [], reason: 'no listener registered for hub "hub-y"' });
      expect(events[0]!.method).toBe('POST');
      expect(events[0]!.size).toBe(JSON.stringify({ device: { id: 42 } }).length);

      const marker = await postId({ device: { id: 'dev-1' } });
      expect((await listener.nextMessage()).id).toBe(marker);
    });

    it('a webhook with no key path and no legacy function forwards only ?hub= requests', async () => {
      await newWebhook();
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });
      await postId({ a: 1 });
      expect((await tap.nextTap()).routing).toMatchObject({
        option: 'none',
        matched: [],
        reason: expect.stringContaining('neither a key path nor a legacy function'),
      });
    });
  });

  describe('listener channel', () => {
    it('after a dropped connection, resumeAfter delivers exactly what was missed, in order, once', async () => {
      await newWebhook('body.to');
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });
      const first = await listen({ listenerId: 'hub-listener', data: { $key: 'me' } });
      const before = await postId({ to: 'me', n: 0 });
      expect((await first.nextMessage()).id).toBe(before);
      await tap.nextTap();

      first.socket.terminate(); // no close handshake: the server learns of it from the socket
      const missed = [await postId({ to: 'me', n: 1 }), await postId({ to: 'me', n: 2 }), await postId({ to: 'me', n: 3 })];
      for (const id of missed) {
        const event = await tap.nextTap();
        expect(event.id).toBe(id);
        expect(event.routing.matched).toEqual([{ listenerId: 'hub-listener' }]); // still registered while away
      }

      const second = await listen({ listenerId: 'hub-listener', data: { $key: 'me' }, resumeAfter: before });
      expect(second.resumed).toBe(3);
      const resumed = [await second.nextMessage(), await second.nextMessage(), await second.nextMessage()];
      expect(resumed.map((message) => message.id)).toEqual(missed);
      expect(resumed.map((message) => (message.body as { n: number }).n)).toEqual([1, 2, 3]);
      const live = await postId({ to: 'me', n: 4 });
      expect((await second.nextMessage()).id).toBe(live);
      expect(second.ids()).toEqual([...missed, live]);
    });

    it('intakes posted together on many connections reach the listener each once, in the order of their ids', async () => {
      // On Redis a turn's intakes are stored by one script and their frames written as its reply is handled
      // (redis-backend.ts), several scripts in flight at once here: the frames keep the shared sequence's order.
      await newWebhook('body.to');
      const listener = await listen({ listenerId: 'ordered', data: { $key: 'me' } });
      const ids = await Promise.all(Array.from({ length: 60 }, (_, n) => postId({ to: 'me', n })));
      const received = await Promise.all(ids.map(() => listener.nextMessage()));
      const bySequence = [...ids].sort((a, b) => sequenceOf(a)! - sequenceOf(b)!);
      expect(received.map((message) => message.id)).toEqual(bySequence);
    });

    it('re-sends unacknowledged messages on reconnect, and a newer connection replaces the older one', async () => {
      await newWebhook();
      const first = await listen({ listenerId: 'l', hubId: 'h', autoAck: false });
      const a = await postId({ n: 1 }, '?hub=h');
      const b = await postId({ n: 2 }, '?hub=h');
      expect([(await first.nextMessage()).id, (await first.nextMessage()).id]).toEqual([a, b]);
      first.ack(a);
      const second = await listen({ listenerId: 'l', hubId: 'h', resumeAfter: a });
      expect((await first.closed).code).toBe(CLOSE_REPLACED);
      expect((await second.nextMessage()).id).toBe(b);
      expect(second.resumed).toBe(1);
    });

    /** Posts `bodies` to a forwarder while the listener is away; the reconnected listener and the ids posted. */
    async function missedWhileAway(small: RunningForwarder, bodies: string[]): Promise<{ second: TestListener; ids: string[] }> {
      await newWebhook();
      const options = { forwarderUrl: small.url, webhookId: webhook.id, secret: webhook.secret, listenerId: 'l', hubId: 'h' };
      const first = await TestListener.connect(options);
      first.socket.terminate();
      await first.closed;
      const ids: string[] = [];
      for (const body of bodies) {
        const response = await fetch(`${small.url}/webhook/${webhook.id}?hub=h`, { method: 'POST', body });
        ids.push(((await response.json()) as { id: string }).id);
      }
      const second = await TestListener.connect(options);
      open.push(second);
      return { second, ids };
    }

    it('keeps at most resumeBufferSize unacknowledged messages per listener, dropping the oldest', async () => {
      const small = await stores.start({ resumeBufferSize: 2 });
      try {
        const { second, ids } = await missedWhileAway(small, ['0', '1', '2', '3']);
        expect(second.resumed).toBe(2);
        expect([(await second.nextMessage()).id, (await second.nextMessage()).id]).toEqual(ids.slice(2));
      } finally {
        await small.close();
      }
    });

    it('tells a listener that asked which messages its full buffer dropped: on its return, and live, before the messages after them', async () => {
      const small = await stores.start({ resumeBufferSize: 2 });
      try {
        await newWebhook();
        const options = { forwarderUrl: small.url, webhookId: webhook.id, secret: webhook.secret, listenerId: 'l', hubId: 'h', dropNotices: true };
        const first = await TestListener.connect(options);
        first.socket.terminate();
        await first.closed;
        const post = async (n: number) => {
          const response = await fetch(`${small.url}/webhook/${webhook.id}?hub=h`, { method: 'POST', body: String(n) });
          return ((await response.json()) as { id: string }).id;
        };
        const away = [await post(0), await post(1), await post(2), await post(3)];
        const back = await TestListener.connect({ ...options, autoAck: false });
        open.push(back);
        expect(await back.notices.next()).toEqual({ type: 'dropped', through: away[1], count: 2 });
        await back.nextMessage();
        await back.nextMessage();
        expect(back.arrivals).toEqual([`dropped ${away[1]}`, `message ${away[2]}`, `message ${away[3]}`]);
        // Connected, not acknowledging: the next two push out the two it has not confirmed.
        const live = [await post(4), await post(5)];
        expect(await back.notices.next()).toEqual({ type: 'dropped', through: away[2], count: 3 });
        expect(await back.notices.next()).toEqual({ type: 'dropped', through: away[3], count: 4 });
        await back.nextMessage();
        await back.nextMessage();
        expect(back.ids()).toEqual([...away.slice(2), ...live]);
        expect(back.arrivals.indexOf(`dropped ${away[2]}`)).toBeLessThan(back.arrivals.indexOf(`message ${live[0]}`));
        // A reconnect that says it has everything up to the newest drop is told nothing again.
        const settled = await TestListener.connect({ ...options, resumeAfter: live[0] });
        open.push(settled);
        expect((await settled.nextMessage()).id).toBe(live[1]);
        expect(settled.notices.all).toEqual([]);
      } finally {
        await Promise.all(open.splice(0).map((listener) => listener.close()));
        await small.close();
      }
    });

    it.runIf(kind === 'redis')('tells a listener of drops made by an intake on another instance', async () => {
      const [here, there] = [await stores.start({ resumeBufferSize: 2 }), await stores.start({ resumeBufferSize: 2 })];
      try {
        await newWebhook();
        const listener = await TestListener.connect({
          forwarderUrl: here.url,
          webhookId: webhook.id,
          secret: webhook.secret,
          listenerId: 'l',
          hubId: 'h',
          dropNotices: true,
          autoAck: false,
        });
        open.push(listener);
        const ids: string[] = [];
        for (const n of [0, 1, 2]) {
          const response = await fetch(`${there.url}/webhook/${webhook.id}?hub=h`, { method: 'POST', body: String(n) });
          ids.push(((await response.json()) as { id: string }).id);
        }
        expect(await listener.notices.next()).toEqual({ type: 'dropped', through: ids[0], count: 1 });
        await Promise.all(ids.map(() => listener.nextMessage()));
        expect(listener.ids()).toEqual(ids);
      } finally {
        await Promise.all(open.splice(0).map((listener) => listener.close()));
        await Promise.all([here.close(), there.close()]);
      }
    });

    it('never sends a dropped notice to a listener that did not ask for one', async () => {
      const small = await stores.start({ resumeBufferSize: 1 });
      try {
        const { second, ids } = await missedWhileAway(small, ['0', '1', '2']);
        expect((await second.nextMessage()).id).toBe(ids[2]);
        const marker = await fetch(`${small.url}/webhook/${webhook.id}?hub=h`, { method: 'POST', body: '3' });
        expect(marker.status).toBe(202);
        await second.nextMessage();
        expect(second.arrivals.filter((arrival) => arrival.startsWith('dropped'))).toEqual([]);
      } finally {
        await small.close();
      }
    });

    it('keeps at most resumeBufferBytes bytes of unacknowledged frames per listener, dropping the oldest', async () => {
      // Each 10,000-character body makes a frame of over 23,000 characters (text and base64 raw bytes): 46,000 bytes as counted in
      // memory (memory-size.ts), 23,000 as Redis holds them (UTF-8). Two fit in the cap, three do not.
      const small = await stores.start({ resumeBufferBytes: kind === 'memory' ? 100_000 : 50_000 });
      try {
        const { second, ids } = await missedWhileAway(
          small,
          ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(10_000)),
        );
        expect(second.resumed).toBe(2);
        const resent = [await second.nextMessage(), await second.nextMessage()];
        expect(resent.map((message) => message.id)).toEqual(ids.slice(2));
        expect(resent.map((message) => (message.body as string)[0])).toEqual(['c', 'd']);
      } finally {
        await small.close();
      }
    });

    it('keeps all buffers within resumeBudgetBytes, evicting the oldest messages of the largest', async () => {
      // Frames of over 23,000 characters: 46,000 bytes each as counted in memory, 23,000 in Redis. The budget
      // holds four: the small listener's one and the three newest of the large one's eight. A store of its own:
      // the budget is the whole store's, and the other tests leave listeners away.
      const own = await forwarderStores(kind);
      const small = await own.start({ resumeBudgetBytes: kind === 'memory' ? 200_000 : 100_000 });
      try {
        webhook = await own.store.create({ name: 'budget', ownerId: 'owner-1' });
        const connect = (listenerId: string) =>
          TestListener.connect({ forwarderUrl: small.url, webhookId: webhook.id, secret: webhook.secret, listenerId, hubId: listenerId });
        for (const listenerId of ['quiet', 'busy']) {
          const first = await connect(listenerId);
          first.socket.terminate();
          await first.closed;
        }
        const post = async (hub: string, letter: string) => {
          const response = await fetch(`${small.url}/webhook/${webhook.id}?hub=${hub}`, { method: 'POST', body: letter.repeat(10_000) });
          return ((await response.json()) as { id: string }).id;
        };
        const quietId = await post('quiet', 'q');
        const busyIds: string[] = [];
        for (const letter of 'abcdefgh') busyIds.push(await post('busy', letter));
        const quiet = await connect('quiet');
        const busy = await TestListener.connect({
          forwarderUrl: small.url,
          webhookId: webhook.id,
          secret: webhook.secret,
          listenerId: 'busy',
          hubId: 'busy',
          dropNotices: true,
        });
        open.push(quiet, busy);
        expect(quiet.resumed).toBe(1);
        expect((await quiet.nextMessage()).id).toBe(quietId);
        expect(busy.resumed).toBe(3);
        expect(await busy.notices.next()).toEqual({ type: 'dropped', through: busyIds[4], count: 5 });
        expect([(await busy.nextMessage()).id, (await busy.nextMessage()).id, (await busy.nextMessage()).id]).toEqual(busyIds.slice(5));
      } finally {
        await Promise.all(open.splice(0).map((listener) => listener.close()));
        await own.close();
      }
    });

    it('refuses a listener over the per-webhook and per-owner caps with a close reason the app can show; a reconnect is not a new one', async () => {
      const capped = await stores.start({ maxListenersPerWebhook: 2, maxListenersPerOwner: 3 });
      try {
        const [first, second] = [await store.create({ name: 'one', ownerId: 'alice' }), await store.create({ name: 'two', ownerId: 'alice' })];
        const connect = (hook: WebhookRecord, listenerId: string) =>
          TestListener.connect({ forwarderUrl: capped.url, webhookId: hook.id, secret: hook.secret, listenerId });
        open.push(await connect(first, 'l1'), await connect(first, 'l2'));
        await expect(connect(first, 'l3')).rejects.toEqual(new ChannelClosed(CLOSE_TOO_MANY_LISTENERS, 'this webhook already has 2 listeners; the limit is 2'));
        open.push(await connect(second, 'l1'));
        await expect(connect(second, 'l2')).rejects.toEqual(
          new ChannelClosed(CLOSE_TOO_MANY_LISTENERS, "this webhook's owner already has 3 listeners; the limit is 3"),
        );
        // A reconnect of a listener the forwarder already holds is not a new one, and does not make room either.
        open.push(await connect(first, 'l1'));
        await expect(connect(second, 'l2')).rejects.toBeInstanceOf(ChannelClosed);
      } finally {
        await capped.close();
      }
    });

    it('refuses a wrong secret, an unknown webhook and a malformed registration', async () => {
      await newWebhook();
      const refused = (options: Partial<TestListenerOptions>) =>
        listen({ listenerId: 'x', ...options }).then(
          () => undefined,
          (error: unknown) => (error instanceof ChannelClosed ? error.code : error),
        );
      expect(await refused({ secret: 'not-the-secret' })).toBe(CLOSE_BAD_SECRET);
      expect(await refused({ webhookId: 'wh_unknown' })).toBe(CLOSE_UNKNOWN_WEBHOOK);
      expect(await refused({ data: { $key: { nested: true } } })).toBe(CLOSE_PROTOCOL_ERROR);

      const socket = new WebSocket(forwarder.url.replace('http', 'ws') + LISTEN_PATH);
      const code = await new Promise<number>((resolve) => {
        socket.once('message', () => socket.send('{"type":"register","__proto__":{"x":1}}'));
        socket.once('close', resolve);
      });
      expect(code).toBe(CLOSE_PROTOCOL_ERROR);
      await expectServing();
    });

    it('drops a peer that stops answering heartbeats, keeps one that answers, and closes a connection that never registers', async () => {
      const fast = await stores.start({ heartbeatMs: 40, registerTimeoutMs: 40 });
      try {
        await newWebhook();
        const options = { forwarderUrl: fast.url, webhookId: webhook.id, secret: webhook.secret };
        const healthy = await TestListener.connect({ ...options, listenerId: 'healthy', hubId: 'h' });
        open.push(healthy);
        const dead = await TestListener.connect({ ...options, listenerId: 'dead', hubId: 'h', autoPong: false });
        const closed = await dead.closed;
        expect(closed.code).toBe(1006); // terminated, no close frame
        expect(healthy.socket.readyState).toBe(WebSocket.OPEN);

        const silent = new WebSocket(fast.url.replace('http', 'ws') + LISTEN_PATH);
        expect(await new Promise<number>((resolve) => silent.once('close', resolve))).toBe(CLOSE_PROTOCOL_ERROR);
      } finally {
        await fast.close();
      }
    });
  });

  /** The frames of `type` a test client receives from now on, as sent (before any schema). */
  function framesOf(listener: TestListener, type: 'message' | 'tap'): Record<string, unknown>[] {
    const frames: Record<string, unknown>[] = [];
    listener.socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { type: string };
      if (frame.type === type) frames.push(frame as Record<string, unknown>);
    });
    return frames;
  }

  describe('one body per frame (docs/benchmarks.md, "Inspector: bytes per intake")', () => {
    it('a rawBodyOnly listener gets the raw body alone; a listener that did not ask still gets the parsed body (§2.7)', async () => {
      await newWebhook();
      const raw = await listen({ listenerId: 'app', hubId: 'h', rawBodyOnly: true });
      const spec = await listen({ listenerId: 'hub', hubId: 'h' });
      const rawFrames = framesOf(raw, 'message');
      const specFrames = framesOf(spec, 'message');
      const body = '{"device":{"id":"lamp-1"},"on":true}';
      const id = await postId(body, '?hub=h');

      const [rawMessage, specMessage] = [await raw.nextMessage(), await spec.nextMessage()];
      expect(rawMessage.id).toBe(id);
      expect(rawFrames[0]!.message).not.toHaveProperty('body');
      expect(Buffer.from(rawMessage.rawBody, 'base64').toString('utf8')).toBe(body);
      expect(rawMessage.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(specMessage.body).toEqual({ device: { id: 'lamp-1' }, on: true });
      expect(specFrames[0]!.message).toMatchObject({ id, body: { device: { id: 'lamp-1' }, on: true }, rawBody: rawMessage.rawBody });
    });

    it('a rawBodyOnly listener resumes with raw messages too', async () => {
      await newWebhook();
      const first = await listen({ listenerId: 'app', hubId: 'h', rawBodyOnly: true, autoAck: false });
      await first.close();
      const missed = await postId({ n: 1 }, '?hub=h');
      const again = await listen({ listenerId: 'app', hubId: 'h', rawBodyOnly: true });
      expect(again.resumed).toBe(1);
      const message = await again.nextMessage();
      expect(message.id).toBe(missed);
      expect(message).not.toHaveProperty('body');
    });

    it("a tap leaves out the request of an intake routed to one of its ownListenerIds, and carries it (raw body only) for the others'", async () => {
      await newWebhook('body.device.id');
      const mine = await listen({ listenerId: 'app-listener', data: { $key: 'lamp-1' }, rawBodyOnly: true });
      await listen({ listenerId: 'other-hub', data: { $key: 'kettle-9' } });
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'app-tap', ownListenerIds: ['app-listener'] });
      const frames = framesOf(tap, 'tap');

      const routedHere = await postId({ device: { id: 'lamp-1' }, secret: 'only-once' });
      const event = await tap.nextTap();
      expect(event).toMatchObject({ id: routedHere, method: 'POST', routing: { value: 'lamp-1', matched: [{ listenerId: 'app-listener' }] } });
      expect(event).not.toHaveProperty('request');
      expect(JSON.stringify(frames[0])).not.toContain('only-once');
      expect(JSON.stringify(frames[0])).not.toContain(Buffer.from('only-once').toString('base64').slice(0, 8));
      expect((await mine.nextMessage()).id).toBe(routedHere);

      const elsewhere = ((await post({ device: { id: 'kettle-9' } }, '', { 'x-note': 'other' })).json as { id: string }).id;
      const other = await tap.nextTap();
      expect(other).toMatchObject({
        id: elsewhere,
        routing: { matched: [{ listenerId: 'other-hub' }] },
        request: { headers: { 'x-note': 'other' }, query: {} },
      });
      expect(Buffer.from(other.request!.rawBody, 'base64').toString('utf8')).toBe(JSON.stringify({ device: { id: 'kettle-9' } }));
      expect(frames[1]!.event).not.toHaveProperty('body');
      expect((frames[1]!.event as { request: object }).request).not.toHaveProperty('body');

      // A tap that names no own listeners sees every request, as before.
      const plain = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'plain-tap' });
      await postId({ device: { id: 'lamp-1' } });
      expect((await plain.nextTap()).request).toBeDefined();
    });
  });

  describe("the owner's tap credential", () => {
    /** How the server closed a connection that never registered (or the error when it did). */
    const refusal = (options: Partial<TestListenerOptions>) =>
      listen({ listenerId: 'x', ...options }).then(
        () => new Error('registered'),
        (error: unknown) => error,
      );

    it('the webhook secret does not open a tap: refused with a reason that points to the portal', async () => {
      await newWebhook();
      const withoutCredential = await refusal({ role: 'tap' });
      expect(withoutCredential).toEqual(new ChannelClosed(CLOSE_CREDENTIAL_KIND, TAP_NEEDS_CREDENTIAL));
      expect(TAP_NEEDS_CREDENTIAL).toContain('developer portal');
      // The webhook secret presented for a real credential id proves nothing either.
      const { credentialId } = await newTapCredential(store, webhook.id);
      expect(await refusal({ role: 'tap', credentialId })).toMatchObject({ code: CLOSE_BAD_SECRET });
      expect(await refusal({ role: 'tap', credentialId: 'tc_unknown', secret: webhook.secret })).toMatchObject({ code: CLOSE_BAD_SECRET });
      await expectServing();
    });

    it('a tap credential does not open a listener', async () => {
      await newWebhook();
      const credential = await newTapCredential(store, webhook.id);
      expect(await refusal({ credentialId: credential.credentialId, secret: credential.secret })).toEqual(
        new ChannelClosed(CLOSE_CREDENTIAL_KIND, LISTENER_NEEDS_SECRET),
      );
      // Its secret without the id is just a wrong webhook secret.
      expect(await refusal({ secret: credential.secret })).toMatchObject({ code: CLOSE_BAD_SECRET });
      await expectServing();
    });

    it('a tap with a valid credential sees every intake with its routing decision, other hubs and Authorization included', async () => {
      await newWebhook('body.device.id');
      const other = await listen({ listenerId: 'other-hub', data: { $key: 'dev-9' } });
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'owner-tap' });
      const { status, json } = await post({ device: { id: 'dev-9' } }, '', { authorization: 'Bearer for-the-other-hub' });
      expect(status).toBe(202);
      const event = await tap.nextTap();
      expect(event.id).toBe((json as { id: string }).id);
      expect(event.request!.headers.authorization).toBe('Bearer for-the-other-hub');
      expect(event.routing).toEqual({ option: 'key-path', keyPath: 'body.device.id', value: 'dev-9', matched: [{ listenerId: 'other-hub' }] });
      expect((await other.nextMessage()).id).toBe(event.id);
    });

    it("revoking a credential closes its taps at once, leaves the others', and it cannot open a tap again", async () => {
      await newWebhook();
      const revoked = await newTapCredential(store, webhook.id);
      const kept = await newTapCredential(store, webhook.id);
      const doomed = await listen({ ...revoked, listenerId: 'doomed' });
      const survivor = await listen({ ...kept, listenerId: 'survivor' });

      expect(await store.revokeTapCredential(webhook.id, revoked.credentialId!)).toBe(true);
      expect(await doomed.closed).toMatchObject({ code: CLOSE_CREDENTIAL_REVOKED });
      const after = await postId({ n: 1 });
      expect((await survivor.nextTap()).id).toBe(after);
      expect(doomed.taps.all).toHaveLength(0);

      expect(await refusal({ ...revoked, listenerId: 'doomed' })).toMatchObject({ code: CLOSE_BAD_SECRET });
      expect(await store.revokeTapCredential(webhook.id, revoked.credentialId!)).toBe(false);
      expect(store.tapCredentials(webhook.id).map((credential) => credential.id)).toEqual([kept.credentialId]);
    });

    it(`keeps at most ${MAX_TAP_CREDENTIALS} per webhook and never lists a secret`, async () => {
      await newWebhook();
      const made: TapCredential[] = [];
      for (let i = 0; i < MAX_TAP_CREDENTIALS; i++) made.push(await store.createTapCredential(webhook.id));
      await expect(store.createTapCredential(webhook.id)).rejects.toThrow(TapCredentialLimitError);
      const listed = store.tapCredentials(webhook.id);
      expect(listed).toEqual(made.map(({ id, createdAt }) => ({ id, createdAt })));
      for (const credential of made) expect(JSON.stringify(listed)).not.toContain(credential.secret);
      expect(made.every((credential) => /^tc_[A-Za-z0-9_-]{16}$/.test(credential.id))).toBe(true);
    });
  });

  describe('bad input (the service keeps serving)', () => {
    const head = (path: string, lines: string[]) => [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1`, ...lines, '', ''].join('\r\n');

    it('413 for a declared Content-Length over the limit, without reading the body', async () => {
      await newWebhook();
      const answer = await rawExchange(
        forwarder.url,
        (socket) => void socket.write(head(`/webhook/${webhook.id}`, ['Content-Type: application/json', 'Content-Length: 10000000'])),
      );
      expect(answer.status).toBe(413);
      expect(answer.text).toContain('payload_too_large');
      await expectServing();
    });

    it("each refusal of a known webhook reaches its owner's tap with status and reason, and no listener; an unknown webhook's reaches none", async () => {
      await newWebhook('body.device.id');
      const listener = await listen({ listenerId: 'l', data: { $key: 'lamp-1' } });
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });

      const tooLarge = await rawExchange(
        forwarder.url,
        (socket) => void socket.write(head(`/webhook/${webhook.id}?hub=h`, ['Content-Type: application/json', 'X-Sender: big', 'Content-Length: 10000000'])),
      );
      expect(tooLarge.status).toBe(413);
      const notJson = await post('{"device": ', '', { 'content-type': 'application/json' });
      const viaGet = await fetch(`${forwarder.url}/webhook/${webhook.id}`);
      expect(viaGet.status).toBe(405);
      await fetch(`${forwarder.url}/webhook/no-such-webhook`, { method: 'POST', body: '{}' });

      const [large, invalid, get] = [await tap.nextTap(), await tap.nextTap(), await tap.nextTap()];
      expect(large).toMatchObject({
        method: 'POST',
        size: 10000000,
        rejected: { status: 413, error: 'payload_too_large', reason: expect.stringContaining('larger than') },
        routing: { option: 'none', matched: [], reason: expect.stringContaining('larger than') },
        request: { headers: { 'x-sender': 'big' }, query: { hub: 'h' }, rawBody: '' },
      });
      expect(large.rejected?.bodyTruncated).toBe(true);
      expect(large.id).toMatch(/^evt_/);
      expect(invalid.rejected).toMatchObject({ status: 400 });
      expect(notJson.status).toBe(400);
      expect(get).toMatchObject({ method: 'GET', rejected: { status: 405 } });

      // The next accepted intake is the next tap event: the unknown webhook's 404 reached no tap, and no listener got a refusal.
      const accepted = await postId({ device: { id: 'lamp-1' } });
      expect((await tap.nextTap()).id).toBe(accepted);
      expect((await listener.nextMessage()).id).toBe(accepted);
      expect(listener.messages.all).toHaveLength(1);
    });

    it("a refused body's first bytes reach the tap: a 400 with where its JSON stops, a 413 with its first 64 KiB and its size", async () => {
      await newWebhook('body.device.id');
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });

      const broken = '{"device": {"id": "lämp-1",\n  "on" true}}';
      expect((await post(broken)).status).toBe(400);
      const invalid = await tap.nextTap();
      expect(Buffer.from(invalid.request!.rawBody, 'base64').toString('utf8')).toBe(broken);
      expect(invalid.size).toBe(Buffer.byteLength(broken));
      // It stops at `true` (a colon was expected), line 2, column 8; the ä before it takes two bytes.
      expect(invalid.rejected).toMatchObject({
        status: 400,
        jsonError: { line: 2, column: 8, offset: broken.indexOf('true') + 1 },
        reason: expect.stringContaining('(line 2, column 8, byte 36): ":" was expected'),
      });
      expect(invalid.rejected?.bodyTruncated).toBeUndefined();

      // Declared over the limit: refused before reading, its first bytes read from the lingering close.
      const declared = Buffer.alloc(200_000);
      for (let i = 0; i < declared.length; i++) declared[i] = (i * 7) % 251;
      const tooLarge = await rawExchange(
        forwarder.url,
        (socket) =>
          void socket.write(
            Buffer.concat([
              Buffer.from(head(`/webhook/${webhook.id}`, ['Content-Type: application/octet-stream', `Content-Length: ${declared.length}`])),
              declared,
            ]),
          ),
      );
      expect(tooLarge.status).toBe(413);
      const large = await tap.nextTap();
      expect(large).toMatchObject({ size: declared.length, rejected: { status: 413, bodyTruncated: true } });
      expect(Buffer.from(large.request!.rawBody, 'base64').equals(declared.subarray(0, REFUSED_BODY_KEPT_BYTES))).toBe(true);

      // Chunked past the limit: the bytes read before the refusal are part of what is kept.
      const chunk = Buffer.alloc(16 * 1024, 0x62);
      const chunked = await rawExchange(forwarder.url, async (socket, answered) => {
        await writeAsync(socket, head(`/webhook/${webhook.id}`, ['Content-Type: text/plain', 'Transfer-Encoding: chunked']));
        for (let sent = 0; !answered() && sent < 1024 * 1024; sent += chunk.length)
          await writeAsync(socket, Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
      });
      expect(chunked.status).toBe(413);
      const grown = await tap.nextTap();
      expect(grown.rejected).toMatchObject({ status: 413, bodyTruncated: true });
      expect(grown.size).toBeGreaterThan(SMALL_LIMITS.bodyBytes);
      expect(Buffer.from(grown.request!.rawBody, 'base64').equals(Buffer.alloc(REFUSED_BODY_KEPT_BYTES, 0x62))).toBe(true);
      await expectServing();
    });

    it('413 for a chunked body that grows over the limit, stopping the read', async () => {
      await newWebhook();
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      let sent = 0;
      const answer = await rawExchange(forwarder.url, async (socket, answered) => {
        await writeAsync(socket, head(`/webhook/${webhook.id}`, ['Content-Type: text/plain', 'Transfer-Encoding: chunked']));
        while (!answered() && sent < 64 * 1024 * 1024) {
          await writeAsync(socket, Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
          sent += chunk.length;
        }
      });
      expect(answer.status).toBe(413);
      expect(sent).toBeLessThan(16 * 1024 * 1024); // it answered long before the client gave up
      await expectServing();
    });

    it('400 for malformed JSON and for JSON nested beyond the limit', async () => {
      await newWebhook();
      const malformed = await post('{"a": ');
      expect(malformed.status).toBe(400);
      expect(malformed.json).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/^The body is not valid JSON \(line 1, column 7, byte 6\): /),
      });
      const deep = await post('['.repeat(30_000) + ']'.repeat(30_000));
      expect(deep.status).toBe(400);
      expect(deep.json).toMatchObject({ error_description: expect.stringContaining('nested deeper than 64') });
      const limitDeep = await post('['.repeat(64) + ']'.repeat(64));
      expect(limitDeep.status).toBe(202);
      await expectServing();
    });

    it('431 for too many header fields', async () => {
      await newWebhook();
      const many = Array.from({ length: 150 }, (_, i) => `X-Field-${i}: ${i}`);
      const answer = await rawExchange(forwarder.url, (socket) => void socket.write(head(`/webhook/${webhook.id}`, ['Content-Length: 2', ...many]) + '{}'));
      expect(answer.status).toBe(431);
      await expectServing();
    });

    it('408 for headers that do not arrive in time, and for a body that does not', async () => {
      await newWebhook();
      const impatient = await stores.start({ limits: { ...SMALL_LIMITS, headersTimeoutMs: 300, requestTimeoutMs: 600 }, heartbeatMs: 60_000 });
      try {
        const slowHeaders = await rawExchange(impatient.url, (socket) => void socket.write(`POST /webhook/${webhook.id} HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
        expect(slowHeaders.status).toBe(408);
        const slowBody = await rawExchange(
          impatient.url,
          (socket) => void socket.write(head(`/webhook/${webhook.id}`, ['Content-Type: application/json', 'Content-Length: 100']) + '{"a":'),
        );
        expect(slowBody.status).toBe(408);
      } finally {
        await impatient.close();
      }
      await expectServing();
    });

    it('key paths aimed at __proto__, constructor or prototype resolve to nothing', async () => {
      await newWebhook();
      const tap = await listen({ ...(await newTapCredential(store, webhook.id)), listenerId: 'tap' });
      for (const keyPath of ['body.__proto__', 'body.constructor', "body['constructor']['prototype']", 'headers.__proto__.polluted']) {
        await store.setKeyPath(webhook.id, keyPath);
        await postId({ a: 1 });
        expect((await tap.nextTap()).routing).toMatchObject({ option: 'key-path', matched: [], reason: expect.stringContaining('resolved to nothing') });
      }
      await expectServing();
    });

    it('bodies carrying __proto__ pollute nothing: JSON is refused, form fields stay plain data', async () => {
      await newWebhook();
      const listener = await listen({ listenerId: 'l', hubId: 'h' });
      const json = await post('{"a": {"__proto__": {"polluted": true}}}', '?hub=h');
      expect(json.status).toBe(400);
      const escaped = await post('{"\\u005f_proto__": {"polluted": true}}', '?hub=h');
      expect(escaped.status).toBe(400);
      const ctor = await post('{"constructor": {"prototype": {"polluted": true}}}', '?hub=h');
      expect(ctor.status).toBe(400);
      await fetch(`${forwarder.url}/webhook/${webhook.id}?hub=h&__proto__=x`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '__proto__=1&polluted=yes',
      });
      const message = await listener.nextMessage();
      expect(Object.getPrototypeOf(message.body)).toBe(Object.prototype);
      expect(message.body).toEqual({ ['__proto__']: '1', polluted: 'yes' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await expectServing();
    });
  });
});
