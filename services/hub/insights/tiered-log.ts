/**
 * The history of one capability: its value now, since when, and three ring tiers (minutes kept a day,
 * five minutes kept 31 days, hours kept a year: docs/interface.md "Insights"). A value persists until
 * it changes, so a change closes the segment the previous value held, [since, time), and adds it to
 * every tier: buckets between two changes carry the value, weighted by the time it was held. The open
 * segment, [since, now), is counted only when read, so nothing has to tick.
 */
import type { InsightsAggregation } from '../../../common/insights';
import { RingTier } from './ring-tier';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The tiers: each resolution of INSIGHTS_RESOLUTIONS reads the one whose step is its step. */
export const INSIGHTS_TIERS = [
  { stepMs: MINUTE, retentionMs: DAY },
  { stepMs: 5 * MINUTE, retentionMs: 31 * DAY },
  { stepMs: HOUR, retentionMs: 365 * DAY },
] as const;

/** A boolean is kept as 1 or 0. */
export type StoredValue = number;

export class TieredLog {
  private readonly tiers: RingTier[];
  private value: StoredValue | undefined;
  private since = -Infinity;

  /**
   * `firstTime`: when the log's first value may be (its backfill's start, or when recording began).
   * `liveFrom`: when recording began; a tier ignores what its retention had already dropped by then,
   * so a year of backfill costs the minute tier one day of work, not a year's.
   */
  constructor(
    readonly aggregation: InsightsAggregation,
    firstTime: number,
    liveFrom = firstTime,
  ) {
    this.tiers = INSIGHTS_TIERS.map(
      ({ stepMs, retentionMs }) => new RingTier(stepMs, retentionMs / stepMs, aggregation, Math.floor(Math.max(firstTime, liveFrom - retentionMs) / stepMs)),
    );
  }

  /** The value changes at `time`. A time before the last change counts as that change's time (clocks may step back). */
  set(time: number, value: StoredValue): void {
    const at = Math.max(time, this.since);
    if (this.value !== undefined) for (const tier of this.tiers) tier.add(this.since, at, this.value);
    this.value = value;
    this.since = at;
  }

  /**
   * `count` steps of `stepMs` from step index `firstStep`, as of `now`: each the step's aggregate (the
   * open segment up to `now` included), or null where the log had no value.
   */
  read(stepMs: number, firstStep: number, count: number, now: number): (StoredValue | null)[] {
    const tier = this.tiers.find((candidate) => candidate.stepMs === stepMs);
    if (!tier) throw new RangeError(`no tier with a step of ${stepMs} ms`);
    const out = new Array<StoredValue | null>(count);
    for (let i = 0; i < count; i++) {
      const k = firstStep + i;
      let acc = tier.accumulatorAt(k);
      let covered = tier.coveredAt(k);
      // The open segment: the current value counts from when it was set to now, and at least for a
      // millisecond, so a value set at this very instant already shows in its step.
      const open = this.value === undefined ? 0 : Math.min(Math.max(now, this.since + 1), (k + 1) * stepMs) - Math.max(this.since, k * stepMs);
      if (open > 0) {
        const value = this.value!;
        covered += open;
        if (this.aggregation === 'mean') acc += value * open;
        else if (this.aggregation === 'last') acc = value;
        else if (value !== 0) acc = 1;
      }
      out[i] = covered > 0 ? (this.aggregation === 'mean' ? acc / covered : acc) : null;
    }
    return out;
  }

  /** The bytes its buffers take now. */
  get bytes(): number {
    return this.tiers.reduce((sum, tier) => sum + tier.bytes, 0);
  }
}
