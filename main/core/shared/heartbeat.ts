/**
 * One connection's liveness as seen from the app (docs/hub-realtime.md, "Liveness"): a ping every
 * `pingMs`; nothing heard from the peer (no frame, no pong) for `silentAfterMs` makes it "not
 * responding" while the connection is kept, so the first answer after that makes it responding again at
 * once; silence for `giveUpAfterMs` gives the connection up. The hub's realtime socket (live-socket.ts)
 * and the forwarder's listener channel (webhook-channel.ts) each run one per socket.
 *
 * The silence is measured from the last thing heard, so a peer that stops answering is noticed
 * `silentAfterMs` after its last answer wherever the ping ticks fall; `heard` only reads the clock.
 * Made to hold on a busy machine (docs/testing.md, "A suite that passes on a busy machine"): a watch
 * that fires judges one timer turn later, after the event loop has read whatever already arrived, so a
 * process kept from running does not take the answer waiting in its socket for silence.
 */
import type { Clock, Schedule } from './ports';

export interface HeartbeatTimings {
  pingMs: number;
  silentAfterMs: number;
  giveUpAfterMs: number;
}

export interface HeartbeatDeps extends HeartbeatTimings {
  schedule: Schedule;
  clock: Clock;
  /** Sends one ping (a WebSocket ping, or the protocol's own). */
  ping(): void;
  /** `false` after `silentAfterMs` of silence, `true` at the first thing heard after that; only on a change. */
  onResponding(responding: boolean): void;
  /** Called once, after `giveUpAfterMs` of silence; the heartbeat has stopped. */
  onGiveUp(): void;
}

export interface Heartbeat {
  /** Anything arrived from the peer: a frame, a pong, a ping of its own. */
  heard(): void;
  /** When the peer was last heard (the clock's time; the start counts as heard). */
  lastHeardAt(): number;
  stop(): void;
}

export function startHeartbeat(deps: HeartbeatDeps): Heartbeat {
  const { schedule, clock, pingMs, silentAfterMs, giveUpAfterMs } = deps;
  let lastHeard = clock.now();
  let responding = true;
  let stopped = false;
  let cancelPing = () => {};
  let cancelWatch = () => {};

  const pingLater = () => {
    cancelPing = schedule(() => {
      if (stopped) return;
      deps.ping();
      pingLater();
    }, pingMs);
  };

  const judge = () => {
    if (stopped) return;
    const silence = clock.now() - lastHeard;
    if (silence >= giveUpAfterMs) {
      stop();
      return deps.onGiveUp();
    }
    if (silence < silentAfterMs) return watch(silentAfterMs - silence);
    if (responding) {
      responding = false;
      deps.onResponding(false);
    }
    if (!stopped) watch(giveUpAfterMs - silence);
  };
  // Judged in a later timer turn: what already arrived is read (and heard) first.
  const watch = (ms: number) => void (cancelWatch = schedule(() => void (cancelWatch = schedule(judge, 0)), Math.max(1, ms)));

  const stop = () => {
    stopped = true;
    cancelPing();
    cancelWatch();
  };

  pingLater();
  watch(silentAfterMs);
  return {
    heard() {
      if (stopped) return;
      lastHeard = clock.now();
      if (responding) return;
      responding = true;
      cancelWatch();
      watch(silentAfterMs);
      deps.onResponding(true);
    },
    lastHeardAt: () => lastHeard,
    stop,
  };
}
