/**
 * The Energy view (docs/insights-app.md, "Energy"): across every hub of the user, what the meters
 * counted today, this week, this month or this year, beside the period before (and the difference),
 * with the cost at the price per kWh set in Settings; bars per hour, day or month stacked by device;
 * the devices that used most; the period as CSV. Read from the hubs' histories (stores/energy-store.ts)
 * when the view opens, when the period changes and every minute while it is shown.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { HubView } from '../../../common/ipc-contract';
import { ENERGY_PERIODS, type EnergyPeriod, type EnergySummary, type MeterInput, periodPlan, summarise } from '../format/energy-periods';
import { changeWords, describeEnergyBars, type EnergyFormats, energyFormats, energyPeriodCsv, PERIOD_WORDS } from '../format/energy-words';
import { fileStamp } from '../format/file-stamp';
import { formatMeasurement } from '../format/format-capability';
import { homePower } from '../format/home-power';
import type { HubEnergyState } from '../stores/energy-store';
import { DEVICE_COLOURS, OTHER_COLOUR, stackedBarsOptions } from './chart-options';
import { useChartTheme } from './chart-theme';
import { downloadText } from './download-text';
import { useStores } from './stores-context';
import { UplotChart } from './uplot-chart';

const REFRESH_MS = 60_000;
const CHART_HEIGHT = 240;
const NO_HUBS: readonly HubView[] = [];

export function EnergyView({ onOpenSettings }: { onOpenSettings(): void }) {
  const { energy, hubs, preferences } = useStores();
  const list = useStore(hubs, (s) => s.list);
  const hubList = list.status === 'loaded' ? list.hubs : NO_HUBS;
  const hubIds = useMemo(() => hubList.map((hub) => hub.id), [hubList]);
  const [period, setPeriod] = useState<EnergyPeriod>('week');
  const [now, setNow] = useState(() => Date.now());
  const plan = useMemo(() => periodPlan(period, now), [period, now]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => energy.getState().load(hubIds, plan.resolution), [energy, hubIds, plan.resolution, now]);
  const states = useStore(energy, (s) => s.hubs);
  const perKwh = useStore(preferences, (s) => s.energyPrice);
  const currency = useStore(preferences, (s) => s.currency);
  const formats = useMemo(() => energyFormats({ perKwh, currency }), [perKwh, currency]);
  const loaded = hubIds.filter((hubId) => states[hubId]?.status === 'loaded');
  const meters = useMemo(() => metersOf(hubList, states), [hubList, states]);
  const summary = useMemo(() => (meters.length > 0 ? summarise(meters, plan) : null), [meters, plan]);
  const units = unitsOf(hubList, states);
  const headingId = useId();

  return (
    <section className="energy-view" aria-labelledby={headingId}>
      <div className="energy-head">
        <h2 id={headingId}>Energy</h2>
        <div role="group" aria-label="Period" className="segmented">
          {ENERGY_PERIODS.map((each) => (
            <button key={each} type="button" aria-pressed={each === period} onClick={() => setPeriod(each)}>
              {PERIOD_WORDS[each].label}
            </button>
          ))}
        </div>
      </div>
      <PowerNow hubs={hubList} />
      <HubNotes hubs={hubList} states={states} />
      {summary ? (
        <>
          <Totals summary={summary} formats={formats} units={units} onOpenSettings={onOpenSettings} />
          <Bars summary={summary} formats={formats} units={units} />
          <TopConsumers summary={summary} formats={formats} units={units} />
        </>
      ) : loaded.length === hubIds.length && hubIds.length > 0 ? (
        <p className="muted">No device on your hubs keeps a history of its energy.</p>
      ) : hubIds.length === 0 ? (
        <p className="muted">{list.status === 'loaded' ? 'You have no hubs yet.' : 'Loading your hubs…'}</p>
      ) : (
        <p className="muted">
          <span className="spinner" aria-hidden="true" /> Reading the meters…
        </p>
      )}
    </section>
  );
}

/** The open hub's power now, from its devices' live values. */
function PowerNow({ hubs }: { hubs: readonly HubView[] }) {
  const { openHub } = useStores();
  const hubId = useStore(openHub, (s) => s.hubId);
  const devices = useStore(openHub, (s) => s.devices);
  const power = useMemo(() => homePower(devices), [devices]);
  const name = hubs.find((hub) => hub.id === hubId)?.name;
  if (!name || power === null) return null;
  return (
    <p className="energy-now">
      {name} is using {formatMeasurement(power.watts, 1, 'W')} now ({power.devices} {power.devices === 1 ? 'device reports' : 'devices report'} power).
    </p>
  );
}

/** Every loaded hub's meters, named for the view. */
function metersOf(hubs: readonly HubView[], states: Readonly<Record<string, HubEnergyState>>): MeterInput[] {
  return hubs.flatMap((hub) => {
    const state = states[hub.id];
    if (state?.status !== 'loaded') return [];
    return state.meters.map((meter) => ({
      key: `${hub.id}\u0000${meter.deviceId}`,
      name: meter.deviceName ?? meter.deviceId,
      hubName: hub.name,
      readings: meter,
    }));
  });
}

function unitsOf(hubs: readonly HubView[], states: Readonly<Record<string, HubEnergyState>>): string {
  for (const hub of hubs) {
    const state = states[hub.id];
    if (state?.status === 'loaded' && state.meters[0]) return state.meters[0].units;
  }
  return 'kWh';
}

