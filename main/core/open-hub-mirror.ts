/**
 * The open hub as main itself sees it (issue 13 §4): a copy of its devices, flows and live state, kept
 * from the same `hubs.snapshot` / `hubs.deviceEvents` / `hubs.live` events the renderer gets. The tray
 * shows a summary of it (favourite switches, flows to start, the connection at a glance), and the
 * desktop alerts learn from it which capability changed from what to what.
 *
 * A first snapshot of a hub states values, it does not change them: only a value that was known
 * before (an earlier snapshot or event of the same hub) and differs is reported as a change.
 */
import type { DeviceEvent, EventPayload, Flow, LiveStatus } from '../../common/ipc-contract';
import type { CapabilityState, Device } from '../../common/wire';
import { CLOSED_REASON, type LiveEvent, SIGNED_OUT_REASON } from './open-hub';
import type { Logger } from './ports';

/** The live channel in one word; `closed` when no hub is open. */
export type MirrorLiveState = LiveStatus['state']['state'] | 'closed';

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
  /** The hub's name from the user's hub list, or its id when the list was not read. */
  hubName: string | null;
  live: MirrorLiveState;
  /** Why the live channel is not live, when it says. */
  liveReason?: string;
  /** The favourite devices, in the order they were pinned. */
  favourites: SummaryFavourite[];
  /** Enabled flows, by name; empty when the session may not start flows. */
  flows: Array<Pick<Flow, 'id' | 'name'>>;
}

/** One capability value that changed on the open hub. */
export interface CapabilityChange {
  hubId: string;
  device: Device;
  capabilityId: string;
  previous: unknown;
  value: unknown;
}

export interface OpenHubMirror {
  apply<E extends LiveEvent>(event: E, payload: EventPayload<E>): void;
  /** The favourites changed (the user starred or unstarred a device). */
  setFavourites(hubId: string, deviceIds: readonly string[]): void;
  summary(): OpenHubSummary;
  /** The summary may have changed (called at most once per applied event). */
  onSummary(listener: (summary: OpenHubSummary) => void): () => void;
  onCapabilityChange(listener: (change: CapabilityChange) => void): () => void;
  onLive(listener: (status: LiveStatus) => void): () => void;
  /** Whether the open hub's session may set capabilities. */
  canControl(): boolean;
}

const ON_OFF = 'onoff';

