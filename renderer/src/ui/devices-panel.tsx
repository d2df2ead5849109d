/**
 * The open hub's devices, live: favourites first, then by zone, narrowed by search and filters;
 * or what is happening instead and what to do. The grid reads only the devices' names and places
 * (`summaries`); each card follows its own device, so a live change re-renders one card.
 */
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { HubView } from '../../../common/ipc-contract';
import { liveWords } from '../../../common/live-words';
import { describeDevicesError } from '../format/describe-error';
import { deviceCountLabel, filterChoices, filterDevices, firstCards, groupWithFavourites, NO_FILTER } from '../format/filter-devices';
import { formatFetchedAt, ROUTE_PIN_CHOICES, routeInUseLabel, routeOutcomeLabel } from '../format/hub-labels';
import { DeviceCard } from './device-card';
import { DeviceFilters } from './device-filters';
import { FlowsPanel } from './flows-panel';
import { LiveBanner } from './live-banner';
import { LiveIndicator } from './live-indicator';
import { type NotLive, NotLiveContext } from './not-live-context';
import { useMediaQuery } from './use-media-query';
import { useLinked, useStores } from './stores-context';
import { useProgressiveLimit } from './use-progressive-limit';
import { useZonesLaidOutAhead } from './use-zones-laid-out-ahead';
import { WhatsOnDialog } from './whats-on-dialog';

/** Cards drawn per frame while a hub's grid first fills: each step is a short task, not one long one. */
const CARDS_PER_FRAME = 20;
const NO_SUMMARIES: readonly never[] = [];

export function DevicesPanel() {
  const { hubs, openHub } = useStores();
  const hubId = useStore(openHub, (s) => s.hubId);
  const hub = useStore(hubs, (s) => (s.list.status === 'loaded' ? s.list.hubs.find((h) => h.id === hubId) : undefined));
  const snapshot = useStore(openHub, (s) => s.snapshot);
  // Kept here, not in the details: a reload (e.g. after changing the route setting inside them) must not fold them.
  const [routesOpen, setRoutesOpen] = useState(false);
  const blockedId = useId();
  const notLive = useNotLive(hub?.name ?? '', blockedId);
  // A narrow window lays the head in one line and folds routes and flows beside the filters (app-shell.css, the same width).
  const compact = useMediaQuery('(max-width: 960px)');
  if (!hub) return <div className="devices-panel" />;

  const busy = snapshot.status === 'loading' || snapshot.status === 'idle';
  const loaded = snapshot.status === 'loaded';
  const advice = snapshot.status === 'error' ? describeDevicesError(snapshot.error, hub.name) : undefined;
  const reload = () => openHub.getState().reload();

  return (
    <section className="devices-panel" aria-label={`Devices on ${hub.name}`} aria-busy={busy} data-compact={compact || undefined}>
      <div className="devices-head">
        <p className="panel-title">{hub.name}</p>
        <div role="status" aria-live="polite" className="devices-status">
          {busy && (
            <p>
              <span className="spinner" aria-hidden="true" /> Loading devices…
            </p>
          )}
          {advice && <p className="error-text">{advice.text}</p>}
          {loaded && <DevicesSummary />}
        </div>
        {advice?.retry && (
          <button type="button" className="primary" onClick={reload}>
            Try again
          </button>
        )}
        {loaded && (
          <button type="button" onClick={reload}>
            Refresh
          </button>
        )}
        {loaded && <WhatsOnButton hubName={hub.name} />}
        {loaded && <EnergyButton />}
        <RoutePin hub={hub} />
        <LiveIndicator hubName={hub.name} />
      </div>
      <LiveBanner hubName={hub.name} blockedId={blockedId} shown={loaded} />
      {loaded && <RouteDetails open={routesOpen} onToggle={setRoutesOpen} />}
      {loaded && <ControlNote />}
      <NotLiveContext.Provider value={notLive}>
        {loaded && <FlowsPanel compact={compact} />}
        {loaded && <LiveDeviceGroups hubName={hub.name} />}
      </NotLiveContext.Provider>
    </section>
  );
}

/**
 * While the open hub is not live: why changes cannot be sent and when the values were last confirmed,
 * for the cards (not-live-context.ts). A new object only when one of those changes, not with each
 * countdown: every card reads it.
 */
function useNotLive(hubName: string, blockedId: string): NotLive | null {
  const { openHub } = useStores();
  const linked = useLinked();
  const outage = useStore(openHub, (s) => linked && s.outage);
  const reason = useStore(openHub, (s) => (outage && s.live ? liveWords(s.live, hubName).blocked : null));
  const confirmedAt = useStore(openHub, (s) => s.confirmedAt);
  return useMemo(
    () => (outage ? { blocked: reason === null ? null : { reason, id: blockedId }, confirmedAt } : null),
    [outage, reason, blockedId, confirmedAt],
  );
}

/** e.g. "12 devices · Secure LAN · 3 ms · updated 12:00:00". */
function DevicesSummary() {
  const { openHub } = useStores();
  const count = useStore(openHub, (s) => s.summaries.length);
  const route = useStore(openHub, (s) => s.route);
  const time = route && formatFetchedAt(route.fetchedAt);
  const text = [deviceCountLabel(count, count, false), route && routeInUseLabel(route), time && `updated ${time}`].filter(Boolean).join(' · ');
  // A narrow window cuts this line to its width: the whole of it on hover.
  return (
    <p className="muted" title={text}>
      {text}
    </p>
  );
}

