/**
 * A numeric sensor's last 24 hours on its card (docs/insights-app.md): a line without axes, named in words
 * (minimum, maximum, last) for assistive technology. Its place is kept until the history arrives (the
 * card does not jump), and there is none when the hub keeps no measured number of this device. While
 * the hub is not live it stays, its line ending at the last confirmed point and its time running on
 * to now: the gap shows (docs/hub-realtime.md, "While the open hub is not live").
 */
import { useCallback, useContext, useEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { InsightsLogView } from '../../../common/ipc-contract';
import { appendLive, describeSeries, RANGE_LABELS, sparklineLog } from '../format/insights-series';
import { logsOf, seriesKey } from '../stores/insights-store';
import { sparklineOptions } from './chart-options';
import { useChartTheme } from './chart-theme';
import { NotLiveContext } from './not-live-context';
import { useSlowNow } from './slow-clock';
import { useStores } from './stores-context';
import { seriesData, UplotChart } from './uplot-chart';

const RESOLUTION = 'last24Hours';
const HEIGHT = 36;

export function CardSparkline({ deviceId }: { deviceId: string }) {
  const { insights, openHub } = useStores();
  const device = useStore(openHub, (s) => s.devices[deviceId]);
  const logs = useStore(insights, (s) => logsOf(s, deviceId));
  // The same log object while the device's capabilities stay: a live value does not redraw the sparkline.
  const log = device ? sparklineLog(logs, device) : undefined;
  return log ? <Sparkline log={log} /> : null;
}

/** Read when the card first comes into view (and again if it was dropped meanwhile): a home of a thousand cards asks for the ones seen. */
function Sparkline({ log }: { log: InsightsLogView }) {
  const { insights } = useStores();
  const slot = useRef<HTMLDivElement>(null);
  const state = useStore(insights, (s) => s.series[seriesKey(log.deviceId, log.capabilityId, RESOLUTION)]);
  useEffect(() => {
    const element = slot.current;
    if (!element) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) insights.getState().load(log.deviceId, log.capabilityId, RESOLUTION);
    });
    seen.observe(element);
    return () => seen.disconnect();
  }, [insights, log.deviceId, log.capabilityId]);
  const theme = useChartTheme();
  const options = useCallback((width: number) => sparklineOptions({ kind: log.type, theme, width, height: HEIGHT }), [log.type, theme]);
  const series = state?.status === 'loaded' ? state.series : undefined;
  // No value at `now`: uPlot leaves the gap from the last confirmed point empty.
  const now = useSlowNow(useContext(NotLiveContext) !== null);
  const data = useMemo(() => (series ? seriesData(now === null ? series : appendLive(series, now, null)) : undefined), [series, now]);
  return (
    <div ref={slot} className="sparkline-slot">
      {series && data && series.times.length >= 2 && (
        <UplotChart options={options} data={data} description={describeSeries(log, RANGE_LABELS[RESOLUTION]!, series)} className="sparkline" />
      )}
    </div>
  );
}
