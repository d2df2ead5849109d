/**
 * A listener's hub id is proven (docs/security.md, "A listener's hub id is proven"): the real cloud and the
 * real forwarder over real sockets, in memory and on a real Redis. The webhook secret is the same for every
 * installation of an app, so the attacker here holds it; what it lacks is a delegation token of the cloud
 * for the victim's hub. Every way of registering as that hub without one is refused, and the attacker
 * receives none of the victim's `?hub=` traffic.
 *
 * "Received nothing" is shown without waiting: after the victim's request, a marker the attacker's own
 * (secret-only, key-value) listener does match is sent; the channel keeps order, so the marker arriving
 * first proves the victim's message never went to it.
 */
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_HUB_CHECK_UNAVAILABLE, CLOSE_HUB_NOT_PROVEN, CLOSE_PROTOCOL_ERROR } from '../../../common/webhook-protocol';
import { type RunningCloud, startCloud } from '../../../services/cloud/cloud';
import type { RunningForwarder } from '../../../services/forwarder/forwarder';
import { HUB_NEEDS_TOKEN } from '../../../services/forwarder/hub-binding';
import { TOKEN_WITHOUT_HUB } from '../../../services/forwarder/listener-channel';
import type { WebhookRecord } from '../../../services/forwarder/webhook-store';
import { forwarderStores, type ForwarderStores, STORE_KINDS } from '../../support/forwarder-stores';
import { ChannelClosed, TestListener, type TestListenerOptions } from '../../support/webhook-listener';
import { delegationToken, signIn, type TestClient } from './oauth-helpers';

const APP: TestClient = { id: 'app', secret: 'app-secret', redirectUri: 'io.example.app:/cb' };
const VICTIM = { email: 'victim@example.test', password: 'victim-password-1' };
const ATTACKER = { email: 'attacker@example.test', password: 'attacker-password-1' };
const VICTIM_HUB = 'hub-victim';
const ATTACKER_HUB = 'hub-attacker';

/** The cloud's clock runs this far from the forwarder's: set to mint tokens already expired for it. */
let cloudSkewMs = 0;

function startTestCloud(): Promise<RunningCloud> {
  const hub = (id: string) => ({ _id: id, name: id, platform: 'local' as const, localUrl: null, localUrlSecure: null, remoteUrl: null });
  return startCloud({
    clients: [{ id: APP.id, secret: APP.secret, name: 'App', native: true, redirectUris: [APP.redirectUri], scopes: ['devices.readonly'] }],
    users: [
      { _id: 'u-victim', ...VICTIM, firstname: 'Vic', lastname: 'Tim', hubs: [hub(VICTIM_HUB)] },
      { _id: 'u-attacker', ...ATTACKER, firstname: 'Mal', lastname: 'Lory', hubs: [hub(ATTACKER_HUB)] },
    ],
    now: () => Date.now() + cloudSkewMs,
  });
}

let cloud: RunningCloud;
let victimAccess: string;
let attackerAccess: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  victimAccess = (await signIn(cloud.url, APP, VICTIM)).access_token;
  attackerAccess = (await signIn(cloud.url, APP, ATTACKER)).access_token;
});
afterAll(() => cloud?.close());

/** How a registration ended: registered (the listener), or closed (code and reason). */
async function attempt(options: TestListenerOptions): Promise<TestListener | ChannelClosed> {
  try {
    return await TestListener.connect(options);
  } catch (error) {
    if (error instanceof ChannelClosed) return error;
    throw error;
  }
}

