/** The range of a history chart: hour, day, week, month or year, as one segmented control of toggle buttons. */
import type { InsightsResolution } from '../../../common/ipc-contract';

export const CHART_RANGES: readonly { resolution: InsightsResolution; label: string }[] = [
  { resolution: 'lastHour', label: 'Hour' },
  { resolution: 'last24Hours', label: 'Day' },
  { resolution: 'last7Days', label: 'Week' },
  { resolution: 'last31Days', label: 'Month' },
  { resolution: 'lastYear', label: 'Year' },
];

export function RangeSwitch({
  value,
  onChange,
  ranges = CHART_RANGES,
}: {
  value: InsightsResolution;
  onChange(resolution: InsightsResolution): void;
  ranges?: typeof CHART_RANGES;
}) {
  return (
    <div role="group" aria-label="Range" className="segmented range-switch">
      {ranges.map(({ resolution, label }) => (
        <button key={resolution} type="button" aria-pressed={resolution === value} onClick={() => onChange(resolution)}>
          {label}
        </button>
      ))}
    </div>
  );
}
