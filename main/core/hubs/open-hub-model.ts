/**
 * The open hub's model in main (docs/hub-realtime.md, "The open hub's model and live states"): its
 * devices, flows, favourites and live state, owned by open-hub.ts, which applies every snapshot, batch
 * of changes and live state here at the moment it sends the same to the window, with the same rule
 * (common/device-events.ts). The tray, the desktop alerts and the notifications read it; nothing else
 * keeps a copy of the open hub in main.
 *
 * A first snapshot of a hub states values, it does not change them: only a value that was known
 * before (an earlier snapshot or event of the same hub) and differs is reported as a change.
 */
import { applyEvents, changedValues, mergeSnapshot, type ValueChange } from '../../../common/device-events';
import type { DeviceEvent, Flow, HubSnapshot, LiveState, LiveStatus } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import type { Logger } from '../shared';
import { errorMessage } from '../../../common/error-message';
import { createEmitter } from '../../../common/emitter';

/** One favourite device as a quick toggle: `on` is null when it has no readable on/off switch. */
export interface SummaryFavourite {
  deviceId: string;
  name: string;
  on: boolean | null;
  /** The device reports itself available and its switch can be set. */
  canToggle: boolean;
}

export interface OpenHubSummary {
  hubId: string | null;
  /** The hub's name from the user's hubs (hub-sessions.ts), or its id while they were not read. */
  hubName: string | null;
  /** `closed` while no hub is open. */
  live: LiveState;
  /** The favourite devices, in the order they were pinned. */
  favourites: SummaryFavourite[];
  /** Enabled flows, by name; empty when the session may not start flows. */
  flows: Array<Pick<Flow, 'id' | 'name'>>;
}

/** One capability value that changed on the open hub. */
export interface CapabilityChange extends ValueChange {
  hubId: string;
}

/** What the tray and the alerts read. */
export interface OpenHubView {
  summary(): OpenHubSummary;
  /** The summary may have changed (called at most once per update). */
  onSummary(listener: (summary: OpenHubSummary) => void): () => void;
  onCapabilityChange(listener: (change: CapabilityChange) => void): () => void;
  /** Every live state the window is sent, of the open hub and of the one it replaced. */
  onLive(listener: (status: LiveStatus) => void): () => void;
}

/** What open-hub.ts writes. */
export interface OpenHubModel extends OpenHubView {
  snapshot(snapshot: HubSnapshot): void;
  events(hubId: string, events: readonly DeviceEvent[]): void;
  live(status: LiveStatus): void;
  /** The user starred or unstarred a device of the hub. */
  favourites(hubId: string, deviceIds: readonly string[]): void;
}

const ON_OFF = 'onoff';
const CLOSED: LiveState = { kind: 'closed' };
/** States that end the hub's channel for good: the model forgets the hub. */
const ENDS_THE_HUB: ReadonlySet<LiveState['kind']> = new Set(['closed', 'signed-out']);

/** A set of listeners of one kind; one that throws is logged and does not stop the others. */
function listeners<T>(what: string, logger: Logger) {
  return createEmitter<T>((error) => logger.error(`core: an open-hub ${what} listener failed`, { error: errorMessage(error) }));
}

export function createOpenHubModel(hubName: (hubId: string) => string | undefined, logger: Logger): OpenHubModel {
  let hubId: string | null = null;
  let devices: Record<string, Device> = {};
  let favouriteIds: readonly string[] = [];
  let flows: Flow[] = [];
  let canControl = false;
  let canStartFlows = false;
  let live: LiveState = CLOSED;
  const summaries = listeners<OpenHubSummary>('summary', logger);
  const changes = listeners<CapabilityChange>('capability', logger);
  const liveStates = listeners<LiveStatus>('live', logger);

  const reset = (next: string | null) => {
    hubId = next;
    devices = {};
    favouriteIds = [];
    flows = [];
    canControl = false;
    canStartFlows = false;
    live = next === null ? CLOSED : { kind: 'connecting' };
  };

  const tell = (change: ValueChange) => {
    if (hubId !== null) changes.emit({ hubId, ...change });
  };

  const summary = (): OpenHubSummary => ({
    hubId,
    hubName: hubId === null ? null : (hubName(hubId) ?? hubId),
    live,
    favourites: favouriteIds.flatMap((deviceId) => {
      const device = Object.hasOwn(devices, deviceId) ? devices[deviceId] : undefined;
      if (device === undefined) return [];
      const onOff = device.capabilitiesObj?.[ON_OFF];
      const on = typeof onOff?.value === 'boolean' ? onOff.value : null;
      return [{ deviceId, name: device.name, on, canToggle: canControl && on !== null && onOff?.setable === true && device.available !== false }];
    }),
    flows: canStartFlows ? flows.filter((flow) => flow.enabled).map(({ id, name }) => ({ id, name })) : [],
  });
  const changed = () => summaries.emit(summary());

  return {
    snapshot(snapshot) {
      if (snapshot.hubId !== hubId) reset(snapshot.hubId);
      if (snapshot.status === 'loaded') {
        const before = devices;
        devices = mergeSnapshot(before, snapshot.devices.devices);
        for (const device of Object.values(devices)) {
          const known = Object.hasOwn(before, device.id) ? before[device.id] : undefined;
          if (known !== undefined) changedValues(known, device).forEach(tell);
        }
        favouriteIds = snapshot.devices.favourites;
        canControl = snapshot.devices.permissions.control;
        canStartFlows = snapshot.flows.status === 'loaded' && snapshot.flows.list.canStart;
        flows = snapshot.flows.status === 'loaded' ? snapshot.flows.list.flows : [];
      }
      changed();
    },
    events(forHub, batch) {
      if (forHub !== hubId) return;
      const applied = applyEvents(devices, batch, () => false, tell);
      if (applied === null) return;
      devices = applied.devices;
      changed();
    },
    live(status) {
      liveStates.emit(status);
      const ends = ENDS_THE_HUB.has(status.state.kind);
      if (status.hubId !== hubId) {
        if (ends) return; // the hub that was open before, closing
        reset(status.hubId);
      } else if (ends) {
        reset(null);
        return changed();
      }
      live = status.state;
      changed();
    },
    favourites(forHub, deviceIds) {
      if (forHub !== hubId) return;
      favouriteIds = [...deviceIds];
      changed();
    },
    summary,
    onSummary: summaries.on,
    onCapabilityChange: changes.on,
    onLive: liveStates.on,
  };
}
