import { describe, expect, it } from 'vitest';
import type { CapabilityEventData, FlowMap, SessionInfo } from '../../../../../common/hub-control';
import type { DeviceMap, HubRecord } from '../../../../../common/wire';
import type { HubClient } from '../../../../../main/core/hubs/hub-client';
import { permissionsFromScopes } from '../../../../../main/core/hubs/hub-permissions';
import type { HttpOutcome } from '../../../../../main/core/shared/http';
import { fakeHubClient, sessionsOnOneHub } from '../../../../support/core-fakes';

const HOME: HubRecord = { _id: 'hub-1', name: 'Home', platform: 'local', localUrl: 'http://lan.test', localUrlSecure: null, remoteUrl: null };
const DEVICES: DeviceMap = { spots: { id: 'spots', name: 'Kitchen spots', class: 'light', capabilities: ['dim'] } };
const STORED: CapabilityEventData = { capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: '2026-01-01T00:00:00Z' };

/**
 * A hub that issues sessions and expires them on demand; every control call answers `answer` for a
 * live session and 401 otherwise. Counts logins and calls.
 */
function setup(
  answer: {
    setCapability?: HttpOutcome<CapabilityEventData>;
    trigger?: HttpOutcome<{ id: string; triggeredAt: string }>;
    sessionInfo?: HttpOutcome<SessionInfo>;
  } = {},
) {
  const live = new Set<string>();
  const counts = { logins: 0, sessionInfo: 0, set: 0, trigger: 0 };
  const guard = <T>(token: string, outcome: HttpOutcome<T>): HttpOutcome<T> => (live.has(token) ? outcome : { kind: 'status', status: 401, error: null });
  const hubClient: HubClient = fakeHubClient({
    login: async () => {
      const token = `session-${++counts.logins}`;
      live.add(token);
      return { kind: 'ok', value: token };
    },
    devices: async (_url, token) => guard(token, { kind: 'ok', value: DEVICES }),
    sessionInfo: async (_url, token) => (
      counts.sessionInfo++,
      guard(token, answer.sessionInfo ?? { kind: 'ok', value: { scopes: ['devices', 'flow.start'], expiresAt: 'x' } })
    ),
    setCapability: async (_url, token) => (counts.set++, guard(token, answer.setCapability ?? { kind: 'ok', value: STORED })),
    flows: async (_url, token) =>
      guard<FlowMap>(token, { kind: 'ok', value: { b: { id: 'b', name: 'Bedtime', enabled: true }, a: { id: 'a', name: 'Away', enabled: false } } }),
    triggerFlow: async (_url, token) => (counts.trigger++, guard(token, answer.trigger ?? { kind: 'ok', value: { id: 'a', triggeredAt: 'now' } })),
  });
  const sessions = sessionsOnOneHub(hubClient, HOME);
  return { sessions, counts, expireAll: () => live.clear() };
}

const SET = { deviceId: 'spots', capabilityId: 'dim', value: 1.5, transactionId: 'tx-1' };

describe('control calls on a hub session', () => {
  it('sets a capability and returns what the hub stored; an expired session is replaced once', async () => {
    const { sessions, counts, expireAll } = setup();
    expect(await sessions.setCapability('hub-1', SET)).toEqual(STORED);
    expireAll();
    expect(await sessions.setCapability('hub-1', SET)).toEqual(STORED);
    expect(counts.logins).toBe(2);
    expect(counts.set).toBe(3);
  });

  it("a refused value comes back with the hub's reason, named after the device", async () => {
    const { sessions } = setup({
      setCapability: { kind: 'status', status: 400, error: { error: 'invalid_value', error_description: 'the value 1.5 is above the maximum 1' } },
    });
    await sessions.devices('hub-1'); // the device names are known from the list
    await expect(sessions.setCapability('hub-1', SET)).rejects.toMatchObject({
      code: 'invalid-argument',
      message: 'Kitchen spots: the value 1.5 is above the maximum 1',
    });
  });

  it('a 403 says which access is missing and is not retried', async () => {
    const { sessions, counts } = setup({ setCapability: { kind: 'status', status: 403, error: { error: 'insufficient_scope' } } });
    await expect(sessions.setCapability('hub-1', SET)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/read-only access to Home/) });
    expect(counts.set).toBe(1);
  });

  it('lists flows sorted by name with whether they may be started', async () => {
    const { sessions } = setup({ sessionInfo: { kind: 'ok', value: { scopes: ['devices', 'flow.readonly'], expiresAt: 'x' } } });
    const list = await sessions.flows('hub-1');
    expect(list.flows.map((f) => f.name)).toEqual(['Away', 'Bedtime']);
    expect(list.canStart).toBe(false);
  });

  it('starting a flow is not sent twice when the connection drops (it may have arrived)', async () => {
    const { sessions, counts } = setup({ trigger: { kind: 'network', detail: 'ECONNRESET' } });
    await expect(sessions.triggerFlow('hub-1', 'a')).rejects.toMatchObject({ code: 'hub-unreachable' });
    expect(counts.trigger).toBe(1);
  });

  it('reads permissions once per session and again after a new session', async () => {
    const { sessions, counts, expireAll } = setup({ sessionInfo: { kind: 'ok', value: { scopes: ['devices.readonly'], expiresAt: 'x' } } });
    const first = await sessions.devices('hub-1');
    await sessions.devices('hub-1');
    expect(first.permissions).toMatchObject({ control: false, flows: 'none', reason: expect.stringMatching(/read-only access to Home/) });
    expect(counts.sessionInfo).toBe(1);
    expireAll();
    // The list and the permissions are read in parallel: the call that meets the expiry still answers
    // with the permissions read for the old session; the next one reads the new session's.
    await sessions.devices('hub-1');
    await sessions.devices('hub-1');
    expect(counts.sessionInfo).toBe(2);
    expect(counts.logins).toBe(2);
  });

  it('a hub without session/me is assumed to allow everything', async () => {
    const { sessions } = setup({ sessionInfo: { kind: 'status', status: 404, error: null } });
    expect((await sessions.devices('hub-1')).permissions).toEqual({ control: true, flows: 'start' });
  });

  it('gives the live channel the current session and drops exactly the one it reports expired', async () => {
    const { sessions, counts } = setup();
    const first = await sessions.liveEndpoint('hub-1');
    expect(first).toEqual({ baseUrl: 'http://lan.test', route: 'local', token: 'session-1' });
    sessions.expire('hub-1', 'some-older-token');
    expect((await sessions.liveEndpoint('hub-1')).token).toBe('session-1');
    sessions.expire('hub-1', 'session-1');
    expect((await sessions.liveEndpoint('hub-1')).token).toBe('session-2');
    expect(counts.logins).toBe(2);
  });
});

describe('permissions from scopes', () => {
  it.each([
    [['devices', 'flow.start'], { control: true, flows: 'start' }],
    [['devices', 'flow.readonly'], { control: true, flows: 'read', reason: expect.stringMatching(/may not start flows on Home/) }],
    [['devices.readonly', 'flow.readonly', 'something.new'], { control: false, flows: 'read', reason: expect.stringMatching(/read-only access to Home/) }],
    [[], { control: false, flows: 'none', reason: expect.any(String) }],
  ])('%j', (scopes, expected) => {
    expect(permissionsFromScopes(scopes, 'Home')).toEqual(expected);
  });
});
