/** Whole seconds left until a time (epoch ms), never negative: the "retry in 4 s" of reconnect labels. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Whole seconds since a time (epoch ms), never negative: the "no answer for 6 s" of not-responding labels. */
export function secondsSince(at: number, now: number): number {
  return Math.max(0, Math.floor((now - at) / 1000));
}
