import { describe, expect, it, vi } from 'vitest';
import type { CloudClient } from '../../../../../main/core/sign-in/cloud-client';
import type { HubClient } from '../../../../../main/core/hubs/hub-client';
import { createHubSessions } from '../../../../../main/core/hubs/hub-sessions';
import type { HttpOutcome } from '../../../../../main/core/shared/http';
import { type Route, type RouteSelector, type SelectOptions, createParallelPingSelector } from '../../../../../main/core/hubs/route-selection';
import type { DeviceMap, HubRecord } from '../../../../../common/wire';
import { createRoutePins, ROUTE_PINS_KEY } from '../../../../../main/core/hubs/route-pins';
import { fakeHubClient, hubEverywhere, memoryStore, recordingLogger } from '../../../../support/core-fakes';

const DEVICES: DeviceMap = { d1: { id: 'd1', name: 'Lamp', class: 'light', capabilities: ['onoff'] } };

function hub(addresses: Partial<HubRecord> = {}): HubRecord {
  return { _id: 'hub-1', name: 'Home', platform: 'local', localUrl: 'http://lan.test', localUrlSecure: null, remoteUrl: 'https://remote.test', ...addresses };
}

/** A fake hub that answers on `reachable` addresses and accepts only sessions it issued and did not expire. */
function setup(initial: HubRecord, store = memoryStore()) {
  let record = initial;
  const reachable = new Set<string>(['http://lan.test', 'https://remote.test']);
  const live = new Set<string>();
  let logins = 0;
  let userReads = 0;
  const cloud: CloudClient = {
    getUser: vi.fn(async () => {
      userReads++;
      return { _id: 'u', email: 'e', firstname: 'f', lastname: 'l', hubs: [record] };
    }),
    delegationToken: vi.fn(async () => 'delegation'),
  };
  const down = (url: string): HttpOutcome<never> | null => (reachable.has(url) ? null : { kind: 'network', detail: 'ECONNREFUSED' });
  const hubClient: HubClient = fakeHubClient({
    login: async ({ baseUrl: url }) => {
      logins++;
      const token = `session-${logins}`;
      live.add(token);
      return down(url) ?? { kind: 'ok', value: token };
    },
    devices: async ({ baseUrl: url }, token) => down(url) ?? (live.has(token) ? { kind: 'ok', value: DEVICES } : { kind: 'status', status: 401, error: null }),
  });
  const sessions = createHubSessions({
    cloud,
    hubClient,
    routes: createParallelPingSelector(async ({ baseUrl }) => (reachable.has(baseUrl) ? { kind: 'hub' } : { kind: 'failed', detail: 'ECONNREFUSED' })),
    pins: createRoutePins(store),
    clock: { now: () => 0 },
    logger: recordingLogger(),
  });
  return {
    sessions,
    reachable,
    expireAll: () => live.clear(),
    move: (next: HubRecord) => (record = next),
    logins: () => logins,
    userReads: () => userReads,
  };
}