/** One line per hub that could not be counted, and why (the others are counted without it). */
function HubNotes({ hubs, states }: { hubs: readonly HubView[]; states: Readonly<Record<string, HubEnergyState>> }) {
  const notes = hubs.flatMap((hub) => {
    const state = states[hub.id];
    if (state?.status === 'unavailable') return [{ hub, text: state.reason }];
    if (state?.status === 'error') return [{ hub, text: `${hub.name}: ${state.error.message}` }];
    if (state?.status === 'loaded' && state.meters.length === 0) return [{ hub, text: `${hub.name} has no device that keeps a history of its energy.` }];
    return [];
  });
  if (notes.length === 0) return null;
  return (
    <ul className="energy-notes muted">
      {notes.map(({ hub, text }) => (
        <li key={hub.id}>{text}</li>
      ))}
    </ul>
  );
}

function Totals({ summary, formats, units, onOpenSettings }: { summary: EnergySummary; formats: EnergyFormats; units: string; onOpenSettings(): void }) {
  const words = PERIOD_WORDS[summary.plan.period];
  const cost = formats.cost(summary.current);
  const previousCost = formats.cost(summary.previous);
  const difference = changeWords(summary);
  return (
    <dl className="energy-totals">
      <div className="energy-total">
        <dt>{words.current}</dt>
        <dd>
          <span className="energy-figure">{formats.energy(summary.current, units)}</span>
          {cost !== null && <span className="energy-cost">{cost}</span>}
          {difference !== null && <span className="energy-change">{difference}</span>}
        </dd>
      </div>
      <div className="energy-total">
        <dt>{words.previous}</dt>
        <dd>
          <span className="energy-figure">{formats.energy(summary.previous, units)}</span>
          {previousCost !== null && <span className="energy-cost">{previousCost}</span>}
          {summary.previousPartial && <span className="energy-change">the hub&apos;s history starts within it</span>}
        </dd>
      </div>
      {cost === null && (
        <p className="energy-price-hint muted">
          <button type="button" onClick={onOpenSettings}>
            Set a price per kWh
          </button>{' '}
          to see what it costs.
        </p>
      )}
    </dl>
  );
}

/** The devices with their own colour in the bars; the rest share one ("Other devices"). */
function stacks(summary: EnergySummary): { name: string; colour: string; byBucket: number[] }[] {
  const own = summary.devices
    .slice(0, DEVICE_COLOURS.length)
    .map((device, i) => ({ name: device.name, colour: DEVICE_COLOURS[i]!, byBucket: device.byBucket }));
  const rest = summary.devices.slice(DEVICE_COLOURS.length);
  if (rest.length === 0) return own;
  const byBucket = summary.buckets.map((_, i) => rest.reduce((sum, device) => sum + device.byBucket[i]!, 0));
  return [...own, { name: 'Other devices', colour: OTHER_COLOUR, byBucket }];
}

function Bars({ summary, formats, units }: { summary: EnergySummary; formats: EnergyFormats; units: string }) {
  const theme = useChartTheme();
  const layers = useMemo(() => stacks(summary), [summary]);
  const labels = useMemo(() => summary.buckets.map((start) => formats.bucket(start, summary.plan.bucket)), [summary, formats]);
  // Largest running total first (the whole stack), so each smaller one is painted over it.
  const colours = useMemo(() => layers.map((layer) => layer.colour).reverse(), [layers]);
  const data = useMemo(() => {
    const running = summary.buckets.map(() => 0);
    const totals = layers.map((layer) => layer.byBucket.map((used, i) => (running[i]! += used)));
    return [summary.buckets.map((_, i) => i), ...totals.reverse()] as [number[], ...number[][]];
  }, [summary, layers]);
  const options = useCallback(
    (width: number) => stackedBarsOptions({ theme, width, height: CHART_HEIGHT, units, labels, colours }),
    [theme, units, labels, colours],
  );
  return <UplotChart options={options} data={data} description={describeEnergyBars(summary, formats, units)} className="energy-chart" />;
}

function TopConsumers({ summary, formats, units }: { summary: EnergySummary; formats: EnergyFormats; units: string }) {
  const words = PERIOD_WORDS[summary.plan.period];
  const colourOf = new Map(stacks(summary).map((layer, i) => [summary.devices[i]?.key, layer.colour]));
  const exportCsv = () => downloadText(`hubdesk-energy-${summary.plan.period}-${fileStamp(new Date())}.csv`, energyPeriodCsv(summary, units), 'text/csv');
  return (
    <section className="energy-consumers" aria-label="Devices by energy used">
      <table className="energy-devices">
        <caption className="visually-hidden">
          Energy used per device, {words.current.toLowerCase()} and {words.previous.toLowerCase()}
        </caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Hub</th>
            <th scope="col">{words.current}</th>
            <th scope="col">Share</th>
            <th scope="col">{words.previous}</th>
          </tr>
        </thead>
        <tbody>
          {summary.devices.map((device) => {
            const cost = formats.cost(device.current);
            return (
              <tr key={device.key}>
                <th scope="row">
                  <span className="energy-swatch" aria-hidden="true" style={{ background: colourOf.get(device.key) ?? OTHER_COLOUR }} />
                  {device.name}
                </th>
                <td>{device.hubName}</td>
                <td className="number">
                  {formats.energy(device.current, units)}
                  {cost !== null && <span className="energy-cost"> · {cost}</span>}
                </td>
                <td className="number">{summary.current > 0 ? `${Math.round((100 * device.current) / summary.current)} %` : '–'}</td>
                <td className="number">{formats.energy(device.previous, units)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="chart-foot chart-foot-end">
        <button type="button" onClick={exportCsv} aria-label={`Export CSV of the energy used ${words.current.toLowerCase()}`}>
          Export CSV
        </button>
      </div>
    </section>
  );
}
