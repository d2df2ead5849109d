/**
 * How many items to draw while a long list first fills (docs/benchmarks.md, "First render in steps"): `step` at first, then `step` more
 * each animation frame until all `total` are drawn, so no single render is a long task (a 1,000-device
 * hub drew its whole grid in one task of over a second). A new `resetKey` (another hub) starts again
 * from `step`; a list that grows later (a device added) is drawn at once when already complete.
 */
import { startTransition, useEffect, useState } from 'react';

export function useProgressiveLimit(total: number, step: number, resetKey: unknown): number {
  const [state, setState] = useState({ key: resetKey, limit: step });
  let limit = state.limit;
  if (state.key !== resetKey) {
    limit = step;
    setState({ key: resetKey, limit }); // during render: React redraws at once with the new state
  }
  useEffect(() => {
    if (limit >= total) return;
    // A transition: React may pause the step to let input and live updates through.
    const frame = requestAnimationFrame(() => startTransition(() => setState((current) => ({ ...current, limit: current.limit + step }))));
    return () => cancelAnimationFrame(frame);
  }, [limit, total, step]);
  return limit;
}
