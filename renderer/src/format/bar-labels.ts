/** Room for a bar chart's labels (ui/chart-options.ts): DOM-free, so the unit tests type-check it as the rest of format/. */
/**
 * The room a bar label needs (uPlot's `space`: the least distance between two labelled ticks): its
 * longest label's width, about 7 px a character at the axis's size, and a gap. At 48 px whatever the
 * labels, a month's "Mon, Nov 9" ran into "Wed, Nov 11".
 */
export function labelSpace(labels: readonly string[]): number {
  const longest = labels.reduce((most, label) => Math.max(most, label.length), 0);
  return Math.max(48, longest * 7 + 16);
}
