/**
 * How many insights reads one session may have under way (docs/security.md, "Insights reads"): a
 * year's answer is about 360 kB built in chunks, so a session that sends hundreds at once would hold
 * the hub's CPU and memory for seconds. Per key (a session), at most `maxRunning` reads run, from being
 * let in until their answer is made; up to `maxWaiting` more wait their turn in order (holding their
 * request only, no answer bytes); a read beyond those is refused at once.
 */

/** Reads of one session that run at once. */
export const INSIGHTS_READS_RUNNING_PER_SESSION = 2;
/** Reads of one session that wait for a running one to end; more are answered 429. */
export const INSIGHTS_READS_WAITING_PER_SESSION = 64;

export interface InsightsReadStats {
  /** Reads running and waiting now, over every session. */
  running: number;
  waiting: number;
  /** The most one session had running, and waiting, at once since start. */
  peakRunning: number;
  peakWaiting: number;
  /** Reads refused since start. */
  refused: number;
}

/** Ends a read's turn; calling it again does nothing. */
export type ReleaseRead = () => void;

interface KeyState {
  running: number;
  waiting: (() => void)[];
}

export class InsightsReadLimiter<Key> {
  private readonly keys = new Map<Key, KeyState>();
  private peakRunning = 0;
  private peakWaiting = 0;
  private refused = 0;

  constructor(
    private readonly maxRunning = INSIGHTS_READS_RUNNING_PER_SESSION,
    private readonly maxWaiting = INSIGHTS_READS_WAITING_PER_SESSION,
  ) {}

  /** A turn for `key`: settles when the read may run; undefined at once when `key` already has its fill waiting. */
  acquire(key: Key): Promise<ReleaseRead> | undefined {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = { running: 0, waiting: [] }));
    const current = state;
    if (current.running < this.maxRunning) {
      current.running++;
      this.peakRunning = Math.max(this.peakRunning, current.running);
      return Promise.resolve(this.release(key, current));
    }
    if (current.waiting.length >= this.maxWaiting) {
      this.refused++;
      return undefined;
    }
    return new Promise((resolve) => {
      current.waiting.push(() => resolve(this.release(key, current)));
      this.peakWaiting = Math.max(this.peakWaiting, current.waiting.length);
    });
  }

  stats(): InsightsReadStats {
    let running = 0;
    let waiting = 0;
    for (const state of this.keys.values()) {
      running += state.running;
      waiting += state.waiting.length;
    }
    return { running, waiting, peakRunning: this.peakRunning, peakWaiting: this.peakWaiting, refused: this.refused };
  }

  /** Hands the turn to the next waiting read, or frees it (and forgets the key once it has none). */
  private release(key: Key, state: KeyState): ReleaseRead {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next) return next();
      if (--state.running === 0) this.keys.delete(key);
    };
  }
}
