import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { type PingProof, signPing } from '../../../../../common/hub-identity';
import type { HubIdentityKey, HubRecord } from '../../../../../common/wire';
import type { HubClient, PingAnswer } from '../../../../../main/core/hubs/hub-client';
import type { Route } from '../../../../../main/core/hubs/route-selection';
import { createProvingPing, createUnencryptedRoutesSetting, PLAIN_ROUTES_REFUSED } from '../../../../../main/core/hubs/route-trust';
import { fakeHubClient, memoryStore } from '../../../../support/core-fakes';

function identity() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, key: publicKey.export({ format: 'jwk' }) as HubIdentityKey };
}

const real = identity();
const HUB: HubRecord = {
  _id: 'hub-1',
  name: 'Home',
  platform: 'local',
  localUrlSecure: null,
  localUrl: 'http://lan.test',
  remoteUrl: null,
  identityKey: real.key,
};
const PLAIN: Route = { kind: 'local', baseUrl: 'http://lan.test' };
const SECURE: Route = { kind: 'local-secure', baseUrl: 'https://lan.test' };

/** A ping that answers what `answer` makes of the nonce it was sent; records the nonces. */
function pinging(answer: (nonce: string) => PingAnswer) {
  const nonces: string[] = [];
  const ping = vi.fn<HubClient['ping']>(async (_at, _hubId, nonce) => {
    nonces.push(nonce);
    return answer(nonce);
  });
  const hubClient = fakeHubClient({ ping, login: vi.fn(), devices: vi.fn() });
  return { hubClient, ping, nonces };
}

const proofBy =
  (privateKey: typeof real.privateKey, hubId = 'hub-1') =>
  (nonce: string): PingAnswer => ({ kind: 'proof', proof: signPing(privateKey, hubId, nonce) });
const signal = new AbortController().signal;
const allowed = { allowUnencrypted: () => true };

describe('the proving ping', () => {
  it('accepts a hub that signs the fresh nonce with the key in its record, on a plain route too', async () => {
    const { hubClient, nonces } = pinging(proofBy(real.privateKey));
    expect(await createProvingPing(hubClient, allowed)(PLAIN, HUB, signal)).toEqual({ kind: 'hub' });
    expect(nonces[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a device that signs with another key, and says the device was sent nothing', async () => {
    const { hubClient } = pinging(proofBy(identity().privateKey));
    const outcome = await createProvingPing(hubClient, allowed)(PLAIN, HUB, signal);
    expect(outcome).toEqual({ kind: 'failed', detail: expect.stringContaining('did not prove it is Home') });
    expect(outcome.kind === 'failed' && outcome.detail).toContain('signature does not match');
  });

  it('refuses a device that echoes the id without a signature (the impostor of before)', async () => {
    const { hubClient } = pinging(() => ({ kind: 'id', id: 'hub-1' }));
    expect(await createProvingPing(hubClient, allowed)(PLAIN, HUB, signal)).toEqual({
      kind: 'failed',
      detail: expect.stringContaining('it sent no signature'),
    });
  });

  it('refuses a replayed proof: every ping has a new nonce', async () => {
    let recorded: PingProof | undefined;
    const { hubClient, nonces } = pinging((nonce) => {
      recorded ??= signPing(real.privateKey, 'hub-1', nonce);
      return { kind: 'proof', proof: recorded };
    });
    const ping = createProvingPing(hubClient, allowed);
    expect(await ping(PLAIN, HUB, signal)).toEqual({ kind: 'hub' });
    expect((await ping(PLAIN, HUB, signal)).kind).toBe('failed');
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('reports another hub answering as wrong-hub, even with a valid signature of its own', async () => {
    const { hubClient } = pinging(proofBy(real.privateKey, 'hub-2'));
    expect(await createProvingPing(hubClient, allowed)(PLAIN, HUB, signal)).toEqual({ kind: 'wrong-hub' });
  });

  it('without a published key, trusts TLS (the record address) but never plain HTTP', async () => {
    const keyless = { ...HUB, identityKey: null };
    const { hubClient } = pinging(() => ({ kind: 'id', id: 'hub-1' }));
    const ping = createProvingPing(hubClient, allowed);
    expect(await ping(SECURE, keyless, signal)).toEqual({ kind: 'hub' });
    expect(await ping(PLAIN, keyless, signal)).toEqual({ kind: 'failed', detail: expect.stringContaining('no identity key') });
  });

  it('does not even ask the plain LAN route when the user refused unencrypted routes', async () => {
    const { hubClient, ping } = pinging(proofBy(real.privateKey));
    expect(await createProvingPing(hubClient, { allowUnencrypted: () => false })(PLAIN, HUB, signal)).toEqual({ kind: 'failed', detail: PLAIN_ROUTES_REFUSED });
    expect(ping).not.toHaveBeenCalled();
  });

  it('never asks a plain address heard over mDNS', async () => {
    const { hubClient, ping } = pinging(proofBy(real.privateKey));
    const heard: Route = { kind: 'local-secure', baseUrl: 'http://192.0.2.7:8080', namedHub: 'hub-1' };
    expect((await createProvingPing(hubClient, allowed)(heard, HUB, signal)).kind).toBe('failed');
    expect(ping).not.toHaveBeenCalled();
  });

  it('passes a failed ping through with its reason', async () => {
    const { hubClient } = pinging(() => ({ kind: 'failed', detail: 'untrusted certificate' }));
    expect(await createProvingPing(hubClient, allowed)(SECURE, HUB, signal)).toEqual({ kind: 'failed', detail: 'untrusted certificate' });
  });
});

describe('the unencrypted-routes setting', () => {
  it('allows by default, keeps a refusal, and reads a malformed stored value as allowed', () => {
    const store = memoryStore();
    const setting = createUnencryptedRoutesSetting(store);
    expect(setting.allowed()).toBe(true);
    setting.set(false);
    expect(createUnencryptedRoutesSetting(store).allowed()).toBe(false);
    store.set('hubs:allow-unencrypted-routes', 'no');
    expect(setting.allowed()).toBe(true);
  });
});
