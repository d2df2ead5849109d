/**
 * A device's history (docs/insights-app.md): every capability the hub keeps a history of, as a chart over the
 * chosen range (hour to year), with the value under the pointer, the range's minimum, maximum, average
 * and last value, live values appended as they arrive, and an export of exactly the shown points as CSV.
 * Opened from the device's card ("History"); a modal dialog, so Escape closes it and focus goes back.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { InsightsLogView, InsightsResolution } from '../../../common/ipc-contract';
import { conditioningOf, csvFileName, describeSeries, formatLogValue, RANGE_LABELS, seriesCsv, seriesStats, type ShownSeries } from '../format/insights-series';
import { logsOf, seriesKey } from '../stores/insights-store';
import { historyChartOptions } from './chart-options';
import { formatAt } from '../format/date-time';
import { useChartTheme } from './chart-theme';
import { downloadText } from './download-text';
import { ModalDialog } from './modal-dialog';
import { RangeSwitch } from './range-switch';
import { PairHistory } from './pair-history';
import { useStores } from './stores-context';
import { seriesData, UplotChart } from './uplot-chart';

const HEIGHT = 180;

export function DeviceHistoryDialog({ deviceId, deviceName, onClose }: { deviceId: string; deviceName: string; onClose(): void }) {
  const { insights, openHub } = useStores();
  const logs = useStore(insights, (s) => logsOf(s, deviceId));
  const mode = useStore(openHub, (s) => s.devices[deviceId]?.capabilitiesObj?.thermostat_mode?.value);
  const [resolution, setResolution] = useState<InsightsResolution>('last24Hours');
  const titleId = useId();
  const numeric = useMemo(() => logs.filter((log) => log.type === 'number'), [logs]);
  return (
    <ModalDialog open labelledBy={titleId} className="insights-dialog" onClose={onClose}>
      <div className="insights-body">
        <div className="insights-head">
          <h2 id={titleId}>History of {deviceName}</h2>
          <RangeSwitch value={resolution} onChange={setResolution} />
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
        {logs.length === 0 && <p className="muted">The hub keeps no history of {deviceName}.</p>}
        {numeric.length >= 2 && <PairHistory logs={numeric} resolution={resolution} conditioning={conditioningOf(mode)} />}
        {logs.map((log) => (
          <CapabilityHistory key={log.capabilityId} log={log} resolution={resolution} deviceName={deviceName} />
        ))}
      </div>
    </ModalDialog>
  );
}

function CapabilityHistory({ log, resolution, deviceName }: { log: InsightsLogView; resolution: InsightsResolution; deviceName: string }) {
  const { insights } = useStores();
  const state = useStore(insights, (s) => s.series[seriesKey(log.deviceId, log.capabilityId, resolution)]);
  useEffect(() => insights.getState().load(log.deviceId, log.capabilityId, resolution), [insights, log.deviceId, log.capabilityId, resolution]);
  const headingId = useId();
  const series = state?.status === 'loaded' ? state.series : undefined;
  return (
    <section className="capability-history" aria-labelledby={headingId} aria-busy={state?.status === 'loading'}>
      <h3 id={headingId}>
        {log.title}
        {log.units ? <span className="muted"> ({log.units})</span> : null}
      </h3>
      {state?.status === 'error' && <p className="error-text">{state.error.message}</p>}
      {(state === undefined || state.status === 'loading') && (
        <p className="muted">
          <span className="spinner" aria-hidden="true" /> Loading the history…
        </p>
      )}
      {series && <ShownChart log={log} series={series} resolution={resolution} deviceName={deviceName} />}
    </section>
  );
}

function ShownChart({
  log,
  series,
  resolution,
  deviceName,
}: {
  log: InsightsLogView;
  series: ShownSeries;
  resolution: InsightsResolution;
  deviceName: string;
}) {
  const theme = useChartTheme();
  const readout = useRef<HTMLParagraphElement>(null);
  // The value under the pointer is written straight into its line: a React render per pointer move is not needed.
  const options = useCallback(
    (width: number) =>
      historyChartOptions({
        kind: log.type,
        theme,
        width,
        height: HEIGHT,
        onCursor: (time, value) => {
          if (readout.current) readout.current.textContent = time === null ? POINT_HINT : `${formatAt(time, 'moment')}: ${formatLogValue(log, value)}`;
        },
      }),
    [log, theme],
  );
  const data = useMemo(() => seriesData(series), [series]);
  const [zoom, setZoom] = useState<{ showWhole(): void } | null>(null);
  const onZoom = useCallback((zoomed: { showWhole(): void } | null) => setZoom(zoomed && { showWhole: zoomed.showWhole }), []);
  const rangeLabel = RANGE_LABELS[resolution] ?? resolution;
  const stats = seriesStats(series.values);
  const exportCsv = () => downloadText(csvFileName(deviceName, log, resolution, new Date()), seriesCsv(log, series), 'text/csv');
  return (
    <>
      {stats && log.type === 'number' && (
        <dl className="chart-figures">
          <Figure term="Minimum" value={formatLogValue(log, stats.min)} />
          <Figure term="Maximum" value={formatLogValue(log, stats.max)} />
          <Figure term="Average" value={formatLogValue(log, stats.average)} />
          <Figure term="Last" value={formatLogValue(log, stats.last)} />
        </dl>
      )}
      {stats && log.type === 'boolean' && (
        <dl className="chart-figures">
          <Figure term="Last" value={formatLogValue(log, stats.last)} />
        </dl>
      )}
      <UplotChart options={options} data={data} description={describeSeries(log, rangeLabel, series)} className="insights-chart" keyboard onZoom={onZoom} />
      <div className="chart-foot">
        <p ref={readout} className="chart-readout muted" aria-live="polite">
          {POINT_HINT}
        </p>
        {zoom && (
          <button type="button" onClick={zoom.showWhole} aria-label={`Show the whole range of ${log.title}`}>
            Show the whole range
          </button>
        )}
        <button type="button" onClick={exportCsv} disabled={series.times.length === 0} aria-label={`Export CSV of ${log.title}`}>
          Export CSV
        </button>
      </div>
    </>
  );
}

const POINT_HINT = 'Point at the chart, or focus it and use the arrow keys, to read a value; drag across it (or press + and −) to zoom.';

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
