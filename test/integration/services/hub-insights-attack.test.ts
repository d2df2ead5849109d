/**
 * One session's flood of year-long insights reads (docs/security.md, "Insights reads"), over real
 * sockets: 300 at once from one `insights.readonly` session. The hub runs at most
 * INSIGHTS_READS_RUNNING_PER_SESSION of them, keeps INSIGHTS_READS_WAITING_PER_SESSION waiting and
 * answers the rest 429 with Retry-After; and another session's device list is answered while the
 * flood's reads are still being answered. Nothing here is timed: the bound is counted by the hub,
 * the fairness is an order of answers (the latency is docs/benchmarks.md, "One session's insights flood").
 */
import { Agent, fetch as undiciFetch, type Response } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InsightsEntriesSchema, InsightsLogMapSchema } from '../../../common/insights';
import { ErrorBodySchema } from '../../../common/wire';
import type { RunningCloud } from '../../../services/cloud/cloud';
import { createDemoHome } from '../../../services/hub/demo-home';
import { type RunningHub, startHub } from '../../../services/hub/hub';
import { INSIGHTS_READS_RUNNING_PER_SESSION, INSIGHTS_READS_WAITING_PER_SESSION } from '../../../services/hub/insights/read-limiter';
import { ONE_ADDRESS_FLOOD_LIMITS } from '../../support/flood';
import { FULL, openSession, READONLY, startTestCloud } from './hub-fixture';

const ATTACK = 300;

let cloud: RunningCloud;
let hub: RunningHub;
let attacker: string;
let other: string;
let paths: string[];
/** Told of each entries request as the hub receives it. */
let onEntriesRequest = () => {};
/** Each attack on connections of its own: a kept-alive one the hub closes meanwhile would lose a request. */
let connections = new Agent();
const get = (path: string, session: string) => undiciFetch(`${hub.url}${path}`, { headers: { authorization: `Bearer ${session}` }, dispatcher: connections });

beforeAll(async () => {
  cloud = await startTestCloud(['h1']);
  hub = await startHub({
    id: 'h1',
    name: 'Home',
    cloudIssuer: cloud.issuer,
    cloudPublicJwk: cloud.publicJwk,
    home: createDemoHome('home'),
    // One address stands for a session used from many: the per-address limits (docs/security.md, "One
    // client's share") would otherwise refuse this flood before the insights bound is reached.
    connectionLimits: ONE_ADDRESS_FLOOD_LIMITS,
    requestLog: ({ path }) => void (path.endsWith('/entry') && onEntriesRequest()),
  });
  [attacker, other] = await Promise.all([openSession(cloud.url, hub.url, FULL, 'h1'), openSession(cloud.url, hub.url, READONLY, 'h1')]);
  const logs = Object.values(InsightsLogMapSchema.parse(await (await get('/api/manager/insights/log', attacker)).json()));
  // A year of every log in turn: each log's first read also makes its history.
  paths = Array.from({ length: ATTACK }, (_, i) => {
    const log = logs[i % logs.length]!;
    return `/api/manager/insights/log/${encodeURIComponent(log.ownerUri)}/${encodeURIComponent(log.id)}/entry?resolution=lastYear`;
  });
});
afterEach(async () => {
  await connections.destroy();
  connections = new Agent();
});
afterAll(async () => {
  await Promise.all([connections.destroy(), hub?.close(), cloud?.close()]);
});

/** Sends the attack; `arrived` settles once the hub has received every one of its requests. */
function attack(): { answers: Promise<Response>[]; arrived: Promise<void> } {
  let received = 0;
  const arrived = new Promise<void>((resolve) => (onEntriesRequest = () => void (++received === ATTACK && resolve())));
  return { answers: paths.map((path) => get(path, attacker)), arrived };
}

describe("one session's 300 concurrent year-long reads", () => {
  it('run at most the bound at once; the reads beyond those waiting are refused 429 with Retry-After', async () => {
    const answers = await Promise.all(attack().answers);
    const refused = answers.filter((answer) => answer.status === 429);
    const served = answers.filter((answer) => answer.status === 200);
    expect(refused.length + served.length).toBe(ATTACK);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(ErrorBodySchema.parse(await answer.json()).error).toBe('too_many_requests');
    }
    // Whole answers (one checked against the schema: 8,760 dates each, that check is the slow part).
    const bodies = (await Promise.all(served.map((answer) => answer.json()))) as { values: unknown[] }[];
    expect(InsightsEntriesSchema.parse(bodies[0]).values).toHaveLength(8_760);
    for (const body of bodies) expect(body.values).toHaveLength(8_760);
    const reads = hub.insightsReads();
    expect(reads.peakRunning).toBe(INSIGHTS_READS_RUNNING_PER_SESSION);
    expect(reads.peakWaiting).toBeLessThanOrEqual(INSIGHTS_READS_WAITING_PER_SESSION);
    expect(reads.refused).toBe(refused.length);
    expect(reads.running + reads.waiting).toBe(0);
    // The session is not locked out: once its reads are answered, the next one is served.
    const next = await get(paths[0]!, attacker);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });

  it("leave another session's device list answered while the flood's reads are still being answered", async () => {
    const { answers, arrived } = attack();
    let servedSoFar = 0;
    for (const answer of answers)
      void answer.then(
        (response) => void (response.status === 200 && servedSoFar++),
        () => {},
      );
    await arrived;
    const list = await get('/api/manager/devices/device', other);
    expect(list.status).toBe(200);
    await list.arrayBuffer();
    const servedBeforeList = servedSoFar;
    const statuses = await Promise.all(
      answers.map(async (answer) => {
        const response = await answer;
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const served = statuses.filter((status) => status === 200).length;
    expect(served).toBeGreaterThan(0);
    expect(servedBeforeList).toBeLessThan(served);
  });
});
