import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_HUB_CHECK_UNAVAILABLE, CLOSE_HUB_NOT_PROVEN } from '../../../../common/webhook-protocol';
import { createHubBinding, HUB_NEEDS_TOKEN, JWKS_RETRY_AFTER_MS, MAX_JWKS_BYTES, NO_HUB_IDS } from '../../../../services/forwarder/hub-binding';
import { MemoryReplayGuard } from '../../../../services/shared/delegation-token';
import { recordingLogger } from '../../../support/core-fakes';

const CLOUD = 'http://127.0.0.1:4000/';
let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let jwks: string;

beforeAll(async () => {
  keys = await generateKeyPair('ES256');
  jwks = JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
});

let jtis = 0;
const token = (now: number, hubs = ['hub-1']) =>
  new SignJWT({ scope: 'devices', hubs, client_id: 'app' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer('http://127.0.0.1:4000')
    .setAudience('hub')
    .setSubject('user-1')
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + 60)
    .setJti(`jti-${String(++jtis).padStart(16, '0')}`)
    .sign(keys.privateKey);

/** A cloud whose answers the test sets: each fetch of the key set is counted, and answered by `answer`. */
function fakeCloud(answer: () => Response | Promise<Response>) {
  const fetched: string[] = [];
  const fetchFn = (async (url: string) => {
    fetched.push(String(url));
    return answer();
  }) as typeof fetch;
  return { fetched, fetchFn };
}

function binding(fetchFn: typeof fetch, clock: { now: number }) {
  const logger = recordingLogger();
  return {
    logger,
    check: createHubBinding({ verify: { cloudUrl: CLOUD } }, { replays: new MemoryReplayGuard(), now: () => clock.now, logger, fetch: fetchFn }).check,
  };
}

describe('hub binding policies', () => {
  it('trust lets any hub id through; refuse lets none, saying why', async () => {
    const deps = { replays: new MemoryReplayGuard(), now: Date.now, logger: recordingLogger() };
    expect(await createHubBinding('trust', deps).check('hub-1', undefined)).toBeUndefined();
    expect(await createHubBinding('refuse', deps).check('hub-1', 'anything')).toEqual({ code: CLOSE_HUB_NOT_PROVEN, reason: NO_HUB_IDS });
  });

  it("verify: a token for the hub from the cloud's key set (read from {cloud}/.well-known/jwks.json) passes once; none, another hub's or a replay is refused", async () => {
    const clock = { now: Date.now() };
    const cloud = fakeCloud(() => new Response(jwks, { status: 200, headers: { 'content-type': 'application/json' } }));
    const { check } = binding(cloud.fetchFn, clock);
    expect(await check('hub-1', undefined)).toEqual({ code: CLOSE_HUB_NOT_PROVEN, reason: HUB_NEEDS_TOKEN });
    const good = await token(clock.now);
    expect(await check('hub-1', good)).toBeUndefined();
    expect(await check('hub-1', good)).toEqual({ code: CLOSE_HUB_NOT_PROVEN, reason: 'delegation token refused: the token was used before' });
    expect(await check('hub-2', await token(clock.now))).toEqual({
      code: CLOSE_HUB_NOT_PROVEN,
      reason: 'delegation token refused: the token is for another hub',
    });
    expect(cloud.fetched).toEqual(['http://127.0.0.1:4000/.well-known/jwks.json']); // kept, not fetched per token
    for (const reason of [HUB_NEEDS_TOKEN, NO_HUB_IDS]) expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });

  it('the cloud down: refused as retryable and logged; not asked again for a while, then asked again', async () => {
    const clock = { now: Date.now() };
    let up = false;
    const cloud = fakeCloud(() => (up ? new Response(jwks, { status: 200 }) : Promise.reject(new TypeError('fetch failed'))));
    const { check, logger } = binding(cloud.fetchFn, clock);
    const refusal = { code: CLOSE_HUB_CHECK_UNAVAILABLE, reason: "cannot check the delegation token now: the cloud's keys could not be read; reconnect" };
    expect(await check('hub-1', await token(clock.now))).toEqual(refusal);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    up = true;
    clock.now += JWKS_RETRY_AFTER_MS - 1;
    expect(await check('hub-1', await token(clock.now))).toEqual(refusal);
    expect(cloud.fetched).toHaveLength(1);
    clock.now += 1;
    expect(await check('hub-1', await token(clock.now))).toBeUndefined();
    expect(cloud.fetched).toHaveLength(2);
    expect(Buffer.byteLength(refusal.reason)).toBeLessThanOrEqual(123);
  });

  it('reads at most MAX_JWKS_BYTES of a key set, declared or not; an error answer or a non-key set is retryable too', async () => {
    const answers: (() => Response)[] = [
      () => new Response('x'.repeat(MAX_JWKS_BYTES + 1), { status: 200 }),
      () => new Response(new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(16 * 1024)) }), { status: 200 }),
      () => new Response('{}', { status: 500 }),
      () => new Response('{"keys": "none"}', { status: 200 }),
      () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/jwks.json' } }),
    ];
    for (const [index, answer] of answers.entries()) {
      const clock = { now: Date.now() };
      const { check } = binding(fakeCloud(answer).fetchFn, clock);
      expect(await check('hub-1', await token(clock.now)), `answer ${index}`).toMatchObject({ code: CLOSE_HUB_CHECK_UNAVAILABLE });
    }
  });
});
