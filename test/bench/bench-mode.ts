/**
 * The bench's two modes (docs/benchmarks.md, "Smoke run"). A full run (`npm run bench`) measures at the
 * sizes its figures are quoted at. A smoke run (`npm run test:bench-smoke`: `--smoke` or `BENCH_SMOKE=1`) runs every
 * part once at its smallest sizes, so CI notices a part that no longer runs; its figures mean nothing and
 * no target is judged.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1' || process.argv.includes('--smoke');

/** `full` in a full run, `smoke` in a smoke run: every size and count of the bench goes through this. */
export function sized<T>(full: T, smoke: T): T {
  return SMOKE ? smoke : full;
}

/** Seconds per load run: `BENCH_SECONDS`, else 8 (1 in a smoke run). */
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? sized(8, 1));