describe('hub sessions', () => {
  it('lists hubs with the routes they have', async () => {
    const { sessions } = setup(hub());
    expect(await sessions.list()).toEqual([
      { id: 'hub-1', name: 'Home', platform: 'local', routes: { 'local-secure': false, local: true, remote: true }, pinnedRoute: null },
    ]);
  });

  it('names the user’s hubs from the last read of them, through forgotten routes, until sign-out', async () => {
    const { sessions } = setup(hub());
    expect(sessions.hubName('hub-1')).toBeUndefined();
    await sessions.devices('hub-1'); // reading a hub reads the user's hubs too
    expect(sessions.hubName('hub-1')).toBe('Home');
    expect(sessions.hubName('hub-2')).toBeUndefined();
    sessions.forgetRoutes();
    expect(sessions.hubName('hub-1')).toBe('Home');
    await sessions.clear();
    expect(sessions.hubName('hub-1')).toBeUndefined();
  });

  it('prefers the LAN address and caches one session per hub', async () => {
    const { sessions, logins } = setup(hub());
    const [a, b] = await Promise.all([sessions.devices('hub-1'), sessions.devices('hub-1')]);
    await sessions.devices('hub-1');
    expect(a.route).toBe('local');
    expect(b.devices).toEqual([DEVICES.d1]);
    expect(logins()).toBe(1);
  });

  it('a hub 401 leads to one new session and a retry', async () => {
    const { sessions, logins, expireAll } = setup(hub());
    await sessions.devices('hub-1');
    expireAll();
    const list = await sessions.devices('hub-1');
    expect(list.devices).toHaveLength(1);
    expect(logins()).toBe(2);
  });

  it('gives up with hub-session-lost when the new session is refused too', async () => {
    const { sessions, logins } = alwaysAnswering({ kind: 'status', status: 401, error: null });
    await expect(sessions.devices('hub-1')).rejects.toMatchObject({ code: 'hub-session-lost' });
    expect(logins()).toBe(2);
  });

  it('falls back to the remote address when the LAN one is down', async () => {
    const { sessions, reachable } = setup(hub());
    reachable.delete('http://lan.test');
    expect((await sessions.devices('hub-1')).route).toBe('remote');
  });

  it('re-reads the addresses from the cloud when none answers', async () => {
    const { sessions, reachable, move, userReads } = setup(hub({ remoteUrl: null }));
    await sessions.devices('hub-1');
    reachable.delete('http://lan.test'); // the hub moved
    reachable.add('http://new-lan.test');
    move(hub({ localUrl: 'http://new-lan.test', remoteUrl: null }));
    const reads = userReads();
    const list = await sessions.devices('hub-1');
    expect(list.route).toBe('local');
    expect(userReads()).toBeGreaterThan(reads);
  });

  it('reports an unreachable hub clearly once every address failed, even after re-reading', async () => {
    const { sessions, reachable } = setup(hub());
    reachable.clear();
    await expect(sessions.devices('hub-1')).rejects.toMatchObject({ code: 'hub-unreachable', message: expect.stringContaining('Home') });
  });

  it('moves a session to a better route when one answers later, keeping its token', async () => {
    const remote: Route = { kind: 'remote', baseUrl: 'https://remote.test' };
    const lan: Route = { kind: 'local', baseUrl: 'http://lan.test' };
    let watch: SelectOptions = {};
    const routes: RouteSelector = {
      select: async (_hub, options = {}) => {
        watch = options;
        return { route: remote, rttMs: 80, outcomes: [] };
      },
    };
    const calls: string[] = [];
    const sessions = createHubSessions({
      cloud: { getUser: async () => ({ _id: 'u', email: '', firstname: '', lastname: '', hubs: [hub()] }), delegationToken: async () => 'd' },
      hubClient: fakeHubClient({
        login: async () => ({ kind: 'ok', value: 'the-session' }),
        devices: async ({ baseUrl: url }, token) => {
          calls.push(`${url} ${token}`);
          return { kind: 'ok', value: DEVICES };
        },
      }),
      routes,
      pins: createRoutePins(memoryStore()),
      clock: { now: () => 0 },
      logger: recordingLogger(),
    });
    expect((await sessions.devices('hub-1')).route).toBe('remote');
    watch.onBetter?.({ route: lan, rttMs: 3, outcomes: [] });
    expect((await sessions.devices('hub-1')).route).toBe('local');
    expect(calls).toEqual(['https://remote.test the-session', 'http://lan.test the-session']);
    await sessions.clear();
    expect(watch.signal?.aborted).toBe(true); // a signed-out session stops looking for better routes
  });

  it('reports a hub that left the account', async () => {
    const { sessions } = setup(hub());
    await expect(sessions.devices('other-hub')).rejects.toMatchObject({ code: 'hub-not-found' });
  });

  it('maps a 403 to forbidden without retrying', async () => {
    const { sessions, logins } = alwaysAnswering({ kind: 'status', status: 403, error: { error: 'insufficient_scope' } });
    await expect(sessions.devices('hub-1')).rejects.toMatchObject({ code: 'forbidden' });
    expect(logins()).toBe(1);
  });
});

