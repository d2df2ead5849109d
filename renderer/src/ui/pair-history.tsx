/**
 * Two series of one device on one chart (docs/insights-app.md, "Two series together"): any two of its
 * numeric logs, chosen with two lists; a thermostat opens on its measured temperature and target, with
 * the periods it was heating (cooling, when set to cool) painted as bands. Zoomed as the other charts are (a drag, + and −).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { useStore } from 'zustand';
import type { InsightsLogView, InsightsResolution } from '../../../common/ipc-contract';
import { type Conditioning, describePair, firstPair, formatLogValue, isThermostatPair, RANGE_LABELS } from '../format/insights-series';
import { formatAt } from '../format/date-time';
import { seriesKey } from '../stores/insights-store';
import { pairChartOptions } from './chart-options';
import { useChartTheme } from './chart-theme';
import { useStores } from './stores-context';
import { UplotChart } from './uplot-chart';

const HEIGHT = 200;
const HINT = 'Point at the chart, or focus it and use the arrow keys, to read both values; drag across it (or press + and −) to zoom.';

export function PairHistory({
  logs,
  resolution,
  conditioning,
}: {
  logs: readonly InsightsLogView[];
  resolution: InsightsResolution;
  /** What a thermostat's bands show (conditioningOf its mode). */
  conditioning: Conditioning;
}) {
  const [pair, setPair] = useState(() => firstPair(logs));
  const [first, second] = [logs[pair[0]]!, logs[pair[1]]!];
  const headingId = useId();
  const choose = (which: 0 | 1) => (event: { target: { value: string } }) => {
    const chosen = Number(event.target.value);
    setPair(which === 0 ? [chosen, pair[1]] : [pair[0], chosen]);
  };
  const choice = (which: 0 | 1, label: string) => (
    <label>
      {label}{' '}
      <select value={pair[which]} onChange={choose(which)}>
        {logs.map((log, index) => (
          <option key={log.capabilityId} value={index} disabled={index === pair[which === 0 ? 1 : 0]}>
            {log.title}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section className="capability-history pair-history" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Compared: {first.title} and {second.title}
      </h3>
      <div className="pair-choice">
        {choice(0, 'Draw')}
        {choice(1, 'with')}
      </div>
      <PairChart key={`${first.capabilityId}|${second.capabilityId}`} logs={[first, second]} resolution={resolution} conditioning={conditioning} />
    </section>
  );
}

function PairChart({
  logs,
  resolution,
  conditioning,
}: {
  logs: readonly [InsightsLogView, InsightsLogView];
  resolution: InsightsResolution;
  conditioning: Conditioning;
}) {
  const { insights } = useStores();
  const [first, second] = logs;
  // One selector each: a selector that makes a new array would be a new snapshot on every read.
  const firstState = useStore(insights, (s) => s.series[seriesKey(first.deviceId, first.capabilityId, resolution)]);
  const secondState = useStore(insights, (s) => s.series[seriesKey(second.deviceId, second.capabilityId, resolution)]);
  const states = [firstState, secondState];
  useEffect(() => insights.getState().load(first.deviceId, first.capabilityId, resolution), [insights, first, resolution]);
  useEffect(() => insights.getState().load(second.deviceId, second.capabilityId, resolution), [insights, second, resolution]);
  const [a, b] = states.map((state) => (state?.status === 'loaded' ? state.series : undefined));
  const theme = useChartTheme();
  const readout = useRef<HTMLParagraphElement>(null);
  const bands = isThermostatPair(first, second) ? conditioning : null;
  const options = useCallback(
    (width: number) =>
      pairChartOptions({
        theme,
        width,
        height: HEIGHT,
        sameUnits: first.units === second.units,
        conditioning: bands,
        onCursor: (time, one, two) => {
          if (readout.current)
            readout.current.textContent =
              time === null
                ? HINT
                : `${formatAt(time, 'moment')}: ${first.title} ${formatLogValue(first, one)}, ${second.title} ${formatLogValue(second, two)}`;
        },
      }),
    [theme, first, second, bands],
  );
  // Both series on one time axis: a time one of them lacks is a gap in it.
  const data = useMemo(
    () =>
      a && b
        ? uPlot.join([
            [a.times as number[], a.values as (number | null)[]],
            [b.times as number[], b.values as (number | null)[]],
          ])
        : undefined,
    [a, b],
  );
  const [zoom, setZoom] = useState<{ showWhole(): void } | null>(null);
  const onZoom = useCallback((zoomed: { showWhole(): void } | null) => setZoom(zoomed && { showWhole: zoomed.showWhole }), []);
  if (states.some((state) => state?.status === 'error'))
    return (
      <p className="error-text">
        The history of {first.title} or {second.title} could not be read.
      </p>
    );
  if (!data)
    return (
      <p className="muted">
        <span className="spinner" aria-hidden="true" /> Loading the history…
      </p>
    );
  const description = describePair(logs, RANGE_LABELS[resolution] ?? resolution, data as [number[], (number | null)[], (number | null)[]], conditioning);
  return (
    <>
      <UplotChart options={options} data={data} description={description} className="insights-chart" keyboard onZoom={onZoom} />
      <div className="chart-foot">
        <p ref={readout} className="chart-readout muted" aria-live="polite">
          {HINT}
        </p>
        {zoom && (
          <button type="button" onClick={zoom.showWhole} aria-label={`Show the whole range of ${first.title} and ${second.title}`}>
            Show the whole range
          </button>
        )}
      </div>
    </>
  );
}
