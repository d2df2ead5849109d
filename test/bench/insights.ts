/**
 * The hub's insights (docs/benchmarks.md, "The hub's insights"). A real hub and cloud over real HTTP (one keep-alive connection,
 * requests one at a time, the time from sending a request to the last byte of its answer):
 *  - each resolution over several logs of the demo home (numbers, meters, booleans), after every log
 *    was read once, p50/p95 per resolution and overall (target ≤ 20 ms p95): a year of hourly and 31
 *    days of five-minute data behind every log;
 *  - the first read of each log, which makes its buffers and year of backfill (lazy: not at start);
 *  - the hub's start-up (startHub on the demo home) and the recorder's share of it, also for 1,000 devices;
 *  - the time and memory to make the whole demo home's history at once.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { deviceLogUri, INSIGHTS_RESOLUTION_NAMES, type InsightsLogMap } from '../../common/insights';
import { type RunningCloud, startCloud } from '../../services/cloud/cloud';
import { createDemoHome } from '../../services/hub/demo-home';
import { startHub } from '../../services/hub/hub';
import { createInsightsRecorder } from '../../services/hub/insights/recorder';
import { delegationToken, signIn } from '../integration/services/oauth-helpers';
import type { BenchRow } from './route-opening';
import { sized } from './bench-mode';
import { percentile } from './percentile';

const ROUNDS = sized(20, 2);
const STARTS = sized(10, 2);
const TARGET_P95_MS = 20;
const USER = { email: 'bench@example.test', password: 'insights-bench-1' };
const CLIENT = { id: 'bench', secret: 'bench-secret', redirectUri: 'io.example.bench:/cb' };
/** Logs read each round: a reading, a slow reading, a meter, a power, a motion sensor, a switch. */
const SAMPLE: [string, string][] = [
  ['Bedroom thermostat', 'measure_temperature'],
  ['Office air quality', 'measure_co2'],
  ['EV charger', 'meter_power'],
  ['TV socket', 'measure_power'],
  ['Kitchen motion sensor', 'alarm_motion'],
  ['Ceiling light', 'onoff'],
  ['Front door sensor', 'alarm_contact'],
  ['Bathroom climate sensor', 'measure_humidity'],
];

/** A cloud whose one user has hub `h1` and whose one client has `devices.readonly` and `insights.readonly`. */
export function startInsightsCloud(): Promise<RunningCloud> {
  return startCloud({
    clients: [{ ...CLIENT, name: 'bench', native: true, redirectUris: [CLIENT.redirectUri], scopes: ['devices.readonly', 'insights.readonly'] }],
    users: [
      {
        _id: 'u1',
        ...USER,
        firstname: 'Bench',
        lastname: 'Mark',
        hubs: [{ _id: 'h1', name: 'Home', platform: 'local', localUrl: null, localUrlSecure: null, remoteUrl: null }],
      },
    ],
  });
}