describe.each(STORE_KINDS)('hub ids proven with delegation tokens, on the %s store', (kind) => {
  let stores: ForwarderStores;
  let forwarder: RunningForwarder;
  let webhook: WebhookRecord;
  const open: TestListener[] = [];

  beforeAll(async () => {
    stores = await forwarderStores(kind);
    forwarder = await stores.start({ hubIds: { verify: { cloudUrl: cloud.url } } });
  });
  afterAll(() => stores.close());
  afterEach(async () => {
    cloudSkewMs = 0;
    await Promise.all(open.splice(0).map((listener) => listener.close()));
  });

  const listen = async (options: Partial<TestListenerOptions> & Pick<TestListenerOptions, 'listenerId'>, at = forwarder) => {
    const result = await attempt({ forwarderUrl: at.url, webhookId: webhook.id, secret: webhook.secret, ...options });
    if (result instanceof TestListener) open.push(result);
    return result;
  };
  const post = async (query: string, body: unknown) => {
    const response = await fetch(`${forwarder.url}/webhook/${webhook.id}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { id: string }).id;
  };

  it("the attack: a holder of the secret cannot register as another account's hub, and receives none of its ?hub= traffic", async () => {
    webhook = await stores.store.setKeyPath((await stores.store.create({ name: 'shared app', ownerId: 'developer' })).id, 'body.device.id');
    const victim = await listen({ listenerId: 'victim', hubId: VICTIM_HUB, delegationToken: await delegationToken(cloud.url, victimAccess, VICTIM_HUB) });
    expect(victim).toBeInstanceOf(TestListener);

    const elsewhere = await generateKeyPair('ES256');
    const { keys } = (await (await fetch(`${cloud.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    const forged = await new SignJWT({ scope: 'devices.readonly', hubs: [VICTIM_HUB], client_id: APP.id })
      .setProtectedHeader({ alg: 'ES256', kid: keys[0]!.kid }) // the cloud's key id, another key
      .setIssuer(cloud.issuer)
      .setAudience('hub')
      .setSubject('u-victim')
      .setIssuedAt()
      .setExpirationTime('1 minute')
      .setJti('forged-jti-0123456789')
      .sign(elsewhere.privateKey);
    cloudSkewMs = -5 * 60_000;
    const expired = await delegationToken(cloud.url, victimAccess, VICTIM_HUB);
    cloudSkewMs = 0;
    // A token the victim's app already used (seen on the wire, or in a log): each is good for one registration.
    const used = await delegationToken(cloud.url, victimAccess, VICTIM_HUB);
    expect(await listen({ listenerId: 'victim-2', hubId: VICTIM_HUB, delegationToken: used })).toBeInstanceOf(TestListener);

    const attacks: [string, Partial<TestListenerOptions>, string][] = [
      ['no token', {}, HUB_NEEDS_TOKEN],
      ['no token, key values besides', { data: { $key: 'lamp-1' } }, HUB_NEEDS_TOKEN],
      ['not a token', { delegationToken: 'not-a-token' }, 'delegation token refused: not a signed token'],
      ['signed with another key', { delegationToken: forged }, "delegation token refused: the token's signature is not the cloud's"],
      ['expired', { delegationToken: expired }, 'delegation token refused: the token has expired'],
      [
        "the attacker's own hub's token",
        { delegationToken: await delegationToken(cloud.url, attackerAccess, ATTACKER_HUB) },
        'delegation token refused: the token is for another hub',
      ],
      [
        "a token for all the attacker's hubs",
        { delegationToken: await delegationToken(cloud.url, attackerAccess) },
        'delegation token refused: the token is for another hub',
      ],
      ['replayed', { delegationToken: used }, 'delegation token refused: the token was used before'],
    ];
    for (const [name, options, reason] of attacks) {
      const refused = await listen({ listenerId: `attacker-${name}`, hubId: VICTIM_HUB, ...options });
      expect(refused, name).toBeInstanceOf(ChannelClosed);
      expect(refused, name).toMatchObject({ code: CLOSE_HUB_NOT_PROVEN, reason });
    }
    // The secret alone still registers by key values, without naming a hub: never a ?hub= target.
    const attacker = await listen({ listenerId: 'attacker-keys', data: { $key: 'attacker-device' } });
    expect(attacker).toBeInstanceOf(TestListener);
    expect(await listen({ listenerId: 'attacker-token-no-hub', data: { $key: 'x' }, delegationToken: used })).toMatchObject({
      code: CLOSE_PROTOCOL_ERROR,
      reason: TOKEN_WITHOUT_HUB,
    });

    const secret = await post(`?hub=${VICTIM_HUB}`, { device: { id: 'attacker-device' }, note: 'for the victim' });
    const marker = await post('', { device: { id: 'attacker-device' }, note: 'marker' });
    expect((await (victim as TestListener).nextMessage()).id).toBe(secret);
    expect((await (attacker as TestListener).nextMessage()).id).toBe(marker);
    expect((attacker as TestListener).ids()).toEqual([marker]);
  });

  it('a reconnect of the same listener needs a fresh token: the one it registered with is spent', async () => {
    webhook = await stores.store.create({ name: 'reconnects', ownerId: 'developer' });
    const token = await delegationToken(cloud.url, victimAccess, VICTIM_HUB);
    const first = (await listen({ listenerId: 'app', hubId: VICTIM_HUB, delegationToken: token })) as TestListener;
    await first.close();
    expect(await listen({ listenerId: 'app', hubId: VICTIM_HUB, delegationToken: token })).toMatchObject({
      code: CLOSE_HUB_NOT_PROVEN,
      reason: 'delegation token refused: the token was used before',
    });
    const again = await listen({ listenerId: 'app', hubId: VICTIM_HUB, delegationToken: await delegationToken(cloud.url, victimAccess, VICTIM_HUB) });
    expect(again).toBeInstanceOf(TestListener);
    const id = await post(`?hub=${VICTIM_HUB}`, { n: 1 });
    expect((await (again as TestListener).nextMessage()).id).toBe(id);
  });

  it.runIf(kind === 'redis')('a token accepted by one instance is refused by another: the used tokens are shared in Redis', async () => {
    webhook = await stores.store.create({ name: 'two instances', ownerId: 'developer' });
    const other = await stores.start({ hubIds: { verify: { cloudUrl: cloud.url } } });
    const token = await delegationToken(cloud.url, victimAccess, VICTIM_HUB);
    expect(await listen({ listenerId: 'app', hubId: VICTIM_HUB, delegationToken: token })).toBeInstanceOf(TestListener);
    expect(await listen({ listenerId: 'thief', hubId: VICTIM_HUB, delegationToken: token }, other)).toMatchObject({
      code: CLOSE_HUB_NOT_PROVEN,
      reason: 'delegation token refused: the token was used before',
    });
  });
});

describe('the cloud unreachable', () => {
  it('a registration naming a hub is refused as retryable (4503) and the forwarder says so; the others go on', async () => {
    const stores = await forwarderStores('memory');
    const gone = await startTestCloud();
    try {
      const token = await delegationToken(gone.url, (await signIn(gone.url, APP, VICTIM)).access_token, VICTIM_HUB);
      await gone.close(); // before the forwarder ever read its keys
      const forwarder = await stores.start({ hubIds: { verify: { cloudUrl: gone.url } } });
      const webhook = await stores.store.create({ name: 'cloud down', ownerId: 'developer' });
      const base = { forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret };
      const refused = await attempt({ ...base, listenerId: 'hub', hubId: VICTIM_HUB, delegationToken: token });
      expect(refused).toMatchObject({
        code: CLOSE_HUB_CHECK_UNAVAILABLE,
        reason: "cannot check the delegation token now: the cloud's keys could not be read; reconnect",
      });
      const keyed = await attempt({ ...base, listenerId: 'keys', data: { $key: 'lamp-1' } });
      expect(keyed).toBeInstanceOf(TestListener);
      await (keyed as TestListener).close();
      // A token of another cloud: its key is not in this one's set, so it is never taken (here: refused for now).
      expect(
        await attempt({ ...base, listenerId: 'hub-2', hubId: VICTIM_HUB, delegationToken: await delegationToken(cloud.url, victimAccess, VICTIM_HUB) }),
      ).toMatchObject({ code: CLOSE_HUB_CHECK_UNAVAILABLE });
    } finally {
      await stores.close();
    }
  });

  it("a token of another cloud, while this one's keys are read: refused, never registered", async () => {
    const stores = await forwarderStores('memory');
    const other = await startTestCloud();
    try {
      const forwarder = await stores.start({ hubIds: { verify: { cloudUrl: cloud.url } } });
      const webhook = await stores.store.create({ name: 'other cloud', ownerId: 'developer' });
      const base = { forwarderUrl: forwarder.url, webhookId: webhook.id, secret: webhook.secret, hubId: VICTIM_HUB };
      const good = await attempt({ ...base, listenerId: 'app', delegationToken: await delegationToken(cloud.url, victimAccess, VICTIM_HUB) });
      expect(good).toBeInstanceOf(TestListener);
      await (good as TestListener).close();
      const foreign = await delegationToken(other.url, (await signIn(other.url, APP, VICTIM)).access_token, VICTIM_HUB);
      expect(await attempt({ ...base, listenerId: 'foreign', delegationToken: foreign })).toBeInstanceOf(ChannelClosed);
    } finally {
      await other.close();
      await stores.close();
    }
  });
});
