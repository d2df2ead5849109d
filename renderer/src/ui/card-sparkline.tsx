/**
 * A numeric sensor's last 24 hours on its card (issue 16 §2): a line without axes, named in words
 * (minimum, maximum, last) for assistive technology. Nothing is drawn until the history arrives, and
 * nothing at all when the hub keeps none of this device.
 */
import { useCallback, useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { InsightsLogView } from '../../../common/ipc-contract';
import { describeSeries, RANGE_LABELS, sparklineLog } from '../format/insights-series';
import { logsOf, seriesKey } from '../stores/insights-store';
import { sparklineOptions } from './chart-options';
import { useChartTheme } from './chart-theme';
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

function Sparkline({ log }: { log: InsightsLogView }) {
  const { insights } = useStores();
  const state = useStore(insights, (s) => s.series[seriesKey(log.deviceId, log.capabilityId, RESOLUTION)]);
  useEffect(() => insights.getState().load(log.deviceId, log.capabilityId, RESOLUTION), [insights, log.deviceId, log.capabilityId]);
  const theme = useChartTheme();
  const options = useCallback((width: number) => sparklineOptions({ kind: log.type, theme, width, height: HEIGHT }), [log.type, theme]);
  const series = state?.status === 'loaded' ? state.series : undefined;
  const data = useMemo(() => (series ? seriesData(series) : undefined), [series]);
  if (!series || !data || series.times.length < 2) return null;
  return <UplotChart options={options} data={data} description={describeSeries(log, RANGE_LABELS[RESOLUTION]!, series)} className="sparkline" />;
}
