import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../../../common/app-error';
import type { InsightsEntries, InsightsLog, InsightsLogMap } from '../../../../../common/insights';
import { invokeContract } from '../../../../../common/ipc-contract';
import type { HubClient } from '../../../../../main/core/hubs/hub-client';
import type { HttpOutcome } from '../../../../../main/core/shared/http';
import { createInsights, deviceLogs, toSeries } from '../../../../../main/core/hubs/insights';
import { fakeHubClient, sessionsOnOneHub } from '../../../../support/core-fakes';

const log = (ownerUri: string, id: string, type: InsightsLog['type'] = 'number'): InsightsLog => ({
  id,
  ownerUri,
  ownerId: ownerUri.split(':').pop()!,
  title: id,
  type,
  units: type === 'number' ? '°C' : null,
  decimals: type === 'number' ? 1 : null,
  lastValue: null,
});

const ENTRIES: InsightsEntries = {
  start: '2026-01-01T00:00:00.000Z',
  end: '2026-01-01T00:03:30.000Z',
  step: 60_000,
  values: [
    { t: '2026-01-01T00:00:00.000Z', v: 20.5 },
    { t: '2026-01-01T00:01:00.000Z', v: null },
    { t: '2026-01-01T00:01:00.000Z', v: 99 }, // the same step again: dropped, times must rise
    { t: '2026-01-01T00:02:00.000Z', v: true },
    { t: '2026-01-01T00:03:00.000Z', v: false },
  ],
};

describe('what the window gets of a hub history', () => {
  it('names each device log by device and capability, whichever id form the hub uses, and leaves out logs of anything else', () => {
    const map: InsightsLogMap = {
      a: log('homey:device:thermo', 'homey:device:thermo:measure_temperature'),
      b: log('homey:device:door', 'alarm_contact', 'boolean'),
      c: log('homey:device:meter', 'meter_power'),
      d: log('homey:app:weather', 'homey:app:weather:temperature'),
      e: log('homey:device:odd', 'homey:device:other:measure_power'), // another device's id: not one capability
    };
    expect(deviceLogs(map).map(({ deviceId, capabilityId, aggregation }) => [deviceId, capabilityId, aggregation])).toEqual([
      ['door', 'alarm_contact', 'any'],
      ['meter', 'meter_power', 'last'],
      ['thermo', 'measure_temperature', 'mean'],
    ]);
  });

  it('turns entries into rising epoch ms and numbers (booleans 1/0, gaps null)', () => {
    expect(toSeries(ENTRIES)).toEqual({
      start: Date.parse(ENTRIES.start),
      end: Date.parse(ENTRIES.end),
      step: 60_000,
      times: [0, 1, 2, 3].map((minute) => Date.parse('2026-01-01T00:00:00.000Z') + minute * 60_000),
      values: [20.5, null, 1, 0],
    });
  });

  it('a hub that refuses the history (403) or keeps none (404) is an answer with a sentence, not a failure', async () => {
    const refused = createInsights(
      { insightsLogs: async () => Promise.reject(new AppError('forbidden', 'Not granted.')), insightsEntries: vi.fn() },
      () => 'Home',
    );
    expect(await refused.logs('hub-1')).toEqual({ status: 'unavailable', hubId: 'hub-1', reason: 'Not granted.' });
    const none = createInsights({ insightsLogs: async () => null, insightsEntries: async () => null }, () => 'Home');
    expect(await none.logs('hub-1')).toEqual({ status: 'unavailable', hubId: 'hub-1', reason: 'Home keeps no history of its devices.' });
    await expect(none.series('hub-1', { deviceId: 'd', capabilityId: 'c', resolution: 'lastHour' })).rejects.toMatchObject({ code: 'invalid-argument' });
    const broken = createInsights(
      { insightsLogs: async () => Promise.reject(new AppError('hub-unreachable', 'Gone.')), insightsEntries: vi.fn() },
      () => 'Home',
    );
    await expect(broken.logs('hub-1')).rejects.toMatchObject({ code: 'hub-unreachable' });
  });
});

const HOME = { _id: 'hub-1', name: 'Home', platform: 'local' as const, localUrl: 'http://lan.test', localUrlSecure: null, remoteUrl: null };

