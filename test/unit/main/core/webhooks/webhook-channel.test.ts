import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConnection } from '../../../../../common/ipc-contract';
import type { RawWebhookMessage, TapEvent } from '../../../../../common/webhook-protocol';
import { createBackoff } from '../../../../../main/core/shared/backoff';
import { proofFor } from '../../../../../common/webhook-proof';
import {
  listenUrl,
  openWebhookChannel,
  refusalReason,
  WEBHOOK_GIVE_UP_AFTER_MS,
  WEBHOOK_PING_MS,
  WEBHOOK_SILENT_AFTER_MS,
  type WebhookChannel,
  type WebhookChannelOptions,
} from '../../../../../main/core/webhooks/webhook-channel';
import {
  CLOSE_BAD_SECRET,
  CLOSE_CREDENTIAL_REVOKED,
  CLOSE_GOING_AWAY,
  CLOSE_HUB_CHECK_UNAVAILABLE,
  CLOSE_HUB_NOT_PROVEN,
  CLOSE_TOO_MANY_LISTENERS,
} from '../../../../../common/webhook-protocol';
import { type OpenWebSocket, plainWebSocket } from '../../../../../main/core/shared/live-socket';
import { FAKE_TAP_REFUSAL } from '../fake-listen-server';
import { recordingLogger } from '../../../../support/core-fakes';
import { fakeTimeline } from '../../../../support/fake-timeline';
import { type FakeListenServer, manualSchedule, startFakeListenServer, tapEvent, webhookMessage } from '../fake-listen-server';

const SECRET = 'the-webhook-secret-0123456789';
const TAP = { credentialId: 'tc_0123456789abcdef', secret: 'the-tap-credential-secret-0123' };

let server: FakeListenServer;
let channel: WebhookChannel | undefined;
let schedule: ReturnType<typeof manualSchedule>;
let statuses: WebhookConnection[];
let lastAck: string | undefined;
const logger = recordingLogger();

beforeEach(async () => {
  server = await startFakeListenServer({ wh1: SECRET }, { tapCredentials: { [TAP.credentialId]: TAP.secret } });
  schedule = manualSchedule();
  statuses = [];
  lastAck = undefined;
});
afterEach(async () => {
  channel?.stop();
  channel = undefined;
  await server.close();
});

function open(overrides: Partial<WebhookChannelOptions> = {}) {
  const received: RawWebhookMessage[] = [];
  const tapped: TapEvent[] = [];
  channel = openWebhookChannel({
    webhookUrl: server.url,
    webhookId: 'wh1',
    secret: SECRET,
    role: 'listener',
    listenerId: 'listener-1',
    data: { $key: 'lamp-1' },
    resumeAfter: () => lastAck,
    onMessage: (message) => received.push(message),
    onAcknowledged: (id) => (lastAck = id),
    onTap: (event) => tapped.push(event),
    onConnection: (connection) => statuses.push(connection),
    logger,
    clock: { now: () => 1_000 },
    schedule: schedule.schedule,
    backoff: createBackoff(() => 1),
    ...overrides,
  });
  return { received, tapped };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
};
/** The retry waiting, if any: while the channel is reconnecting its socket's heartbeat has stopped, so nothing else is pending. */
const retries = () => {
  return statuses.at(-1)?.state === 'reconnecting' ? schedule.pending() : [];
};

