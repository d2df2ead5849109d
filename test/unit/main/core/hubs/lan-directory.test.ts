import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HubRecord } from '../../../../../common/wire';
import type { HubClient } from '../../../../../main/core/hubs/hub-client';
import { createHubSessions } from '../../../../../main/core/hubs/hub-sessions';
import { createLanDirectory, parseLanHub } from '../../../../../main/core/hubs/lan-directory';
import type { MdnsBrowser, MdnsService } from '../../../../../main/core/shared/ports';
import { type Ping, type Route, createParallelPingSelector } from '../../../../../main/core/hubs/route-selection';
import { createRoutePins } from '../../../../../main/core/hubs/route-pins';
import { fakeHubClient, hubEverywhere, memoryStore, recordingLogger } from '../../../../support/core-fakes';

const HUB_ID = 'hub-3f9a6c1e2d7b4a58';

/** A browser the test speaks for: `up`/`down` as if the LAN had announced them. */
function fakeBrowser() {
  let onUp: (service: MdnsService) => void = () => {};
  let onDown: (service: MdnsService) => void = () => {};
  const stop = vi.fn();
  const browser: MdnsBrowser = {
    start(up, down) {
      onUp = up;
      onDown = down;
      return stop;
    },
  };
  return { browser, stop, up: (service: MdnsService) => onUp(service), down: (service: MdnsService) => onDown(service) };
}

function announcement(overrides: Partial<MdnsService> = {}): MdnsService {
  return {
    name: `Home ${HUB_ID}._hub._tcp.local`,
    txt: { id: HUB_ID, secure: '8443' },
    addresses: ['192.0.2.10', 'fd00::10', 'fe80::1'],
    port: 8080,
    ...overrides,
  };
}

describe('LAN directory', () => {
  it('turns an announcement into secure LAN routes whose certificate must name the hub, never into plain ones', () => {
    const lan = fakeBrowser();
    const directory = createLanDirectory(lan.browser, recordingLogger());
    lan.up(announcement());
    // The link-local address is dropped: without its zone it cannot be dialled. The plain port (8080) is no route.
    expect(directory.routes(HUB_ID)).toEqual([
      { kind: 'local-secure', baseUrl: 'https://192.0.2.10:8443', namedHub: HUB_ID },
      { kind: 'local-secure', baseUrl: 'https://[fd00::10]:8443', namedHub: HUB_ID },
    ]);
  });

  it('gives no route for an announcement without a secure port', () => {
    const lan = fakeBrowser();
    const directory = createLanDirectory(lan.browser, recordingLogger());
    lan.up(announcement({ txt: { id: HUB_ID } }));
    expect(directory.routes(HUB_ID)).toEqual([]);
  });

  it('gives a hub no routes announced under another id', () => {
    const lan = fakeBrowser();
    const directory = createLanDirectory(lan.browser, recordingLogger());
    lan.up(announcement({ name: 'Neighbour._hub._tcp.local', txt: { id: 'hub-of-the-neighbour', secure: '8443' } }));
    expect(directory.routes(HUB_ID)).toEqual([]);
    expect(directory.routes('hub-of-the-neighbour')).toHaveLength(2);
  });

  it.each([
    ['no TXT', { txt: undefined }],
    ['no id', { txt: { secure: '8443' } }],
    ['an id with a space', { txt: { id: 'hub 1' } }],
    ['an id with a control character', { txt: { id: 'hub\u0007' } }],
    ['an id over 200 characters', { txt: { id: 'h'.repeat(201) } }],
    ['a secure port that is not a number', { txt: { id: HUB_ID, secure: '84a3' } }],
    ['a secure port out of range', { txt: { id: HUB_ID, secure: '70000' } }],
    ['port 0', { port: 0 }],
    ['a port that is not a number', { port: '80; rm -rf' }],
    ['a host name instead of an address', { addresses: ['evil.example'] }],
    ['only a link-local address', { addresses: ['fe80::1'] }],
    ['addresses that are not a list', { addresses: '192.0.2.10' }],
  ])('ignores an announcement with %s, and logs it once', (_what, overrides) => {
    const lan = fakeBrowser();
    const logger = recordingLogger();
    const directory = createLanDirectory(lan.browser, logger);
    const heard = vi.fn();
    directory.onUp(heard);
    lan.up(announcement(overrides as Partial<MdnsService>));
    lan.up(announcement(overrides as Partial<MdnsService>));
    expect(directory.routes(HUB_ID)).toEqual([]);
    expect(heard).not.toHaveBeenCalled();
    expect(logger.lines.filter((line) => line.message === 'mdns: ignored a malformed hub announcement')).toHaveLength(1);
  });

  it('accepts an id of exactly 200 printable characters', () => {
    expect(parseLanHub(announcement({ txt: { id: 'h'.repeat(200) } }))).toMatchObject({ id: 'h'.repeat(200), securePort: null });
  });

  it('drops the routes of an instance that goes away, or whose TXT turns malformed', () => {
    const lan = fakeBrowser();
    const directory = createLanDirectory(lan.browser, recordingLogger());
    lan.up(announcement());
    lan.down(announcement());
    expect(directory.routes(HUB_ID)).toEqual([]);
    lan.up(announcement());
    lan.up(announcement({ txt: { id: '' } }));
    expect(directory.routes(HUB_ID)).toEqual([]);
  });

  it('tells listeners which hub came up, and stops the browser on stop', () => {
    const lan = fakeBrowser();
    const directory = createLanDirectory(lan.browser, recordingLogger());
    const heard = vi.fn();
    directory.onUp(heard);
    lan.up(announcement());
    expect(heard).toHaveBeenCalledWith(HUB_ID);
    directory.stop();
    expect(lan.stop).toHaveBeenCalledOnce();
    expect(directory.routes(HUB_ID)).toEqual([]);
  });
});

