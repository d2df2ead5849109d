/** The selected hub's devices, grouped by zone, or what is happening instead and what to do. */
import { useStore } from 'zustand';
import type { DeviceList, HubView } from '../../../common/ipc-contract';
import { describeDevicesError } from '../format/describe-error';
import { groupByZone } from '../format/group-devices';
import { formatFetchedAt, ROUTE_PIN_CHOICES, routeInUseLabel, routeOutcomeLabel } from '../format/hub-labels';
import { devicesOf } from '../stores/hubs-store';
import { DeviceCard } from './device-card';
import { useStores } from './stores-context';

export function DevicesPanel() {
  const { hubs } = useStores();
  const hub = useStore(hubs, (s) => (s.list.status === 'loaded' ? s.list.hubs.find((h) => h.id === s.selectedHubId) : undefined));
  const state = useStore(hubs, (s) => (s.selectedHubId === null ? undefined : devicesOf(s, s.selectedHubId)));
  if (!hub || !state) return <div className="devices-panel" />;

  const busy = state.status === 'loading' || state.status === 'idle';
  const advice = state.status === 'error' ? describeDevicesError(state.error, hub.name) : undefined;
  const reload = () => void hubs.getState().reload();

  return (
    <section className="devices-panel" aria-label={`Devices on ${hub.name}`} aria-busy={busy}>
      <div className="devices-head">
        <p className="panel-title">{hub.name}</p>
        <div role="status" aria-live="polite" className="devices-status">
          {busy && (
            <p>
              <span className="spinner" aria-hidden="true" /> Loading devices…
            </p>
          )}
          {advice && <p className="error-text">{advice.text}</p>}
          {state.status === 'loaded' && <p className="muted">{summary(state.list)}</p>}
        </div>
        {advice?.retry && (
          <button type="button" className="primary" onClick={reload}>
            Try again
          </button>
        )}
        {state.status === 'loaded' && (
          <button type="button" onClick={reload}>
            Refresh
          </button>
        )}
        <RoutePin hub={hub} />
      </div>
      {state.status === 'loaded' && <RouteDetails list={state.list} />}
      {state.status === 'loaded' && <DeviceZones hub={hub} list={state.list} />}
    </section>
  );
}

/** Lets the user pin the route; a pinned route is the only one tried. */
function RoutePin({ hub }: { hub: HubView }) {
  const { hubs } = useStores();
  const choose = (value: string) => {
    const choice = ROUTE_PIN_CHOICES.find((c) => c.value === value);
    if (choice) void hubs.getState().pinRoute(hub.id, choice.value === 'auto' ? null : choice.value);
  };
  return (
    <label className="route-pin">
      Route{' '}
      <select value={hub.pinnedRoute ?? 'auto'} onChange={(event) => choose(event.target.value)}>
        {ROUTE_PIN_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Why the other routes were not taken, behind a disclosure (it matters when something is wrong). */
function RouteDetails({ list }: { list: DeviceList }) {
  const others = list.routeOutcomes.filter((outcome) => outcome.kind !== list.route);
  if (others.length === 0) return null;
  return (
    <details className="route-details">
      <summary>Other routes</summary>
      <ul>
        {others.map((outcome) => (
          <li key={outcome.kind}>{routeOutcomeLabel(outcome)}</li>
        ))}
      </ul>
    </details>
  );
}

function DeviceZones({ hub, list }: { hub: HubView; list: DeviceList }) {
  if (list.devices.length === 0) return <p>There are no devices on {hub.name} yet.</p>;
  return groupByZone(list.devices).map((group) => (
    <div key={group.zone} className="zone">
      <h2>{group.zone}</h2>
      <div className="device-grid">
        {group.devices.map((device) => (
          <DeviceCard key={device.id} device={device} />
        ))}
      </div>
    </div>
  ));
}

function summary(list: DeviceList): string {
  const count = `${list.devices.length} ${list.devices.length === 1 ? 'device' : 'devices'}`;
  const time = formatFetchedAt(list.fetchedAt);
  return [count, routeInUseLabel(list), time && `updated ${time}`].filter(Boolean).join(' · ');
}