/** Sessions on a hub whose insights answer `answer` for a live session and 401 otherwise. */
function sessionsWith(answer: { logs?: HttpOutcome<InsightsLogMap>; entries?: HttpOutcome<InsightsEntries> }) {
  const live = new Set<string>();
  const calls: { uri: string; id: string; resolution: string }[] = [];
  let logins = 0;
  const guard = <T>(token: string, outcome: HttpOutcome<T>): HttpOutcome<T> => (live.has(token) ? outcome : { kind: 'status', status: 401, error: null });
  const hubClient: HubClient = fakeHubClient({
    login: async () => {
      const token = `session-${++logins}`;
      live.add(token);
      return { kind: 'ok', value: token };
    },
    devices: async () => ({ kind: 'ok', value: {} }),
    insightsLogs: async (_at, token) => guard(token, answer.logs ?? { kind: 'ok', value: {} }),
    insightsEntries: async (_at, token, uri, id, resolution) => (
      calls.push({ uri, id, resolution }),
      guard(token, answer.entries ?? { kind: 'ok', value: ENTRIES })
    ),
  });
  const sessions = sessionsOnOneHub(hubClient, HOME);
  return { sessions, calls, expireAll: () => live.clear(), logins: () => logins };
}

describe('insights calls on the hub session', () => {
  it('asks for the log by its owner and full id with the resolution; an expired session is replaced once', async () => {
    const { sessions, calls, expireAll, logins } = sessionsWith({});
    expect(await sessions.insightsEntries('hub-1', 'thermo', 'measure_temperature', 'last7Days')).toEqual(ENTRIES);
    expireAll();
    await sessions.insightsEntries('hub-1', 'thermo', 'measure_temperature', 'last7Days');
    expect(logins()).toBe(2);
    expect(calls.at(-1)).toEqual({ uri: 'homey:device:thermo', id: 'homey:device:thermo:measure_temperature', resolution: 'last7Days' });
  });

  it('404 is null (no history), 403 a forbidden error naming the hub', async () => {
    expect(await sessionsWith({ logs: { kind: 'status', status: 404, error: null } }).sessions.insightsLogs('hub-1')).toBeNull();
    expect(await sessionsWith({ entries: { kind: 'status', status: 404, error: null } }).sessions.insightsEntries('hub-1', 'd', 'c', 'lastHour')).toBeNull();
    const refused = sessionsWith({ logs: { kind: 'status', status: 403, error: { error: 'insufficient_scope' } } }).sessions;
    await expect(refused.insightsLogs('hub-1')).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/history of Home/) });
  });

  it('an answer that fails the schema is an error, never passed on', async () => {
    const { sessions } = sessionsWith({ entries: { kind: 'malformed', detail: 'values.0.t: Invalid ISO datetime' } });
    await expect(sessions.insightsEntries('hub-1', 'd', 'c', 'lastHour')).rejects.toMatchObject({ code: 'hub-session-lost' });
  });
});

describe('the insights verbs check their arguments', () => {
  const args = (channel: 'insights.logs' | 'insights.series', value: unknown[]) => invokeContract[channel].args.safeParse(value).success;

  it('accepts a hub and a known resolution', () => {
    expect(args('insights.logs', ['hub-1'])).toBe(true);
    expect(args('insights.series', ['hub-1', { deviceId: 'd', capabilityId: 'measure_power', resolution: 'lastYear' }])).toBe(true);
  });

  it.each([
    ['an unknown resolution', ['hub-1', { deviceId: 'd', capabilityId: 'c', resolution: 'lastDecade' }]],
    ['an empty device id', ['hub-1', { deviceId: '', capabilityId: 'c', resolution: 'lastHour' }]],
    ['an extra field', ['hub-1', { deviceId: 'd', capabilityId: 'c', resolution: 'lastHour', url: 'http://elsewhere' }]],
    ['a missing request', ['hub-1']],
    ['a capability id too long', ['hub-1', { deviceId: 'd', capabilityId: 'x'.repeat(201), resolution: 'lastHour' }]],
  ])('refuses %s', (_name, value) => {
    expect(args('insights.series', value)).toBe(false);
  });
});
