/**
 * Liveness end to end (docs/hub-realtime.md, "Liveness"; docs/hub-realtime.md, "Liveness"): the hub, in
 * a process of its own, is stopped (SIGSTOP) and continued (SIGCONT) under the app's open realtime
 * socket on each route — plain LAN, secure LAN, and through the relay, which runs in this process and
 * stays up, so only an answer from the hub itself counts — and the forwarder likewise under the app's
 * listener channel. What is reported is asserted, never how soon: the timings are the bench's
 * (test/bench/heartbeat.ts, docs/benchmarks.md "Noticing a silent hub").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ForwarderPeer,
  freeze,
  HUB_ROUTES,
  type HubPeer,
  openListener,
  openRealtime,
  type RealtimeReport,
  Reports,
  startForwarderPeer,
  startHubPeer,
  thaw,
} from '../../support/liveness-peers';

/** Generous: the reports come seconds after the freeze and the thaw, and a loaded machine may be slow to run them. */
const TEST_MS = 120_000;

describe('a silent hub', () => {
  let hub: HubPeer;
  beforeAll(async () => void (hub = await startHubPeer()), TEST_MS);
  afterAll(() => hub?.close());

  it.each(HUB_ROUTES)(
    'over the %s route: not responding while the hub is stopped, responding again once it runs, on the same socket',
    async (route) => {
      const reports = new Reports<RealtimeReport>();
      const socket = await openRealtime(hub, route, reports);
      // A loaded machine may have made the socket flap before: it must be responding when the hub stops.
      const last = reports.seen.at(-1)?.report;
      if (last && 'responding' in last && !last.responding) await reports.next((report) => 'responding' in report && report.responding);
      const from = reports.seen.length;
      const silent = reports.next((report) => 'responding' in report && !report.responding);
      freeze(hub.program);
      try {
        await silent;
        const back = reports.next((report) => 'responding' in report && report.responding);
        thaw(hub.program);
        await back;
      } finally {
        thaw(hub.program);
      }
      const after = reports.seen.slice(from).map(({ report }) => report);
      expect(after.some((report) => 'closed' in report)).toBe(false);
      expect(after.at(0)).toEqual({ responding: false });
      expect(after.at(-1)).toEqual({ responding: true });
      socket.close();
    },
    TEST_MS,
  );
});

describe('a silent forwarder', () => {
  let forwarder: ForwarderPeer;
  beforeAll(async () => void (forwarder = await startForwarderPeer()), TEST_MS);
  afterAll(() => forwarder?.close());

  it(
    'the listener channel is not responding while the forwarder is stopped, and connected again once it runs, on the same registration',
    async () => {
      const reports = new Reports<string>();
      const channel = await openListener(forwarder, reports);
      if (reports.seen.at(-1)?.report !== 'connected') await reports.next((state) => state === 'connected');
      const from = reports.seen.length;
      const silent = reports.next((state) => state === 'not-responding');
      freeze(forwarder.program);
      try {
        await silent;
        const back = reports.next((state) => state === 'connected');
        thaw(forwarder.program);
        await back;
      } finally {
        thaw(forwarder.program);
      }
      const after = reports.seen.slice(from).map(({ report }) => report);
      expect(after.at(0)).toBe('not-responding');
      expect(after.at(-1)).toBe('connected');
      expect(after).not.toContain('reconnecting'); // the socket was kept
      channel.stop();
    },
    TEST_MS,
  );
});