describe('listenUrl and proof', () => {
  it('turns the base URL into the ws(s) listen URL', () => {
    expect(listenUrl('http://127.0.0.1:5000')).toBe('ws://127.0.0.1:5000/listen');
    expect(listenUrl('https://forwarder.example/base/')).toBe('wss://forwarder.example/base/listen');
  });
  it('is the hex HMAC-SHA256 of the nonce under the secret', () => {
    expect(proofFor('key', 'The quick brown fox jumps over the lazy dog')).toBe('f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });
});

describe('webhook channel', () => {
  it('registers with a proof (never the secret), then reports connected', async () => {
    open();
    await server.registered(1);
    const [register] = server.registrations;
    // The listener asks for the raw body only: the body crosses the network once per message.
    expect(register).toMatchObject({ webhookId: 'wh1', role: 'listener', listenerId: 'listener-1', data: { $key: 'lamp-1' }, rawBodyOnly: true });
    expect(register).not.toHaveProperty('ownListenerIds');
    expect(register).not.toHaveProperty('resumeAfter');
    expect(JSON.stringify(register)).not.toContain(SECRET);
    await until(() => statuses.at(-1)?.state === 'connected');
    expect(statuses[0]).toEqual({ state: 'connecting' });
  });

  it('hands every message over and acknowledges it', async () => {
    const { received } = open();
    await server.registered(1);
    server.send('listener', { type: 'message', message: webhookMessage('m1') });
    server.send('listener', { type: 'message', message: webhookMessage('m2') });
    await server.acked(2);
    expect(server.acks).toEqual(['m1', 'm2']);
    expect(received.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(lastAck).toBe('m2');
  });

  it('takes a message that still carries the parsed body (a forwarder that ignores rawBodyOnly)', async () => {
    const { received } = open();
    await server.registered(1);
    server.send('listener', { type: 'message', message: { ...webhookMessage('m3'), body: { device: { id: 'lamp-1' } } } });
    await server.acked(1);
    expect(received.map((m) => m.id)).toEqual(['m3']);
  });

  it('passes tap events on, naming its own listeners so their intakes come without the request', async () => {
    const { tapped } = open({ role: 'tap', listenerId: 'tap-1', data: undefined, ownListenerIds: ['listener-1'], ...TAP });
    await server.registered(1);
    expect(server.registrations[0]).toMatchObject({ role: 'tap', listenerId: 'tap-1', credentialId: TAP.credentialId, ownListenerIds: ['listener-1'] });
    expect(server.registrations[0]).not.toHaveProperty('rawBodyOnly');
    expect(JSON.stringify(server.registrations[0])).not.toContain(TAP.secret);
    server.send('tap', { type: 'tap', event: tapEvent('m1', 'listener-1') });
    await until(() => tapped.length === 1);
    expect(tapped[0]!.routing.matched).toEqual([{ listenerId: 'listener-1' }]);
  });

  it('after a drop, reconnects with backoff and resumes after the last acknowledged id', async () => {
    open();
    await server.registered(1);
    server.send('listener', { type: 'message', message: webhookMessage('m7') });
    await server.acked(1);
    server.dropAll();
    await until(() => retries().length === 1);
    expect(retries()[0]!.ms).toBe(250);
    expect(statuses.at(-1)).toEqual({ state: 'reconnecting', attempt: 1, nextRetryAt: 1_250 });
    schedule.fire(retries()[0]!);
    await server.registered(2);
    expect(server.registrations[1]).toMatchObject({ listenerId: 'listener-1', resumeAfter: 'm7' });
    await until(() => statuses.at(-1)?.state === 'connected');
  });

  it('a forwarder going away (1001, it drains) is not a refusal: the channel reconnects after the first delay and resumes', async () => {
    open();
    await server.registered(1);
    server.send('listener', { type: 'message', message: webhookMessage('m8') });
    await server.acked(1);
    server.peers('listener')[0]!.socket.close(CLOSE_GOING_AWAY, 'the forwarder is shutting down; reconnect');
    await until(() => retries().length === 1);
    expect(retries()[0]!.ms).toBe(250);
    expect(statuses.at(-1)).toMatchObject({ state: 'reconnecting' });
    schedule.fire(retries()[0]!);
    await server.registered(2);
    expect(server.registrations[1]).toMatchObject({ resumeAfter: 'm8' });
  });

  it('grows the delay while the forwarder stays away, and starts again from 250 ms after a success', async () => {
    open();
    await server.registered(1);
    const url = server.url;
    await server.close();
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      await until(() => retries().length === 1);
      delays.push(retries()[0]!.ms);
      schedule.fire(retries()[0]!);
    }
    expect(delays).toEqual([250, 500, 1000]);
    // The forwarder comes back on the same port: the next success resets the backoff.
    server = await startFakeListenServer({ wh1: SECRET }, { port: Number(new URL(url).port) });
    await until(() => retries().length === 1);
    schedule.fire(retries()[0]!);
    await server.registered(1);
    server.dropAll();
    await until(() => retries().length === 1);
    expect(retries()[0]!.ms).toBe(250);
  });

  it('a wrong secret is refused: status refused and no retry', async () => {
    open({ secret: 'not-the-secret-at-all' });
    await until(() => statuses.at(-1)?.state === 'refused');
    expect(statuses.at(-1)).toEqual({ state: 'refused', reason: 'The forwarder refused the webhook secret.' });
    expect(schedule.pending()).toHaveLength(0);
    expect(server.registrations).toHaveLength(0);
  });

  it("a tap without a tap credential is refused with the forwarder's reason, and not retried", async () => {
    open({ role: 'tap', listenerId: 'tap-1', data: undefined });
    await until(() => statuses.at(-1)?.state === 'refused');
    expect(statuses.at(-1)).toEqual({ state: 'refused', reason: expect.stringContaining(`The forwarder refused the tap (${FAKE_TAP_REFUSAL})`) });
    expect(schedule.pending()).toHaveLength(0);
  });

  it("a tap's refusal text: the forwarder's words, cleaned of control characters, or the app's when it gave none", () => {
    expect(refusalReason('tap', CLOSE_CREDENTIAL_REVOKED, 'revoked\u0000\u202e in the portal')).toMatch(
      /^The forwarder refused the tap \(revoked in the portal\)\./,
    );
    expect(refusalReason('tap', CLOSE_BAD_SECRET, '')).toContain('(wrong or revoked tap credential)');
    // The listener caps are final too, and say the forwarder's limit in its own words.
    expect(refusalReason('listener', CLOSE_TOO_MANY_LISTENERS, 'this webhook already has 100 listeners; the limit is 100')).toMatch(
      /^The forwarder refused this listener \(this webhook already has 100 listeners; the limit is 100\)\./,
    );
    expect(refusalReason('listener', CLOSE_BAD_SECRET, 'anything')).toBe('The forwarder refused the webhook secret.');
    expect(refusalReason('tap', 1006, '')).toBeUndefined(); // a drop: reconnect
  });

  it('an unknown webhook is refused too', async () => {
    open({ webhookId: 'nope' });
    await until(() => statuses.at(-1)?.state === 'refused');
    expect(statuses.at(-1)).toMatchObject({ state: 'refused', reason: 'This webhook no longer exists on the forwarder.', gone: true });
  });

  it('a silent forwarder is not responding, the socket kept; its next answer makes it connected again', async () => {
    const time = fakeTimeline();
    open({ schedule: time.schedule, clock: time.clock });
    await server.registered(1);
    await until(() => statuses.at(-1)?.state === 'connected');
    server.mute(true);
    time.advance(WEBHOOK_PING_MS);
    await server.pinged(1);
    time.advance(WEBHOOK_SILENT_AFTER_MS - WEBHOOK_PING_MS);
    expect(statuses.at(-1)).toEqual({ state: 'not-responding', since: time.clock.now() - WEBHOOK_SILENT_AFTER_MS });
    server.mute(false);
    time.advance(WEBHOOK_PING_MS);
    await until(() => statuses.at(-1)?.state === 'connected');
    expect(server.registrations).toHaveLength(1); // the same socket
    expect(statuses.map((status) => status.state)).toEqual(['connecting', 'connected', 'not-responding', 'connected']);
  });

  it('a forwarder silent for WEBHOOK_GIVE_UP_AFTER_MS is given up, and the channel reconnects', async () => {
    const time = fakeTimeline();
    open({ schedule: time.schedule, clock: time.clock });
    await until(() => statuses.at(-1)?.state === 'connected');
    server.mute(true);
    time.advance(WEBHOOK_GIVE_UP_AFTER_MS);
    await until(() => statuses.at(-1)?.state === 'reconnecting');
    server.mute(false);
    time.advance(250);
    await server.registered(2);
    await until(() => statuses.at(-1)?.state === 'connected');
    expect(statuses.map((status) => status.state)).toEqual(['connecting', 'connected', 'not-responding', 'reconnecting', 'connected']);
  });

  it('a malformed frame drops the connection (and is not acknowledged); the channel comes back', async () => {
    const { received } = open();
    await server.registered(1);
    server.send('listener', '{"type":"message","message":{"id":5}}');
    await until(() => retries().length === 1);
    expect(received).toHaveLength(0);
    expect(server.acks).toHaveLength(0);
    schedule.fire(retries()[0]!);
    await server.registered(2);
  });

  it('a frame of a type this app does not know (a newer forwarder) is ignored: the connection stays', async () => {
    const { received } = open();
    await server.registered(1);
    server.send('listener', JSON.stringify({ type: 'from-the-future', anything: [1, 2] }));
    server.send('listener', { type: 'message', message: webhookMessage('m1') });
    await server.acked(1);
    expect(received.map((m) => m.id)).toEqual(['m1']);
    expect(server.registrations).toHaveLength(1);
    expect(retries()).toHaveLength(0);
  });

  it('asks for drop notices only when it takes them, and hands a valid notice over', async () => {
    const notices: unknown[] = [];
    open({ onDropped: (notice) => notices.push(notice) });
    await server.registered(1);
    expect(server.registrations[0]).toMatchObject({ dropNotices: true });
    server.send('listener', { type: 'dropped', through: 'm7', count: 3 });
    server.send('listener', { type: 'message', message: webhookMessage('m8') });
    await server.acked(1);
    expect(notices).toEqual([{ type: 'dropped', through: 'm7', count: 3 }]);
  });

  it('a listener without onDropped does not ask for drop notices', async () => {
    open();
    await server.registered(1);
    expect(server.registrations[0]).not.toHaveProperty('dropNotices');
  });

  it.each([
    ['a count of the wrong type', { type: 'dropped', through: 'm7', count: '3' }],
    ['no through id', { type: 'dropped', count: 3 }],
    ['a list of ids instead of one', { type: 'dropped', through: ['m1', 'm2'], count: 2 }],
    ['a zero count', { type: 'dropped', through: 'm7', count: 0 }],
  ])('a drop notice with %s is refused as malformed, without crashing; the channel comes back', async (_, frame) => {
    const notices: unknown[] = [];
    open({ onDropped: (notice) => notices.push(notice) });
    await server.registered(1);
    server.send('listener', JSON.stringify(frame));
    await until(() => retries().length === 1);
    expect(notices).toHaveLength(0);
    schedule.fire(retries()[0]!);
    await server.registered(2);
  });

  it('reconnect connects again at once, resuming after the last acknowledged id, with no backoff wait', async () => {
    open();
    await server.registered(1);
    server.send('listener', { type: 'message', message: webhookMessage('m3') });
    await server.acked(1);
    channel!.reconnect();
    await server.registered(2); // no retry had to fire
    expect(schedule.pending().filter((task) => task.ms < WEBHOOK_PING_MS)).toHaveLength(0); // the new socket's heartbeat only
    expect(server.registrations[1]).toMatchObject({ listenerId: 'listener-1', resumeAfter: 'm3' });
    await until(() => statuses.at(-1)?.state === 'connected');
    await until(() => server.peers().length === 1); // the old socket is gone
  });

  it('stop closes the socket and schedules nothing more', async () => {
    open();
    await until(() => statuses.at(-1)?.state === 'connected');
    channel!.stop();
    await until(() => server.peers().length === 0);
    expect(schedule.pending()).toHaveLength(0);
    expect(statuses.at(-1)?.state).toBe('connected');
  });
});

describe('a listener naming a hub', () => {
  /** Hands out token-1, token-2, … (or what `results` says first), counting the calls. */
  function tokens(results: Awaited<ReturnType<NonNullable<WebhookChannelOptions['hubToken']>>>[] = []) {
    let calls = 0;
    return {
      calls: () => calls,
      hubToken: async () => {
        calls++;
        return results.shift() ?? { ok: true as const, token: `token-${calls}` };
      },
    };
  }
  const hubListener = (hubToken: WebhookChannelOptions['hubToken'], overrides: Partial<WebhookChannelOptions> = {}) =>
    open({ hubId: 'hub-1', data: undefined, hubToken, ...overrides });

  it('sends a fresh delegation token with every registration, a reconnect too, and never logs it', async () => {
    const source = tokens();
    hubListener(source.hubToken);
    await server.registered(1);
    expect(server.registrations[0]).toMatchObject({ hubId: 'hub-1', delegationToken: 'token-1' });
    server.dropAll();
    await until(() => retries().length === 1);
    schedule.fire(retries()[0]!);
    await server.registered(2);
    expect(server.registrations[1]).toMatchObject({ hubId: 'hub-1', delegationToken: 'token-2' });
    channel!.reconnect();
    await server.registered(3);
    expect(server.registrations.map((register) => register.delegationToken)).toEqual(['token-1', 'token-2', 'token-3']);
    expect(source.calls()).toBe(3);
    expect(JSON.stringify(logger.lines)).not.toContain('token-');
  });

  it('signed out: waits, unavailable with the reason and no retry, until retryIfWaiting after a sign-in', async () => {
    const source = tokens([{ ok: false, reason: 'Sign in to register as this hub.', wait: true }]);
    hubListener(source.hubToken);
    await until(() => statuses.at(-1)?.state === 'unavailable');
    expect(statuses.at(-1)).toEqual({ state: 'unavailable', reason: 'Sign in to register as this hub.' });
    expect(retries()).toHaveLength(0);
    expect(server.registrations).toHaveLength(0);
    channel!.retryIfWaiting();
    await server.registered(1);
    expect(server.registrations[0]).toMatchObject({ delegationToken: 'token-2' });
    await until(() => statuses.at(-1)?.state === 'connected');
    channel!.retryIfWaiting(); // connected: nothing to retry
    expect(source.calls()).toBe(2);
  });

  it('the cloud unreachable: reconnecting with the reason, then retried with backoff', async () => {
    const source = tokens([{ ok: false, reason: 'Hubdesk could not reach the cloud.', wait: false }]);
    hubListener(source.hubToken);
    await until(() => retries().length === 1);
    expect(statuses.at(-1)).toMatchObject({ state: 'reconnecting', attempt: 1, reason: 'Hubdesk could not reach the cloud.' });
    schedule.fire(retries()[0]!);
    await server.registered(1);
    expect(server.registrations[0]).toMatchObject({ delegationToken: 'token-2' });
  });

  it("a hub the forwarder does not accept is refused for good, in the forwarder's words", async () => {
    await server.close();
    server = await startFakeListenServer(
      { wh1: SECRET },
      { refuse: () => ({ code: CLOSE_HUB_NOT_PROVEN, reason: 'delegation token refused: the token is for another hub' }) },
    );
    hubListener(tokens().hubToken);
    await until(() => statuses.at(-1)?.state === 'refused');
    expect(statuses.at(-1)).toEqual({ state: 'refused', reason: expect.stringContaining('(delegation token refused: the token is for another hub)') });
    expect(retries()).toHaveLength(0);
  });

  it('a forwarder that cannot check the token now: reconnecting with its reason, then a fresh token', async () => {
    await server.close();
    let refusals = 1;
    server = await startFakeListenServer(
      { wh1: SECRET },
      { refuse: () => (refusals-- > 0 ? { code: CLOSE_HUB_CHECK_UNAVAILABLE, reason: "the cloud's keys could not be read" } : undefined) },
    );
    const source = tokens();
    hubListener(source.hubToken);
    await until(() => retries().length === 1);
    expect(statuses.at(-1)).toMatchObject({ state: 'reconnecting', reason: expect.stringContaining("(the cloud's keys could not be read)") });
    schedule.fire(retries()[0]!);
    await until(() => statuses.at(-1)?.state === 'connected');
    expect(server.registrations.map((register) => register.delegationToken)).toEqual(['token-1', 'token-2']);
  });

  it('a token that arrives after the channel stopped is dropped: no connection is opened with it', async () => {
    let deliver: (token: string) => void = () => {};
    const pending = new Promise<string>((resolve) => (deliver = resolve));
    let opened = 0;
    const counting: OpenWebSocket = (url, options) => {
      opened++;
      return plainWebSocket(url, options);
    };
    hubListener(async () => ({ ok: true, token: await pending }), { openWebSocket: counting });
    channel!.stop();
    deliver('late-token');
    await pending;
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toBe(0);
  });
});
