/**
 * The hub's insights routes over real sockets, with sessions from a real cloud: the log list, entries
 * at every resolution (full and bare ids, raw and encoded colons), the default resolution, refusals
 * (bad resolution, unknown log, no session, a session without insights.readonly), and a change made
 * through the control API showing in the next answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceLogId,
  deviceLogUri,
  INSIGHTS_RESOLUTION_NAMES,
  INSIGHTS_RESOLUTIONS,
  InsightsEntriesSchema,
  InsightsLogMapSchema,
} from '../../../common/insights';
import type { RunningCloud } from '../../../services/cloud/cloud';
import { createDemoHome, type DemoHome } from '../../../services/hub/demo-home';
import { type RunningHub, startHub } from '../../../services/hub/hub';
import { expectError, FULL, openSession, READONLY, startTestCloud } from './hub-fixture';

let cloud: RunningCloud;
let hub: RunningHub;
let home: DemoHome;
let full: string;
let readonly: string;
const deviceId = (name: string) => Object.values(home.devices()).find((device) => device.name === name)!.id;
const get = (path: string, session: string | null = full) => fetch(`${hub.url}${path}`, { headers: session ? { authorization: `Bearer ${session}` } : {} });
const entryPath = (uri: string, id: string, query = '') => `/api/manager/insights/log/${uri}/${id}/entry${query}`;

beforeAll(async () => {
  cloud = await startTestCloud(['h1']);
  home = createDemoHome('home');
  hub = await startHub({ id: 'h1', name: 'Home', cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home });
  [full, readonly] = await Promise.all([openSession(cloud.url, hub.url, FULL, 'h1'), openSession(cloud.url, hub.url, READONLY, 'h1')]);
});
afterAll(async () => {
  await Promise.all([hub?.close(), cloud?.close()]);
});

describe('GET /api/manager/insights/log', () => {
  it('lists every numeric and boolean capability as a log keyed by id, uncached', async () => {
    const response = await get('/api/manager/insights/log');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const logs = InsightsLogMapSchema.parse(await response.json());
    const thermostat = deviceId('Bedroom thermostat');
    expect(logs[deviceLogId(thermostat, 'target_temperature')]).toMatchObject({
      ownerUri: deviceLogUri(thermostat),
      ownerId: thermostat,
      title: 'Target temperature',
      type: 'number',
      units: '°C',
      decimals: 1,
      lastValue: 18,
    });
    expect(logs[deviceLogId(deviceId('Front door sensor'), 'alarm_contact')]).toMatchObject({ type: 'boolean', lastValue: false });
    expect(logs[deviceLogId(thermostat, 'thermostat_mode')]).toBeUndefined();
    for (const [id, log] of Object.entries(logs)) expect(log.id).toBe(id);
  });
});

describe('GET /api/manager/insights/log/<uri>/<id>/entry', () => {
  const uri = () => deviceLogUri(deviceId('Bathroom climate sensor'));

  it.each(INSIGHTS_RESOLUTION_NAMES)('answers %s with one entry per step of its window', async (resolution) => {
    const response = await get(entryPath(uri(), `${uri()}:measure_temperature`, `?resolution=${resolution}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const entries = InsightsEntriesSchema.parse(await response.json());
    const { windowMs, stepMs } = INSIGHTS_RESOLUTIONS[resolution];
    expect(entries.step).toBe(stepMs);
    expect(entries.values).toHaveLength(windowMs / stepMs);
    expect(Date.parse(entries.values.at(-1)!.t)).toBeLessThanOrEqual(Date.parse(entries.end));
    expect(Date.parse(entries.values.at(-1)!.t)).toBeGreaterThan(Date.parse(entries.end) - stepMs);
    // The backfilled history: a value in every step.
    expect(entries.values.every(({ v }) => typeof v === 'number')).toBe(true);
  });

  it('reads lastHour without a resolution, and takes the bare capability id and encoded colons alike', async () => {
    const full = InsightsEntriesSchema.parse(await (await get(entryPath(uri(), `${uri()}:measure_humidity`))).json());
    expect(full.step).toBe(INSIGHTS_RESOLUTIONS.lastHour.stepMs);
    expect(full.values).toHaveLength(60);
    const bare = InsightsEntriesSchema.parse(await (await get(entryPath(uri(), 'measure_humidity', '?resolution=lastHour'))).json());
    const encoded = InsightsEntriesSchema.parse(
      await (await get(entryPath(encodeURIComponent(uri()), encodeURIComponent(`${uri()}:measure_humidity`)))).json(),
    );
    // The same minutes, unless a minute ended between the answers.
    for (const other of [bare, encoded]) {
      const minutes = new Map(other.values.map(({ t, v }) => [t, v]));
      const shared = full.values.slice(1, -1).filter(({ t }) => minutes.has(t));
      expect(shared.length).toBeGreaterThanOrEqual(57);
      for (const { t, v } of shared) expect(minutes.get(t)).toBe(v);
    }
  });

  it('refuses an unknown resolution with 400 naming the accepted ones', async () => {
    const response = await get(entryPath(uri(), 'measure_humidity', '?resolution=lastDecade'));
    const text = await response.clone().text();
    await expectError(response, 400, 'invalid_request');
    for (const name of INSIGHTS_RESOLUTION_NAMES) expect(text).toContain(name);
  });

  it.each([
    ['an unknown device', () => entryPath(deviceLogUri('no-such-device'), 'measure_humidity')],
    ['an unknown capability', () => entryPath(uri(), 'measure_co2')],
    ['a capability that is not logged (an enum)', () => entryPath(deviceLogUri(deviceId('Bedroom thermostat')), 'thermostat_mode')],
    ['an id under another owner', () => entryPath(uri(), deviceLogId(deviceId('Bedroom thermostat'), 'measure_temperature'))],
    ['an owner that is not a device', () => entryPath('homey:manager:weather', 'temperature')],
  ])('answers 404 unknown_log for %s', async (_name, path) => {
    await expectError(await get(path()), 404, 'unknown_log');
  });

  it('needs a session (401) with insights.readonly (403), on both routes', async () => {
    for (const path of ['/api/manager/insights/log', entryPath(uri(), 'measure_humidity')]) {
      const missing = await get(path, null);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="hub"');
      await expectError(missing, 401, 'invalid_token');
      const refused = await get(path, readonly);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="hub", error="insufficient_scope", scope="insights.readonly"');
      await expectError(refused, 403, 'insufficient_scope');
    }
  });

  it('shows a change made through the control API in the next entries', async () => {
    const lamp = deviceId('Floor lamp');
    const put = await fetch(`${hub.url}/api/manager/devices/device/${lamp}/capability/onoff`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${full}` },
      body: JSON.stringify({ value: true }),
    });
    expect(put.status).toBe(200);
    const entries = InsightsEntriesSchema.parse(await (await get(entryPath(deviceLogUri(lamp), `${deviceLogUri(lamp)}:onoff`))).json());
    expect(entries.lastValue).toBe(true);
    expect(entries.values.at(-1)!.v).toBe(true);
  });
});
