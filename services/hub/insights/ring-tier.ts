/**
 * One storage tier of a log, round-robin-database style: buckets of a fixed step in a ring that keeps
 * at most `maxBuckets` of them (its retention), the newest overwriting the oldest. A bucket holds an
 * accumulator (`acc`) and how many milliseconds of the step had a value (`covered`); what the
 * accumulator means is the log's aggregation (common/insights.ts `aggregationOf`):
 *
 *   mean — Σ value·ms, so the step's time-weighted mean is acc / covered;
 *   last — the latest value seen in the step;
 *   any  — 1 once the value was true at any moment of the step.
 *
 * The ring starts small and doubles as the recorded span grows (a log that has a minute of data holds
 * a few buckets, not a year's), up to `maxBuckets`; only then does it wrap. Bucket k (k = ⌊t / step⌋)
 * lives in slot (k − first) mod capacity, which growing never changes because it happens before the
 * first wrap.
 */
import type { InsightsAggregation } from '../../../common/insights';

const INITIAL_BUCKETS = 16;

export class RingTier {
  /** Accumulators; Float64 so meters (kWh with two decimals) and Σ value·ms keep their precision. */
  private acc: Float64Array;
  /** Milliseconds with a value; Float32 holds whole ms exactly up to 2^24 ms (4.6 h), more than a step. */
  private covered: Float32Array;
  /** The step index of the newest bucket written, or first − 1 before any. */
  private head: number;

  constructor(
    readonly stepMs: number,
    readonly maxBuckets: number,
    private readonly aggregation: InsightsAggregation,
    /** The step index of the log's first value: nothing is kept before it. */
    private readonly first: number,
  ) {
    const size = Math.min(INITIAL_BUCKETS, maxBuckets);
    this.acc = new Float64Array(size);
    this.covered = new Float32Array(size);
    this.head = first - 1;
  }

  /** Adds a value held over [from, to) (ms); the part before the first step or the retention is dropped. */
  add(from: number, to: number, value: number): void {
    if (!(to > from)) return;
    const step = this.stepMs;
    const last = Math.ceil(to / step) - 1;
    if (last < this.first) return;
    this.advanceTo(last);
    const oldest = Math.max(Math.floor(from / step), this.first, this.head - this.acc.length + 1);
    for (let k = oldest; k <= last; k++) {
      const ms = Math.min(to, (k + 1) * step) - Math.max(from, k * step);
      const slot = this.slot(k);
      this.covered[slot] = this.covered[slot]! + ms;
      if (this.aggregation === 'mean') this.acc[slot] = this.acc[slot]! + value * ms;
      else if (this.aggregation === 'last') this.acc[slot] = value;
      else if (value !== 0) this.acc[slot] = 1;
    }
  }

  /** Whether bucket k is held (written or passed over by the head, and not yet overwritten). */
  holds(k: number): boolean {
    return k <= this.head && k >= this.first && k > this.head - this.acc.length;
  }

  /** The accumulator and covered ms of bucket k; 0 and 0 where the tier holds nothing. */
  accumulatorAt(k: number): number {
    return this.holds(k) ? this.acc[this.slot(k)]! : 0;
  }
  coveredAt(k: number): number {
    return this.holds(k) ? this.covered[this.slot(k)]! : 0;
  }

  get bytes(): number {
    return this.acc.byteLength + this.covered.byteLength;
  }

  private slot(k: number): number {
    return (k - this.first) % this.acc.length;
  }

  /** Moves the head to step `k`, growing the ring while it has not wrapped and emptying the buckets it passes. */
  private advanceTo(k: number): void {
    if (k <= this.head) return;
    const span = k - this.first + 1;
    if (span > this.acc.length && this.acc.length < this.maxBuckets)
      this.grow(Math.min(this.maxBuckets, Math.max(2 * this.acc.length, 2 ** Math.ceil(Math.log2(span)))));
    const passed = k - this.head;
    if (passed >= this.acc.length) {
      this.acc.fill(0);
      this.covered.fill(0);
    } else {
      for (let j = this.head + 1; j <= k; j++) {
        const slot = this.slot(j);
        this.acc[slot] = 0;
        this.covered[slot] = 0;
      }
    }
    this.head = k;
  }

  private grow(size: number): void {
    const acc = new Float64Array(size);
    const covered = new Float32Array(size);
    acc.set(this.acc);
    covered.set(this.covered);
    this.acc = acc;
    this.covered = covered;
  }
}
