/**
 * The home's energy (issue 16 §2): what it uses now (the sum of every device's power, live), and the
 * energy used per day over the chosen range as bars, per device in a table, from the meters' logs
 * (format/daily-energy.ts); the shown days export as CSV. Opened from the hub's head ("Energy").
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { InsightsLogView, InsightsResolution } from '../../../common/ipc-contract';
import { type DeviceUse, dailyUse, describeEnergy, energyCsv, formatEnergy, homeEnergy, homePower } from '../format/daily-energy';
import { formatMeasurement } from '../format/format-capability';
import { fileStamp } from '../format/file-stamp';
import { RANGE_LABELS } from '../format/insights-series';
import { seriesKey } from '../stores/insights-store';
import { energyBarsOptions } from './chart-options';
import { useChartTheme } from './chart-theme';
import { downloadText } from './download-text';
import { ModalDialog } from './modal-dialog';
import { CHART_RANGES, RangeSwitch } from './range-switch';
import { useStores } from './stores-context';
import { UplotChart } from './uplot-chart';

const METER = 'meter_power';
const HEIGHT = 200;
const HALF_DAY_MS = 43_200_000;
/** Days, not hours: an hour holds no whole day. */
const ENERGY_RANGES = CHART_RANGES.filter((range) => range.resolution !== 'lastHour');

export function EnergyDialog({ hubName, onClose }: { hubName: string; onClose(): void }) {
  const { insights } = useStores();
  const logs = useStore(insights, (s) => s.logs);
  const meters = useMemo(() => (logs.status === 'available' ? Object.values(logs.byDevice).flatMap((own) => own.filter((log) => log.capabilityId === METER)) : []), [logs]);
  const [resolution, setResolution] = useState<InsightsResolution>('last7Days');
  const titleId = useId();
  useEffect(() => {
    for (const meter of meters) insights.getState().load(meter.deviceId, METER, resolution);
  }, [insights, meters, resolution]);
  return (
    <ModalDialog open labelledBy={titleId} className="insights-dialog" onClose={onClose}>
      <div className="insights-body">
        <div className="insights-head">
          <h2 id={titleId}>Energy on {hubName}</h2>
          <RangeSwitch value={resolution} onChange={setResolution} ranges={ENERGY_RANGES} />
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
        <PowerNow />
        <DailyEnergy meters={meters} resolution={resolution} />
      </div>
    </ModalDialog>
  );
}

/** The home's power now, from the live device values. */
function PowerNow() {
  const { openHub } = useStores();
  const devices = useStore(openHub, (s) => s.devices);
  const power = useMemo(() => homePower(devices), [devices]);
  return (
    <p className="energy-now" role="status">
      {power === null ? 'No device reports its power.' : `Using ${formatMeasurement(power.watts, 1, 'W')} now (${power.devices} ${power.devices === 1 ? 'device' : 'devices'} report power).`}
    </p>
  );
}

function DailyEnergy({ meters, resolution }: { meters: readonly InsightsLogView[]; resolution: InsightsResolution }) {
  const { insights, openHub } = useStores();
  const series = useStore(insights, (s) => s.series);
  const devices = useStore(openHub, (s) => s.devices);
  const theme = useChartTheme();
  const units = meters[0]?.units ?? 'kWh';
  const states = meters.map((meter) => series[seriesKey(meter.deviceId, METER, resolution)]);
  const failed = states.find((state) => state?.status === 'error');
  // Worked out again when any shown series changed (a live meter reading too): a few meters of at most a year of hours.
  const home = useMemo(() => {
    const uses: DeviceUse[] = [];
    for (const meter of meters) {
      const state = series[seriesKey(meter.deviceId, METER, resolution)];
      if (state?.status !== 'loaded') return null;
      uses.push({ deviceId: meter.deviceId, ...dailyUse(state.series.times, state.series.values) });
    }
    return homeEnergy(uses);
  }, [series, meters, resolution]);
  const options = useCallback((width: number) => energyBarsOptions({ theme, width, height: HEIGHT, units }), [theme, units]);
  // Each bar stands in the middle of its day, between the day's ticks.
  const data = useMemo(() => (home ? ([home.days.map((day) => day + HALF_DAY_MS), home.totals] as [number[], number[]]) : null), [home]);

  if (meters.length === 0) return <p className="muted">No device on this hub keeps a history of its energy.</p>;
  if (failed?.status === 'error') return <p className="error-text">{failed.error.message}</p>;
  if (!home || !data)
    return (
      <p className="muted">
        <span className="spinner" aria-hidden="true" /> Loading the meters…
      </p>
    );
  const nameOf = (deviceId: string) => devices[deviceId]?.name ?? deviceId;
  const largest = Math.max(...home.devices.map((device) => device.total), 0);
  const rangeLabel = RANGE_LABELS[resolution] ?? resolution;
  const exportCsv = () => downloadText(`hubdesk-energy-${resolution}-${fileStamp(new Date())}.csv`, energyCsv(home, nameOf, units), 'text/csv');
  return (
    <section className="capability-history" aria-label="Energy per day">
      <UplotChart options={options} data={data} description={describeEnergy(home, rangeLabel, units)} className="energy-chart" />
      <table className="energy-devices">
        <caption className="visually-hidden">Energy used per device over {rangeLabel}</caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Used</th>
          </tr>
        </thead>
        <tbody>
          {home.devices.map((device) => (
            <tr key={device.deviceId}>
              <th scope="row">{nameOf(device.deviceId)}</th>
              <td className="number">
                {formatEnergy(device.total, units)}
                <span className="energy-bar" aria-hidden="true" style={{ width: `${largest > 0 ? (100 * device.total) / largest : 0}%` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="chart-foot chart-foot-end">
        <button type="button" onClick={exportCsv} aria-label="Export CSV of the energy per day">
          Export CSV
        </button>
      </div>
    </section>
  );
}
