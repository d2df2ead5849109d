/**
 * Route trust against the real stack (docs/security.md, "Route trust"): a credential goes only to a hub that proved who
 * it is. Each attack is reproduced with a device that pretends to be the hub (test/support/
 * impostor-hub.ts) and the test asserts it received no credential, that the app still opened the hub
 * over a legitimate route, and what the route details say. Also: the user's refusal of unencrypted
 * routes, and the hub session ended on the hub at sign-out.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MdnsBrowser, MdnsService } from '../../../main/core/shared/ports';
import { PLAIN_ROUTES_REFUSED } from '../../../main/core/hubs/route-trust';
import { CERTIFICATE_NOT_THE_HUB } from '../../../main/core/shared/http';
import { createHostTransports } from '../../../main/trusted-fetch';
import { type RunningStack, startStack } from '../../../services/stack';
import { type ImpostorHub, startImpostorHub } from '../../support/impostor-hub';
import { signedInStackCore } from '../../support/stack-core';
import { readDevices } from '../../support/open-hub';

let stack: RunningStack;
let impostor: ImpostorHub;
const disposers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
});
afterEach(async () => {
  await Promise.all(disposers.splice(0).map((dispose) => dispose()));
  await impostor?.close();
});
afterAll(() => stack?.close());

const hubInfo = (name: string) => stack.info.hubs.find((hub) => hub.name === name)!;
function addressesOf(name: string) {
  const { id: _id, name: _name, ...addresses } = hubInfo(name);
  return addresses;
}

/** A signed-in core that trusts the stack CA, with an mDNS browser the test announces on. */
async function signedInCore() {
  let announce: (service: MdnsService) => void = () => {};
  const mdns: MdnsBrowser = {
    start(onUp) {
      announce = onUp;
      return () => {};
    },
  };
  const sent: { url: string; authorization?: string }[] = [];
  const transports = createHostTransports(stack.info.ca);
  const fetch: typeof globalThis.fetch = (input, init) => {
    sent.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') ?? undefined });
    return transports.fetch(input, init);
  };
  const core = await signedInStackCore(stack.info, { ...transports, fetch, mdns });
  disposers.push(() => core.dispose());
  return { core, announce: (service: MdnsService) => announce(service), sent };
}

