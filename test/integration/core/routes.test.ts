/**
 * Route choice against the real stack (docs/architecture.md, "Cloud and hubs"): the hub's secure LAN route with and without its
 * CA trusted, a secure route that accepts connections and never answers, a cloud-only hub, a hub
 * that moves, and a pinned route. What each test asserts is the route chosen and what the app says
 * about the others, never how long anything took.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTrustedFetch } from '../../../main/trusted-fetch';
import { type RunningStack, startStack } from '../../../services/stack';
import { memoryStore } from '../../support/core-fakes';
import { signedInStackCore } from '../../support/stack-core';
import { type SilentListener, startSilentListener } from '../../support/silent-listener';
import { readDevices } from '../../support/open-hub';

let stack: RunningStack;
let silent: SilentListener;
const disposers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 20 });
  silent = await startSilentListener();
});
afterEach(async () => {
  await Promise.all(disposers.splice(0).map((dispose) => dispose()));
});
afterAll(async () => {
  await silent?.close();
  await stack?.close();
});

/** A signed-in core whose fetch trusts the stack's CA, or only the system roots. */
async function signedInCore({ trustStackCa }: { trustStackCa: boolean }, store = memoryStore()) {
  const core = await signedInStackCore(stack.info, { store, fetch: createTrustedFetch(trustStackCa ? stack.info.ca : undefined) });
  disposers.push(() => core.dispose());
  const hubs = await core.handlers['hubs.list']();
  return { core, home: hubs.find((h) => h.name === 'Home')!, cabin: hubs.find((h) => h.name === 'Holiday cabin')! };
}

function homeAddresses() {
  const { id: _id, name: _name, ...addresses } = stack.info.hubs.find((h) => h.name === 'Home')!;
  return addresses;
}

describe('route choice against the stack', () => {
  it('takes the secure LAN route when the stack CA is trusted', async () => {
    const { core, home } = await signedInCore({ trustStackCa: true });
    const list = await readDevices(core, home.id);
    expect(list.route).toBe('local-secure');
    expect(list.routeOutcomes[0]).toMatchObject({ kind: 'local-secure', outcome: 'answered' });
    expect(list.routeOutcomes.map((o) => o.kind)).toEqual(['local-secure', 'local', 'remote']);
    expect(list.devices.length).toBeGreaterThanOrEqual(20);
  });

  it('without the CA, takes the plain LAN route and says the secure one has an untrusted certificate', async () => {
    const { core, home } = await signedInCore({ trustStackCa: false });
    const list = await readDevices(core, home.id);
    expect(list.route).toBe('local');
    expect(list.routeOutcomes[0]).toEqual({ kind: 'local-secure', outcome: 'refused', reason: 'untrusted certificate' });
  });

  it('a secure route that accepts and never answers does not hold up the listing: the remote route is used before its deadline, not the plain one', async () => {
    const { core, home } = await signedInCore({ trustStackCa: true });
    const addresses = homeAddresses();
    stack.cloud.setHubAddresses(home.id, { ...addresses, localUrlSecure: silent.url });
    try {
      await core.handlers['hubs.list'](); // the app reads the new addresses
      const before = silent.connections();
      const list = await readDevices(core, home.id);
      // The plain LAN route answered, but it is taken only once the secure one has failed (docs/security.md).
      expect(list.route).toBe('remote');
      expect(list.routeOutcomes[1]).toMatchObject({ kind: 'local', outcome: 'answered' });
      expect(silent.connections()).toBeGreaterThan(before); // the dead route was really tried
      // Still probing when the devices were listed: had the app waited for its deadline, it would say timed-out.
      expect(list.routeOutcomes[0]).toEqual({ kind: 'local-secure', outcome: 'pending' });
    } finally {
      stack.cloud.setHubAddresses(home.id, addresses);
    }
  });

  it('reaches a cloud-only hub on its remote route, the only one it has', async () => {
    const { core, cabin } = await signedInCore({ trustStackCa: true });
    const list = await readDevices(core, cabin.id);
    expect(list.route).toBe('remote');
    expect(list.routeOutcomes).toEqual([{ kind: 'remote', outcome: 'answered', rttMs: list.rttMs }]);
    expect(list.rttMs).toBeGreaterThanOrEqual(40); // the relay's 20 ms each way
  });

  it('recovers on the secure route after the hub moves', async () => {
    const { core, home } = await signedInCore({ trustStackCa: true });
    expect((await readDevices(core, home.id)).route).toBe('local-secure');
    await stack.relocateHub(home.id);
    const moved = await readDevices(core, home.id);
    expect(moved.route).toBe('local-secure');
    expect(moved.devices.length).toBeGreaterThanOrEqual(20);
  });

  it('a pinned route is used alone, survives a new core, and a dead pinned route fails clearly', async () => {
    const store = memoryStore();
    const first = await signedInCore({ trustStackCa: true }, store);
    await first.core.handlers['hubs.pinRoute'](first.home.id, 'remote');
    const pinned = await readDevices(first.core, first.home.id);
    expect(pinned.route).toBe('remote');
    expect(pinned.routeOutcomes.map((o) => o.kind)).toEqual(['remote']);

    const second = await signedInCore({ trustStackCa: true }, store);
    expect(second.home.pinnedRoute).toBe('remote');
    await second.core.handlers['hubs.pinRoute'](second.home.id, 'local-secure');
    const addresses = homeAddresses();
    stack.cloud.setHubAddresses(second.home.id, { ...addresses, localUrlSecure: 'https://127.0.0.1:1' });
    try {
      await second.core.handlers['hubs.list'](); // the app now knows the dead address
      await expect(readDevices(second.core, second.home.id)).rejects.toMatchObject({
        code: 'hub-unreachable',
        message: expect.stringMatching(/pinned \(Secure LAN\)/),
      });
    } finally {
      stack.cloud.setHubAddresses(second.home.id, addresses);
    }
  });
});
