/**
 * The legacy runner on a busy machine (docs/legacy-functions.md, "Tests"): two busy loops
 * (test/support/cpu-load.ts) keep both cores of the CI machine loaded for this file's duration, on top
 * of whatever else runs. A healthy function must still match every time — its deadline counts its own
 * run only, not the sandbox's preparation, not a worker still starting, not a main thread that is late
 * to read the answer — and an infinite loop must still be stopped at its deadline. Outcomes only: no
 * assertion here is about time.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLegacyFixtures } from '../../../../../services/forwarder/legacy/legacy-fixtures';
import { createLegacyRunner, type LegacyOutcome, type LegacyRunner, type WebhookData } from '../../../../../services/forwarder/legacy/legacy-runner';
import { type CpuLoad, startCpuLoad } from '../../../../support/cpu-load';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

const BY_ROOM = 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }';
const ROOMS = [
  { listenerId: 'hall-hub', data: { room: 'hall' } },
  { listenerId: 'attic-hub', data: { room: 'attic' } },
  { listenerId: 'hall-hub-2', data: { room: 'hall' } },
];
const HALL: WebhookData = { headers: {}, query: {}, body: { room: 'hall' } };
const RUNS = 50;

let load: CpuLoad;
beforeAll(async () => {
  load = await startCpuLoad(2);
});
afterAll(() => load.stop());

/** A runner made now (under load) for one test, closed after it. */
async function withRunner(workers: number, use: (runner: LegacyRunner) => Promise<void>): Promise<void> {
  const runner = createLegacyRunner({ workers });
  try {
    await use(runner);
  } finally {
    await runner.close();
  }
}

describe('legacy runner on a busy machine (two busy loops alongside)', () => {
  it(`matches a healthy function on each of ${RUNS} runs, the first ones while its workers have only just started`, async () => {
    // Made under load, and used at once: the first runs meet workers that are still starting.
    await withRunner(2, async (runner) => {
      const outcomes: LegacyOutcome[] = [];
      for (let round = 0; round < RUNS / 2; round++) {
        outcomes.push(
          ...(await Promise.all([
            runner.run(BY_ROOM, HALL, ROOMS),
            runner.run('(h, w) => h.room === w.body.room', { ...HALL, body: { room: 'attic' } }, ROOMS),
          ])),
        );
      }
      expect(
        outcomes.filter(
          (outcome, index) => JSON.stringify(outcome) !== JSON.stringify({ ok: true, matched: index % 2 === 0 ? ['hall-hub', 'hall-hub-2'] : ['attic-hub'] }),
        ),
      ).toEqual([]);
    });
  });

  it(`matches the seeded fixtures on each of ${RUNS} runs`, async () => {
    await withRunner(2, async (runner) => {
      const fixtures = Object.fromEntries((await loadLegacyFixtures()).map((f) => [f.name, f.source]));
      const owners = [
        { listenerId: 'a', data: { accounts: ['acc-1001', 'acc-1002'] } },
        { listenerId: 'b', data: { accounts: ['acc-2001'] } },
      ];
      const webhook = { headers: { 'x-account-id': 'acc-1002' }, query: {}, body: { kWh: 3.2 } };
      const outcomes = [];
      for (let i = 0; i < RUNS; i++) outcomes.push(await runner.run(fixtures['match-owner-header']!, webhook, owners));
      expect(outcomes.filter((outcome) => !outcome.ok || outcome.matched.join() !== 'a')).toEqual([]);
    });
  });

  it('still stops an infinite loop at its deadline, named timeout, and serves the next run', async () => {
    await withRunner(1, async (runner) => {
      for (let i = 0; i < 3; i++) {
        await expect(runner.run('function () { while (true) {} }', HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'timeout' });
        await expect(runner.run(BY_ROOM, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: ['hall-hub', 'hall-hub-2'] });
      }
    });
  });

  it('names memory and stack failures as such, on fresh workers too, and serves the next run', async () => {
    await withRunner(1, async (runner) => {
      for (let i = 0; i < 3; i++) {
        await expect(runner.run('function () { var hoard = []; while (true) hoard.push(new ArrayBuffer(4 << 20)); }', HALL, ROOMS)).resolves.toMatchObject({
          ok: false,
          error: 'memory',
        });
        await expect(runner.run('function f() { return f() + 1; }', HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'memory' });
        await expect(runner.run(BY_ROOM, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: ['hall-hub', 'hall-hub-2'] });
      }
    });
  });

  it('runs under tsx (a child process that starts its runner and runs at once)', async () => {
    const { stdout } = await run(`${ROOT}node_modules/.bin/tsx`, ['test/unit/services/forwarder/legacy/legacy-fixtures/run-once.ts'], {
      cwd: ROOT,
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({ ok: true, matched: ['hall-hub'] });
  }, 90_000);
});