describe('a credential goes only to a proven hub', () => {
  it('an impostor at the record’s stale plain LAN address gets nothing, the hub opens remotely, and the route details say why', async () => {
    impostor = await startImpostorHub();
    const home = addressesOf('Home');
    // The hub moved away; its old LAN address now belongs to another device, which echoes any id.
    stack.cloud.setHubAddresses(hubInfo('Home').id, { localUrlSecure: null, localUrl: impostor.url, remoteUrl: home.remoteUrl });
    try {
      const { core } = await signedInCore();
      const list = await readDevices(core, hubInfo('Home').id);
      expect(list.route).toBe('remote');
      expect(list.devices.length).toBeGreaterThan(0);
      expect(list.routeOutcomes[0]).toEqual({
        kind: 'local',
        outcome: 'refused',
        reason: expect.stringMatching(/did not prove it is Home \(it sent no signature\); Hubdesk sent it nothing/),
      });
      expect(impostor.requests()).toEqual(['/api/manager/system/ping']);
      expect(impostor.credentials()).toEqual([]);
    } finally {
      stack.cloud.setHubAddresses(hubInfo('Home').id, home);
    }
  });

  it('the real hub at its plain LAN address proves itself and is used once the secure route is gone', async () => {
    const home = addressesOf('Home');
    stack.cloud.setHubAddresses(hubInfo('Home').id, { ...home, localUrlSecure: null });
    try {
      const { core } = await signedInCore();
      const list = await readDevices(core, hubInfo('Home').id);
      expect(list.route).toBe('local');
    } finally {
      stack.cloud.setHubAddresses(hubInfo('Home').id, home);
    }
  });

  it('with unencrypted routes refused, the plain LAN address is not even asked, and the details say so', async () => {
    impostor = await startImpostorHub();
    const home = addressesOf('Home');
    stack.cloud.setHubAddresses(hubInfo('Home').id, { localUrlSecure: null, localUrl: impostor.url, remoteUrl: home.remoteUrl });
    try {
      const { core } = await signedInCore();
      await core.handlers['hubs.allowUnencryptedRoutes'](false);
      expect((await core.handlers['session.get']()).allowUnencryptedRoutes).toBe(false);
      const list = await readDevices(core, hubInfo('Home').id);
      expect(list.route).toBe('remote');
      expect(list.routeOutcomes[0]).toEqual({ kind: 'local', outcome: 'refused', reason: PLAIN_ROUTES_REFUSED });
      expect(impostor.requests()).toEqual([]);
    } finally {
      stack.cloud.setHubAddresses(hubInfo('Home').id, home);
    }
  });

  it('an mDNS announcement of a hub id is no route unless the TLS certificate there names that hub', async () => {
    impostor = await startImpostorHub();
    const cabin = hubInfo('Holiday cabin');
    const { core, announce } = await signedInCore();
    // A neighbour announces the cabin's id: a plain port (its impostor), and as "secure" port the Home
    // hub's, whose certificate is trusted (the same CA) but names Home, not the cabin.
    announce({
      name: 'Cabin?._hub._tcp.local',
      txt: { id: cabin.id, secure: new URL(hubInfo('Home').localUrlSecure!).port },
      addresses: ['127.0.0.1'],
      port: Number(new URL(impostor.url).port),
    });
    const list = await readDevices(core, cabin.id);
    expect(list.route).toBe('remote');
    expect(list.routeOutcomes).toEqual([
      { kind: 'local-secure', outcome: 'refused', reason: CERTIFICATE_NOT_THE_HUB, heardAt: `127.0.0.1:${new URL(hubInfo('Home').localUrlSecure!).port}` },
      { kind: 'remote', outcome: 'answered', rttMs: list.rttMs },
    ]);
    expect(impostor.requests()).toEqual([]); // the announced plain port is never a route
  });

  it('an mDNS-heard secure address whose certificate names the hub is used', async () => {
    const home = addressesOf('Home');
    stack.cloud.setHubAddresses(hubInfo('Home').id, { localUrlSecure: null, localUrl: null, remoteUrl: home.remoteUrl });
    try {
      const { core, announce } = await signedInCore();
      announce({
        name: 'Home._hub._tcp.local',
        txt: { id: hubInfo('Home').id, secure: new URL(home.localUrlSecure!).port },
        addresses: ['127.0.0.1'],
        port: Number(new URL(home.localUrl!).port),
      });
      const list = await readDevices(core, hubInfo('Home').id);
      expect(list.route).toBe('local-secure');
      expect(list.routeOutcomes.map((outcome) => outcome.kind)).toEqual(['local-secure', 'remote']);
    } finally {
      stack.cloud.setHubAddresses(hubInfo('Home').id, home);
    }
  });
});

describe('sign-out', () => {
  it('ends the hub session on the hub: its token is refused at once, not 24 hours later', async () => {
    const { core, sent } = await signedInCore();
    const home = hubInfo('Home');
    await readDevices(core, home.id);
    const devicesUrl = `${home.localUrlSecure}/api/manager/devices/device`;
    const authorization = sent.find((request) => request.url === devicesUrl)?.authorization;
    expect(authorization).toMatch(/^Bearer /);
    const transports = createHostTransports(stack.info.ca);
    const statusWith = async () => (await transports.fetch(devicesUrl, { headers: { authorization: authorization! } })).status;
    expect(await statusWith()).toBe(200);

    await core.handlers['auth.signOut']();
    await expect.poll(statusWith).toBe(401);
  });
});
