/**
 * Reading a chart from the keyboard: which point a key moves the cursor to. Arrows step one point,
 * Page Up/Down a twentieth of the points, Home/End go to the ends; a chart with no cursor yet starts
 * at the end the key points away from (Left from the last point, Right from the first). `+` and `-`
 * zoom in and out around the cursor (a drag across the chart zooms to the dragged range).
 */
/** A time range, epoch ms. */
export interface TimeRange {
  min: number;
  max: number;
}

/**
 * The range a zoom key leaves shown: `+` (or `=`) halves it around `at` (the cursor's time, else the
 * middle), `-` doubles it, never past `whole` (the series' own range) nor under `minSpan`; undefined
 * for any other key.
 */
export function zoomedRange(key: string, shown: TimeRange, whole: TimeRange, at: number | null, minSpan = 60_000): TimeRange | undefined {
  const factor = key === '+' || key === '=' ? 0.5 : key === '-' ? 2 : undefined;
  if (factor === undefined) return undefined;
  const wholeSpan = whole.max - whole.min;
  const span = Math.min(wholeSpan, Math.max(Math.min(minSpan, wholeSpan), (shown.max - shown.min) * factor));
  const centre = at ?? (shown.min + shown.max) / 2;
  const min = Math.min(Math.max(whole.min, centre - span / 2), whole.max - span);
  return { min, max: min + span };
}

/** The point the key moves the cursor to, or undefined for a key that does not move it. */
export function cursorIndexAfter(key: string, current: number | null, count: number): number | undefined {
  if (count === 0) return undefined;
  const jump = Math.max(1, Math.round(count / 20));
  // Without a cursor, the first step lands on an end: the last point going left, the first going right.
  const from = current ?? (key === 'ArrowLeft' || key === 'PageUp' ? count : -1);
  const moves: Record<string, number> = { ArrowLeft: from - 1, ArrowRight: from + 1, PageUp: from - jump, PageDown: from + jump, Home: 0, End: count - 1 };
  if (!Object.hasOwn(moves, key)) return undefined;
  return Math.min(count - 1, Math.max(0, moves[key]!));
}
