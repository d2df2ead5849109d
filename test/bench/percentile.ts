/**
 * The p-th percentile of the benchmarks' samples, by the nearest-rank method on the finite values (a
 * failed request counted as NaN is left out, as its count is reported beside the figure); NaN for none.
 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
