import { describe, expect, it } from 'vitest';
import { type Heartbeat, startHeartbeat } from '../../../../../main/core/shared/heartbeat';
import { fakeTimeline } from '../../../../support/fake-timeline';

const TIMINGS = { pingMs: 2_000, silentAfterMs: 4_000, giveUpAfterMs: 20_000 };

function start() {
  const time = fakeTimeline();
  const seen: string[] = [];
  let pings = 0;
  const heartbeat: Heartbeat = startHeartbeat({
    ...TIMINGS,
    schedule: time.schedule,
    clock: time.clock,
    ping: () => void pings++,
    onResponding: (responding) => seen.push(responding ? 'responding' : 'not responding'),
    onGiveUp: () => seen.push('gave up'),
  });
  return { time, seen, heartbeat, pings: () => pings };
}

describe('heartbeat', () => {
  it('pings every pingMs and says nothing while every ping is answered', () => {
    const { time, seen, heartbeat, pings } = start();
    time.advance(TIMINGS.pingMs);
    for (let i = 0; i < 30; i++) {
      time.advance(300); // each ping's answer, 300 ms after it
      heartbeat.heard();
      time.advance(TIMINGS.pingMs - 300);
    }
    expect(pings()).toBe(31);
    expect(seen).toEqual([]);
  });

  it('is not responding silentAfterMs after the last thing heard, not a millisecond before', () => {
    const { time, seen, heartbeat } = start();
    time.advance(1_500);
    heartbeat.heard();
    time.advance(TIMINGS.silentAfterMs - 1);
    expect(seen).toEqual([]);
    time.advance(1);
    expect(seen).toEqual(['not responding']);
    expect(heartbeat.lastHeardAt()).toBe(time.clock.now() - TIMINGS.silentAfterMs);
  });

  it('keeps pinging while silent, and is responding again at the first thing heard, once', () => {
    const { time, seen, heartbeat, pings } = start();
    time.advance(10_000);
    expect(seen).toEqual(['not responding']);
    expect(pings()).toBe(5);
    heartbeat.heard();
    heartbeat.heard();
    expect(seen).toEqual(['not responding', 'responding']);
    // And the watch starts again from there.
    time.advance(TIMINGS.silentAfterMs);
    expect(seen).toEqual(['not responding', 'responding', 'not responding']);
  });

  it('gives up after giveUpAfterMs of silence, once, and then stops', () => {
    const { time, seen, pings } = start();
    time.advance(TIMINGS.giveUpAfterMs - 1);
    expect(seen).toEqual(['not responding']);
    time.advance(1);
    expect(seen).toEqual(['not responding', 'gave up']);
    const pingsThen = pings();
    time.advance(60_000);
    expect(pings()).toBe(pingsThen);
    expect(time.pending()).toBe(0);
  });

  it('an answer read in the same turn as the watch fires counts: the watch judges one timer turn later', () => {
    const { time, seen, heartbeat } = start();
    // Scheduled after the watch, due at the same time: the answer waiting in the socket when a late timer fires.
    time.schedule(() => heartbeat.heard(), TIMINGS.silentAfterMs);
    time.advance(TIMINGS.silentAfterMs);
    expect(seen).toEqual([]);
  });

  it('stop ends pings and reports, whatever is heard later', () => {
    const { time, seen, heartbeat, pings } = start();
    time.advance(TIMINGS.pingMs);
    heartbeat.stop();
    expect(time.pending()).toBe(0);
    time.advance(TIMINGS.giveUpAfterMs * 2);
    heartbeat.heard();
    expect(pings()).toBe(1);
    expect(seen).toEqual([]);
  });
});