/** A set of listeners of one kind; one that throws is logged and does not stop the others. */
function listeners<T>(what: string, logger: Logger) {
  const set = new Set<(payload: T) => void>();
  return {
    emit(payload: T) {
      for (const listener of set) {
        try {
          listener(payload);
        } catch (error) {
          logger.error(`core: an open-hub ${what} listener failed`, { error: error instanceof Error ? error.message : String(error) });
        }
      }
    },
    on(listener: (payload: T) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
}

export function createOpenHubMirror(hubName: (hubId: string) => string | undefined, logger: Logger): OpenHubMirror {
  let hubId: string | null = null;
  let devices = new Map<string, Device>();
  let favouriteIds: readonly string[] = [];
  let flows: Flow[] = [];
  let canControl = false;
  let canStartFlows = false;
  let live: MirrorLiveState = 'closed';
  let liveReason: string | undefined;
  const summaries = listeners<OpenHubSummary>('summary', logger);
  const changes = listeners<CapabilityChange>('capability', logger);
  const liveStates = listeners<LiveStatus>('live', logger);

  const reset = (next: string | null) => {
    hubId = next;
    devices = new Map();
    favouriteIds = [];
    flows = [];
    canControl = false;
    canStartFlows = false;
    live = next === null ? 'closed' : 'connecting';
    liveReason = undefined;
  };

  const valueOf = (device: Device | undefined, capabilityId: string): unknown => device?.capabilitiesObj?.[capabilityId]?.value;

  const reportChanges = (before: Device | undefined, after: Device) => {
    if (hubId === null || before === undefined) return;
    for (const [capabilityId, state] of Object.entries<CapabilityState>(after.capabilitiesObj ?? {})) {
      const previous = valueOf(before, capabilityId);
      if (previous !== undefined && previous !== state.value) changes.emit({ hubId, device: after, capabilityId, previous, value: state.value });
    }
  };

  const applyDeviceEvent = (event: DeviceEvent) => {
    if (event.kind === 'removed') {
      devices.delete(event.deviceId);
      return;
    }
    if (event.kind === 'device') {
      const before = devices.get(event.device.id);
      devices.set(event.device.id, event.device);
      reportChanges(before, event.device);
      return;
    }
    const device = devices.get(event.deviceId);
    const state = device?.capabilitiesObj?.[event.capabilityId];
    if (device === undefined || state === undefined) return;
    const updated: Device = { ...device, capabilitiesObj: { ...device.capabilitiesObj, [event.capabilityId]: { ...state, value: event.value, lastUpdated: event.time } } };
    devices.set(device.id, updated);
    if (state.value !== event.value && hubId !== null) changes.emit({ hubId, device: updated, capabilityId: event.capabilityId, previous: state.value, value: event.value });
  };

  const summary = (): OpenHubSummary => ({
    hubId,
    hubName: hubId === null ? null : (hubName(hubId) ?? hubId),
    live,
    ...(liveReason === undefined ? {} : { liveReason }),
    favourites: favouriteIds.flatMap((deviceId) => {
      const device = devices.get(deviceId);
      if (device === undefined) return [];
      const onOff = device.capabilitiesObj?.[ON_OFF];
      const on = typeof onOff?.value === 'boolean' ? onOff.value : null;
      return [{ deviceId, name: device.name, on, canToggle: canControl && on !== null && onOff?.setable === true && device.available !== false }];
    }),
    flows: canStartFlows ? flows.filter((flow) => flow.enabled).map(({ id, name }) => ({ id, name })) : [],
  });

  return {
    apply(event, payload) {
      if (event === 'hubs.snapshot') {
        const snapshot = payload as EventPayload<'hubs.snapshot'>;
        if (snapshot.hubId !== hubId) reset(snapshot.hubId);
        if (snapshot.status === 'loaded') {
          const before = devices;
          devices = new Map(snapshot.devices.devices.map((device) => [device.id, device]));
          for (const device of devices.values()) reportChanges(before.get(device.id), device);
          favouriteIds = snapshot.devices.favourites;
          canControl = snapshot.devices.permissions.control;
          canStartFlows = snapshot.flows.status === 'loaded' && snapshot.flows.list.canStart;
          flows = snapshot.flows.status === 'loaded' ? snapshot.flows.list.flows : [];
        }
      } else if (event === 'hubs.deviceEvents') {
        const batch = payload as EventPayload<'hubs.deviceEvents'>;
        if (batch.hubId !== hubId) return;
        for (const deviceEvent of batch.events) applyDeviceEvent(deviceEvent);
      } else {
        const status = payload as EventPayload<'hubs.live'>;
        liveStates.emit(status);
        const { state } = status;
        if (status.hubId !== hubId) {
          if (state.state === 'offline') return; // the hub that was open before, closing
          reset(status.hubId);
        } else if (state.state === 'offline' && (state.reason === CLOSED_REASON || state.reason === SIGNED_OUT_REASON)) {
          reset(null);
          summaries.emit(summary());
          return;
        }
        live = state.state;
        liveReason = 'reason' in state ? state.reason : undefined;
      }
      summaries.emit(summary());
    },
    setFavourites(forHub, deviceIds) {
      if (forHub !== hubId) return;
      favouriteIds = [...deviceIds];
      summaries.emit(summary());
    },
    summary,
    onSummary: summaries.on,
    onCapabilityChange: changes.on,
    onLive: liveStates.on,
    canControl: () => canControl,
  };
}