const REMOTE = 'https://remote.test';
const MDNS_LAN = 'https://192.0.2.10:8443';
const REMOTE_ONLY: HubRecord = { _id: HUB_ID, name: 'Home', platform: 'local', localUrlSecure: null, localUrl: null, remoteUrl: REMOTE };

describe('route selection with mDNS candidates', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Every address answers after `rtt[url]` fake ms; the ones not listed never answer. */
  const pingAfter =
    (rtt: Record<string, number>): Ping =>
    ({ baseUrl: url }) =>
      new Promise((resolve) => {
        if (rtt[url] !== undefined) setTimeout(() => resolve({ kind: 'hub' }), rtt[url]);
      });

  it('takes the LAN address mDNS heard when the record lists only the remote one', async () => {
    const probed: string[] = [];
    const ping = pingAfter({ [MDNS_LAN]: 5, [REMOTE]: 80 });
    const selector = createParallelPingSelector(
      (route, hub, signal) => {
        probed.push(route.baseUrl);
        return ping(route, hub, signal);
      },
      { deadlineMs: 2_000, lanRoutes: (hubId): Route[] => (hubId === HUB_ID ? [{ kind: 'local-secure', baseUrl: MDNS_LAN, namedHub: HUB_ID }] : []) },
    );
    const selecting = selector.select(REMOTE_ONLY);
    await vi.advanceTimersByTimeAsync(250);
    const selection = await selecting;
    expect(selection?.route).toEqual({ kind: 'local-secure', baseUrl: MDNS_LAN, namedHub: HUB_ID });
    expect(probed).toEqual([MDNS_LAN, REMOTE]);
  });

  it('probes no mDNS route when the user pinned the remote one', async () => {
    const probed: string[] = [];
    const selector = createParallelPingSelector(
      (route, hub, signal) => {
        probed.push(route.baseUrl);
        return pingAfter({ [MDNS_LAN]: 5, [REMOTE]: 80 })(route, hub, signal);
      },
      { deadlineMs: 2_000, lanRoutes: () => [{ kind: 'local-secure', baseUrl: MDNS_LAN, namedHub: HUB_ID }] },
    );
    const selecting = selector.select(REMOTE_ONLY, { only: 'remote' });
    await vi.advanceTimersByTimeAsync(600);
    expect((await selecting)?.route.kind).toBe('remote');
    expect(probed).toEqual([REMOTE]);
  });
});

describe('hub sessions when mDNS hears the hub', () => {
  it('moves an open session to the LAN route without a new login', async () => {
    const lan = fakeBrowser();
    const directory = createLanDirectory(lan.browser, recordingLogger());
    const used: string[] = [];
    let logins = 0;
    const hubClient: HubClient = fakeHubClient({
      login: async () => ({ kind: 'ok', value: `session-${++logins}` }),
      devices: async ({ baseUrl: url }, token) => {
        used.push(`${url} ${token}`);
        return { kind: 'ok', value: {} };
      },
    });
    const sessions = createHubSessions({
      cloud: { getUser: async () => ({ _id: 'u', email: 'e', firstname: 'f', lastname: 'l', hubs: [REMOTE_ONLY] }), delegationToken: async () => 'delegation' },
      hubClient,
      // No graces: every route answers at once, so the preference order alone decides.
      routes: createParallelPingSelector(hubEverywhere, { remoteGraceMs: 0, lanRoutes: (hubId) => directory.routes(hubId) }),
      pins: createRoutePins(memoryStore()),
      clock: { now: () => 0 },
      logger: recordingLogger(),
    });
    directory.onUp((hubId) => void sessions.reselect(hubId));

    expect((await sessions.devices(HUB_ID)).route).toBe('remote');
    lan.up(announcement());
    await sessions.reselect(HUB_ID); // the same re-selection the listener started; awaited so the move has happened
    expect((await sessions.devices(HUB_ID)).route).toBe('local-secure');
    expect(used).toEqual([`${REMOTE} session-1`, `${MDNS_LAN} session-1`]);
    expect(logins).toBe(1);
  });
});