describe('route details and pinning', () => {
  it('reports the route in use, its round trip and what every other route did', async () => {
    const { sessions, reachable } = setup(hub({ localUrlSecure: 'https://lan-secure.test' }));
    reachable.delete('https://lan-secure.test');
    const list = await sessions.devices('hub-1');
    expect(list.route).toBe('local');
    expect(list.routeOutcomes).toEqual([
      { kind: 'local-secure', outcome: 'refused', reason: 'ECONNREFUSED' }, // as the fake ping said it
      { kind: 'local', outcome: 'answered', rttMs: expect.any(Number) },
      expect.objectContaining({ kind: 'remote' }),
    ]);
  });

  it('uses only the pinned route, remembers the pin in the store, and drops the old session', async () => {
    const store = memoryStore();
    const { sessions, logins } = setup(hub(), store);
    expect((await sessions.devices('hub-1')).route).toBe('local');
    sessions.pinRoute('hub-1', 'remote');
    const pinned = await sessions.devices('hub-1');
    expect(pinned.route).toBe('remote');
    expect(pinned.routeOutcomes.map((o) => o.kind)).toEqual(['remote']);
    expect(logins()).toBe(2);
    expect((await sessions.list())[0]?.pinnedRoute).toBe('remote');

    const restarted = setup(hub(), store); // a new core reads the pin from the settings
    expect((await restarted.sessions.devices('hub-1')).route).toBe('remote');
    restarted.sessions.pinRoute('hub-1', null);
    expect((await restarted.sessions.devices('hub-1')).route).toBe('local');
  });

  it('does not keep a session whose login started before the route was pinned', async () => {
    const { sessions } = setup(hub());
    const before = sessions.devices('hub-1'); // selecting and logging in on the LAN route
    sessions.pinRoute('hub-1', 'remote');
    expect((await before).route).toBe('local');
    expect((await sessions.devices('hub-1')).route).toBe('remote');
  });

  it('says so when the pinned route does not answer, without falling back to another', async () => {
    const { sessions, reachable } = setup(hub());
    sessions.pinRoute('hub-1', 'remote');
    reachable.delete('https://remote.test');
    await expect(sessions.devices('hub-1')).rejects.toMatchObject({ code: 'hub-unreachable', message: expect.stringMatching(/pinned \(Remote\).*Automatic/) });
  });

  it('a pin to a route the hub has no address for fails clearly', async () => {
    const { sessions } = setup(hub());
    sessions.pinRoute('hub-1', 'local-secure');
    await expect(sessions.devices('hub-1')).rejects.toMatchObject({ code: 'hub-unreachable', message: expect.stringMatching(/Secure LAN/) });
  });
});

describe('route pins', () => {
  it('reads a malformed stored value as no pins and never keeps an invalid one', () => {
    const store = memoryStore({ [ROUTE_PINS_KEY]: { 'hub-1': 'carrier-pigeon' } });
    const pins = createRoutePins(store);
    expect(pins.get('hub-1')).toBeNull();
    pins.set('hub-2', 'local');
    expect(store.get(ROUTE_PINS_KEY)).toEqual({ 'hub-2': 'local' });
    expect(pins.get('toString')).toBeNull();
  });
});

/** A hub that accepts every login and answers every device list with `outcome`. */
function alwaysAnswering(outcome: HttpOutcome<DeviceMap>) {
  let logins = 0;
  const sessions = createHubSessions({
    cloud: { getUser: async () => ({ _id: 'u', email: '', firstname: '', lastname: '', hubs: [hub()] }), delegationToken: async () => 'd' },
    hubClient: fakeHubClient({ login: async () => ({ kind: 'ok', value: `s${++logins}` }), devices: async () => outcome }),
    routes: createParallelPingSelector(hubEverywhere),
    pins: createRoutePins(memoryStore()),
    clock: { now: () => 0 },
    logger: recordingLogger(),
  });
  return { sessions, logins: () => logins };
}
