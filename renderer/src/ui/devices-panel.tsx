/**
 * The selected hub's devices, live: favourites first, then by zone, narrowed by search and filters;
 * or what is happening instead and what to do. The grid reads only the devices' names and places
 * (`summaries`); each card follows its own device, so a live change re-renders one card.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { DeviceList, HubView } from '../../../common/ipc-contract';
import { describeDevicesError } from '../format/describe-error';
import { filterChoices, filterDevices, groupWithFavourites, NO_FILTER } from '../format/filter-devices';
import { formatFetchedAt, ROUTE_PIN_CHOICES, routeInUseLabel, routeOutcomeLabel } from '../format/hub-labels';
import { devicesOf } from '../stores/hubs-store';
import { DeviceCard } from './device-card';
import { DeviceFilters } from './device-filters';
import { FlowsPanel } from './flows-panel';
import { LiveIndicator } from './live-indicator';
import { useStores } from './stores-context';

export function DevicesPanel() {
  const { hubs } = useStores();
  const hub = useStore(hubs, (s) => (s.list.status === 'loaded' ? s.list.hubs.find((h) => h.id === s.selectedHubId) : undefined));
  const state = useStore(hubs, (s) => (s.selectedHubId === null ? undefined : devicesOf(s, s.selectedHubId)));
  // Kept here, not in the details: a reload (e.g. after changing the route setting inside them) must not fold them.
  const [routesOpen, setRoutesOpen] = useState(false);
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
        <LiveIndicator />
      </div>
      {state.status === 'loaded' && <RouteDetails list={state.list} open={routesOpen} onToggle={setRoutesOpen} />}
      {state.status === 'loaded' && <ControlNote list={state.list} />}
      {state.status === 'loaded' && <FlowsPanel />}
      {state.status === 'loaded' && <LiveDeviceGroups hubName={hub.name} />}
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

/**
 * Why the other routes were not taken, and whether unencrypted LAN routes may be used at all, behind a
 * disclosure (it matters when something is wrong). The setting is the session's, so it shows what main
 * holds, not what was clicked.
 */
function RouteDetails({ list, open, onToggle }: { list: DeviceList; open: boolean; onToggle(open: boolean): void }) {
  const { hubs, session } = useStores();
  const allowUnencrypted = useStore(session, (s) => s.session?.allowUnencryptedRoutes ?? true);
  const others = list.routeOutcomes.filter((outcome) => outcome.kind !== list.route);
  return (
    <details className="route-details" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary>{others.length > 0 ? 'Other routes' : 'Routes'}</summary>
      {others.length > 0 && (
        <ul>
          {others.map((outcome, index) => (
            <li key={`${outcome.kind}-${index}`}>{routeOutcomeLabel(outcome)}</li>
          ))}
        </ul>
      )}
      <label className="route-setting">
        <input type="checkbox" checked={allowUnencrypted} onChange={(event) => void hubs.getState().allowUnencryptedRoutes(event.target.checked)} /> Use an
        unencrypted LAN connection when no secure one works (your hub session crosses the network in the clear)
      </label>
    </details>
  );
}

/** Says once, for the whole hub, why no control can be used. */
function ControlNote({ list }: { list: DeviceList }) {
  if (list.permissions.control) return null;
  return <p className="permission-note">{list.permissions.reason ?? 'Controls are disabled: this sign-in may not change devices on this hub.'}</p>;
}

function LiveDeviceGroups({ hubName }: { hubName: string }) {
  const { live } = useStores();
  const loaded = useStore(live, (s) => s.loaded);
  const summaries = useStore(live, (s) => s.summaries);
  const favourites = useStore(live, (s) => s.favourites);
  const [filter, setFilter] = useState(NO_FILTER);
  // Typing stays responsive on a large hub: the grid follows the search a moment later.
  const shownFilter = useDeferredValue(filter);
  const choices = useMemo(() => filterChoices(summaries), [summaries]);
  const groups = useMemo(() => groupWithFavourites(filterDevices(summaries, shownFilter), favourites), [summaries, shownFilter, favourites]);

  if (!loaded) return null;
  if (summaries.length === 0) return <p>There are no devices on {hubName} yet.</p>;
  return (
    <>
      <DeviceFilters filter={filter} zones={choices.zones} classes={choices.classes} onChange={setFilter} />
      {groups.length === 0 && <p className="muted">No device matches.</p>}
      {groups.map((group) => (
        <section key={group.key} className="zone" aria-label={group.title}>
          <h2>{group.title}</h2>
          <div className="device-grid">
            {group.ids.map((id) => (
              <DeviceCard key={id} id={id} />
            ))}
          </div>
        </section>
      ))}
    </>
  );
}

function summary(list: DeviceList): string {
  const count = `${list.devices.length} ${list.devices.length === 1 ? 'device' : 'devices'}`;
  const time = formatFetchedAt(list.fetchedAt);
  return [count, routeInUseLabel(list), time && `updated ${time}`].filter(Boolean).join(' · ');
}
