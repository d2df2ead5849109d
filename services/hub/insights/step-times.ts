/**
 * The ISO 8601 start times of consecutive steps, fast: Date#toISOString per entry was most of the time
 * of a year's answer (8,760 entries), so the date part is formatted once per day and the time of day
 * from a table. Steps are whole minutes (every INSIGHTS_RESOLUTIONS step is).
 */
const MINUTE = 60_000;
const DAY = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

export function stepStartIsos(firstStep: number, count: number, stepMs: number): string[] {
  if (stepMs % MINUTE !== 0) throw new RangeError(`a step of ${stepMs} ms is not whole minutes`);
  const out = new Array<string>(count);
  let day = NaN;
  let datePart = '';
  for (let i = 0; i < count; i++) {
    const time = (firstStep + i) * stepMs;
    const today = Math.floor(time / DAY);
    if (today !== day) {
      day = today;
      datePart = new Date(today * DAY).toISOString().slice(0, 11);
    }
    const minutes = (time - today * DAY) / MINUTE;
    out[i] = `${datePart}${TWO_DIGITS[Math.floor(minutes / 60)]}:${TWO_DIGITS[minutes % 60]}:00.000Z`;
  }
  return out;
}