/** A new session on hub `h1` at `hubUrl` for that user and client. */
export async function openInsightsSession(cloudUrl: string, hubUrl: string): Promise<string> {
  const { access_token } = await signIn(cloudUrl, CLIENT, USER);
  const login = await fetch(`${hubUrl}/api/manager/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: await delegationToken(cloudUrl, access_token, 'h1') }),
  });
  return (await login.json()) as string;
}

export async function insightsBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (figure: string, value: string, target = '', met = true, baseline = ''): void =>
    void rows.push({ figure, value, baseline, ratio: '', target, met });

  const cloud = await startInsightsCloud();

  // Start-up: the hub as tests start it, and the recorder's part of it.
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const home = createDemoHome('home');
    const from = performance.now();
    const hub = await startHub({ id: 'h-start', name: 'Home', cloudIssuer: cloud.issuer, cloudPublicJwk: cloud.publicJwk, home });
    starts.push(performance.now() - from);
    await hub.close();
  }
  row(`hub start-up, demo home (median of ${STARTS}, ms)`, median(starts).toFixed(1));
  for (const devices of [0, 1_000]) {
    const times = Array.from({ length: STARTS }, () => {
      const home = createDemoHome('home', { devices });
      const from = performance.now();
      createInsightsRecorder(home, { now: Date.now }).stop();
      return performance.now() - from;
    });
    row(`  of which the insights recorder, ${devices ? `${devices} devices` : 'demo home'} (median, ms)`, median(times).toFixed(2));
  }

  // The whole demo home's history at once.
  const home = createDemoHome('home');
  const recorder = createInsightsRecorder(home, { now: Date.now });
  const heapBefore = memory();
  const from = performance.now();
  recorder.materialiseAll();
  const made = performance.now() - from;
  const stats = recorder.stats();
  row(`make the demo home's history: ${stats.logs} logs, a year each (ms)`, made.toFixed(0));
  row(
    '  its buffers (MB; per log, KB)',
    `${(stats.bytes / 1e6).toFixed(1)}; ${(stats.bytes / stats.logs / 1e3).toFixed(0)}`,
    '',
    true,
    `process memory grew ${((memory() - heapBefore) / 1e6).toFixed(1)} MB`,
  );
  recorder.stop();

  // Over HTTP.
  const hub = await startHub({
    id: 'h1',
    name: 'Home',
    cloudIssuer: cloud.issuer,
    cloudPublicJwk: cloud.publicJwk,
    home: createDemoHome('home'),
    simulate: true,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const session = await openInsightsSession(cloud.url, hub.url);
    const get = (path: string) => timedGet(agent, `${hub.url}${path}`, session);
    const logs = JSON.parse((await get('/api/manager/insights/log')).body) as InsightsLogMap;
    const paths = SAMPLE.map(([name, capabilityId]) => {
      const log = Object.values(logs).find((candidate) => candidate.ownerName === name && candidate.id.endsWith(`:${capabilityId}`));
      if (!log) throw new Error(`no log ${capabilityId} of ${name}`);
      return `/api/manager/insights/log/${deviceLogUri(log.ownerId)}/${log.id}/entry`;
    });
    const cold: number[] = [];
    for (const log of Object.values(logs)) cold.push((await get(`/api/manager/insights/log/${log.ownerUri}/${log.id}/entry?resolution=lastHour`)).ms);
    row(
      `first read of each of the ${cold.length} logs, making its history (p50 / max, ms)`,
      `${percentile(cold, 50).toFixed(1)} / ${Math.max(...cold).toFixed(1)}`,
    );
    const all: number[] = [];
    for (const resolution of INSIGHTS_RESOLUTION_NAMES) {
      const times: number[] = [];
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const path of paths) {
          const answer = await get(`${path}?resolution=${resolution}`);
          if (answer.status !== 200) throw new Error(`${path}?resolution=${resolution} answered ${answer.status}`);
          times.push(answer.ms);
          bytes = answer.body.length;
        }
      }
      all.push(...times);
      const p95 = percentile(times, 95);
      row(
        `entries ${resolution} (p50 / p95, ms)`,
        `${percentile(times, 50).toFixed(2)} / ${p95.toFixed(2)}`,
        `≤ ${TARGET_P95_MS} p95`,
        p95 <= TARGET_P95_MS,
        `${(bytes / 1e3).toFixed(0)} kB per answer`,
      );
    }
    const p95 = percentile(all, 95);
    row(
      `entries, every resolution (${all.length} requests, p50 / p95, ms)`,
      `${percentile(all, 50).toFixed(2)} / ${p95.toFixed(2)}`,
      `≤ ${TARGET_P95_MS} p95`,
      p95 <= TARGET_P95_MS,
    );
  } finally {
    agent.destroy();
    await Promise.all([hub.close(), cloud.close()]);
  }
  return rows;
}

function timedGet(agent: Agent, url: string, session: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const from = performance.now();
    const req = request(url, { agent, headers: { authorization: `Bearer ${session}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - from }));
    });
    req.on('error', reject);
    req.end();
  });
}

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}