/** Goes to the Energy view (docs/insights-app.md, "Energy") when the hub keeps the history of any meter; or says why there is no history at all. */
function EnergyButton() {
  const { insights, preferences } = useStores();
  const metered = useStore(
    insights,
    (s) => s.logs.status === 'available' && Object.values(s.logs.byDevice).some((logs) => logs.some((log) => log.capabilityId === 'meter_power')),
  );
  const unavailable = useStore(insights, (s) => (s.logs.status === 'unavailable' ? s.logs.reason : undefined));
  const failed = useStore(insights, (s) => (s.logs.status === 'error' ? s.logs.error.message : undefined));
  if (unavailable) return <p className="muted insights-note">No charts: {unavailable}</p>;
  if (failed)
    return (
      <p className="insights-note">
        <span className="error-text">No charts: {failed}</span>{' '}
        <button type="button" onClick={() => insights.getState().retryLogs()}>
          Read the history again
        </button>
      </p>
    );
  if (!metered) return null;
  return (
    <button type="button" onClick={() => preferences.getState().setLastView('energy')}>
      Energy
    </button>
  );
}

/** Opens "What's on" (what is on, open or unlocked now, to turn off). */
function WhatsOnButton({ hubName }: { hubName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        What’s on
      </button>
      {open && <WhatsOnDialog hubName={hubName} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Lets the user pin the route; a pinned route is the only one tried. */
function RoutePin({ hub }: { hub: HubView }) {
  const { openHub } = useStores();
  const choose = (value: string) => {
    const choice = ROUTE_PIN_CHOICES.find((c) => c.value === value);
    if (choice) void openHub.getState().pinRoute(choice.value === 'auto' ? null : choice.value);
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
function RouteDetails({ open, onToggle }: { open: boolean; onToggle(open: boolean): void }) {
  const { openHub, session } = useStores();
  const allowUnencrypted = useStore(session, (s) => s.session?.allowUnencryptedRoutes ?? true);
  const route = useStore(openHub, (s) => s.route);
  const others = route ? route.routeOutcomes.filter((outcome) => outcome.kind !== route.route) : [];
  return (
    <details className="route-details" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary>{others.length > 0 ? 'Other routes' : 'Routes'}</summary>
      <div className="route-popover">
        {others.length > 0 && (
          <ul>
            {others.map((outcome, index) => (
              <li key={`${outcome.kind}-${index}`}>{routeOutcomeLabel(outcome)}</li>
            ))}
          </ul>
        )}
        <label className="route-setting">
          <input type="checkbox" checked={allowUnencrypted} onChange={(event) => void openHub.getState().allowUnencryptedRoutes(event.target.checked)} /> Use an
          unencrypted LAN connection when no secure one works (your hub session crosses the network in the clear)
        </label>
      </div>
    </details>
  );
}

/** Says once, for the whole hub, why no control can be used. */
function ControlNote() {
  const { openHub } = useStores();
  const permissions = useStore(openHub, (s) => s.permissions);
  if (permissions.control) return null;
  return <p className="permission-note">{permissions.reason ?? 'Controls are disabled: this sign-in may not change devices on this hub.'}</p>;
}

function LiveDeviceGroups({ hubName }: { hubName: string }) {
  const { openHub } = useStores();
  // A new snapshot's grid is worked out in a render React can interrupt (it yields every few ms), not
  // in the task that received it: with 1,000 devices that render was itself a long task.
  const latest = useStore(openHub, (s) => s.summaries);
  const summaries = useDeferredValue(latest, NO_SUMMARIES);
  const favourites = useStore(openHub, (s) => s.favourites);
  const [filter, setFilter] = useState(NO_FILTER);
  // Typing stays responsive on a large hub: the grid follows the search a moment later.
  const shownFilter = useDeferredValue(filter);
  const choices = useMemo(() => filterChoices(summaries), [summaries]);
  const shown = useMemo(() => filterDevices(summaries, shownFilter), [summaries, shownFilter]);
  const allGroups = useMemo(() => groupWithFavourites(shown, favourites), [shown, favourites]);
  const hubId = useStore(openHub, (s) => s.hubId);
  const limit = useProgressiveLimit(shown.length, CARDS_PER_FRAME, hubId);
  const groups = useMemo(() => (limit >= shown.length ? allGroups : firstCards(allGroups, limit)), [allGroups, limit, shown.length]);
  const trackZone = useZonesLaidOutAhead(limit >= shown.length ? groups : null);

  if (summaries !== latest && summaries.length === 0) return null; // the grid follows in a moment
  if (summaries.length === 0) return <p>There are no devices on {hubName} yet.</p>;
  return (
    <>
      <DeviceFilters filter={filter} zones={choices.zones} classes={choices.classes} shown={shown.length} total={summaries.length} onChange={setFilter} />
      {allGroups.length === 0 && <p className="muted">No device matches.</p>}
      {groups.map((group) => (
        <section key={group.key} ref={trackZone} className="zone" aria-label={group.title}>
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
