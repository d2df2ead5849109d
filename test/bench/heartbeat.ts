/**
 * How soon the app notices a silent hub or forwarder, and how soon it sees it answer again
 * (docs/benchmarks.md, "Noticing a silent hub"; docs/hub-realtime.md, "Liveness"): the hub and the
 * forwarder each run in a process of their own (test/support/liveness-peers.ts), which is stopped
 * (SIGSTOP) under the app's open socket and continued (SIGCONT) once the socket said it is not
 * responding. Timed: SIGSTOP → `onResponding(false)` (`not-responding` for the listener channel), and
 * SIGCONT → `onResponding(true)` (`connected`), on each route of the hub — plain LAN, secure LAN, the
 * relay (in this process, up throughout) — and for the listener channel. Each freeze waits a random
 * part of a ping interval first, so the runs fall at different points of the ping cycle.
 * Targets: noticed within 5 s, back within 2 s, every run.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { RunningProgram } from '../e2e/support/processes';
import { REALTIME_PING_MS } from '../../main/core/shared/live-socket';
import {
  freeze,
  HUB_ROUTES,
  openListener,
  openRealtime,
  type RealtimeReport,
  Reports,
  startForwarderPeer,
  startHubPeer,
  thaw,
} from '../support/liveness-peers';
import { sized } from './bench-mode';
import { watchMachine } from './machine-load';
import { percentile } from './percentile';
import type { BenchRow } from './route-opening';

const RUNS = sized(5, 1);
const NOTICED_WITHIN_MS = 5_000;
const BACK_WITHIN_MS = 2_000;
/** A report that has not come after this long will not come: the run fails rather than hang. */
const GIVE_UP_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no report within ${GIVE_UP_MS / 1000} s`)), GIVE_UP_MS)),
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What a run waits for, on a clock of its own: `silent` and `back` are asked for just before the freeze
 * and the thaw, with that moment on `now`'s clock, and resolve with when the report (or the words on
 * screen) came, on the same clock.
 */
export interface FreezeWatch {
  now(): number;
  silent(since: number): Promise<number>;
  back(since: number): Promise<number>;
}

/** What a socket reports, watched: the time each report fits `isSilent` or `isBack`, performance.now(). */
function socketWatch<T>(reports: Reports<T>, isSilent: (report: T) => boolean, isBack: (report: T) => boolean): FreezeWatch {
  return { now: () => performance.now(), silent: () => reports.next(isSilent), back: () => reports.next(isBack) };
}

/** `RUNS` freezes and thaws of `program`: the times to the silent report and back, ms. SIGCONT is sent whatever fails. */
export async function freezeAndThaw(program: RunningProgram, watch: FreezeWatch, what: string) {
  const noticed: number[] = [];
  const back: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await sleep(REALTIME_PING_MS + Math.random() * REALTIME_PING_MS);
    const stoppedAt = watch.now();
    const silent = watch.silent(stoppedAt);
    freeze(program);
    try {
      noticed.push((await within(silent, what)) - stoppedAt);
      const continuedAt = watch.now();
      const answered = watch.back(continuedAt);
      thaw(program);
      back.push((await within(answered, what)) - continuedAt);
    } finally {
      thaw(program);
    }
  }
  return { noticed, back };
}

/** How a pair of rows names what was timed: the report (or the words) after SIGSTOP, and after SIGCONT. */
const SOCKET_REPORTS = { silent: 'not responding', back: 'responding' };

export function rowsOf(
  what: string,
  times: { noticed: number[]; back: number[] },
  meanwhile: string,
  reports: { silent: string; back: string } = SOCKET_REPORTS,
): BenchRow[] {
  const figure = (values: number[]) => `${percentile(values, 50).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;
  return [
    {
      figure: `${what}: SIGSTOP → ${reports.silent}, p50 / max of ${RUNS} (ms)`,
      value: figure(times.noticed),
      baseline: `meanwhile: load ${loadavg()[0]!.toFixed(1)}, ${meanwhile}`,
      ratio: '',
      target: `≤ ${NOTICED_WITHIN_MS} (max)`,
      met: Math.max(...times.noticed) <= NOTICED_WITHIN_MS,
    },
    {
      figure: `${what}: SIGCONT → ${reports.back}, p50 / max of ${RUNS} (ms)`,
      value: figure(times.back),
      baseline: '',
      ratio: '',
      target: `≤ ${BACK_WITHIN_MS} (max)`,
      met: Math.max(...times.back) <= BACK_WITHIN_MS,
    },
  ];
}

export async function heartbeatBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const hub = await startHubPeer();
  try {
    for (const route of HUB_ROUTES) {
      const reports = new Reports<RealtimeReport>();
      const socket = await openRealtime(hub, route, reports);
      const machine = watchMachine({ hub: hub.program.child.pid, app: process.pid });
      const times = await freezeAndThaw(
        hub.program,
        socketWatch(
          reports,
          (report) => 'responding' in report && !report.responding,
          (report) => 'responding' in report && report.responding,
        ),
        route,
      );
      const closed = reports.seen.some(({ report }) => 'closed' in report);
      socket.close();
      rows.push(...rowsOf(`hub realtime, ${route}${closed ? ' (the socket closed: figures void)' : ''}`, times, machine()));
      if (closed) rows.at(-1)!.met = false;
    }
  } finally {
    await hub.close();
  }
  const forwarder = await startForwarderPeer();
  try {
    const reports = new Reports<string>();
    const channel = await openListener(forwarder, reports);
    const machine = watchMachine({ forwarder: forwarder.program.child.pid, app: process.pid });
    const times = await freezeAndThaw(
      forwarder.program,
      socketWatch(
        reports,
        (state) => state === 'not-responding',
        (state) => state === 'connected',
      ),
      'listener channel',
    );
    const reconnected = reports.seen.some(({ report }) => report === 'reconnecting');
    channel.stop();
    rows.push(...rowsOf(`webhook listener channel${reconnected ? ' (the socket was given up: figures void)' : ''}`, times, machine()));
    if (reconnected) rows.at(-1)!.met = false;
  } finally {
    await forwarder.close();
  }
  return rows;
}
