/**
 * A scriptable Bridge for store tests, built by the contract's own `createBridge` over a fake
 * transport: every invoke is recorded and stays pending until the test resolves it, so tests decide
 * the order in which answers arrive; every emitted event is checked against the contract's schema on
 * its way to the listeners, as in the app (a malformed one is dropped with a warning).
 */
import type { Envelope } from '../../../common/app-error';
import { createBridge } from '../../../common/contract-bridge';
import {
  type Bridge,
  type DeviceList,
  type EventName,
  type EventPayload,
  type FlowList,
  type HubPermissions,
  type HubSnapshot,
  type HubView,
  type SessionView,
} from '../../../common/ipc-contract';
import type { CapabilityState, Device } from '../../../common/wire';

export interface PendingCall {
  channel: string;
  args: unknown[];
  resolve(envelope: Envelope<unknown>): void;
  reject(error: unknown): void;
}

export interface FakeBridge {
  bridge: Bridge;
  calls: PendingCall[];
  emitSession(view: unknown): void;
  /** Delivers an event through the bridge: listeners get it only if it fits the contract. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Delivers something that may not fit the contract (to show it never reaches a store). */
  emitRaw(event: EventName, payload: unknown): void;
  listenerCount(): number;
  /** Calls of one channel still waiting, oldest first. */
  waiting(channel: string): PendingCall[];
  /** The arguments of every call of one channel so far, settled or not. */
  argsOf(channel: string): unknown[][];
}

export function fakeBridge(): FakeBridge {
  const calls: PendingCall[] = [];
  const settled = new Set<PendingCall>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload));

  const bridge = createBridge({
    invoke: (channel, args) =>
      new Promise<Envelope<unknown>>((resolve, reject) => {
        const call: PendingCall = {
          channel,
          args,
          resolve: (envelope) => {
            settled.add(call);
            resolve(envelope);
          },
          reject: (error) => {
            settled.add(call);
            reject(error);
          },
        };
        calls.push(call);
      }),
    on: (event, listener) => {
      const forEvent = listeners.get(event) ?? new Set();
      listeners.set(event, forEvent.add(listener));
      return () => forEvent.delete(listener);
    },
  });

  return {
    bridge,
    calls,
    emitSession: (view) => emit('session.changed', view),
    emit,
    emitRaw: emit,
    listenerCount: () => [...listeners.values()].reduce((sum, forEvent) => sum + forEvent.size, 0),
    waiting: (channel) => calls.filter((call) => call.channel === channel && !settled.has(call)),
    argsOf: (channel) => calls.filter((call) => call.channel === channel).map((call) => call.args),
  };
}

/** Lets pending promise callbacks (store updates after an answer) run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export const ok = <T>(value: T): Envelope<T> => ({ ok: true, value });

export function sessionView(auth: SessionView['auth'], overrides: Partial<SessionView> = {}): SessionView {
  return {
    auth,
    notices: [],
    backend: { authUrl: 'https://cloud.example.test', embedded: false, portalUrl: 'https://portal.example.test/webhooks' },
    tokenStorage: 'encrypted',
    allowUnencryptedRoutes: true,
    ...overrides,
  };
}

export const SIGNED_IN: SessionView['auth'] = {
  status: 'signed-in',
  user: { id: 'u1', email: 'ada@example.test', firstname: 'Ada', lastname: 'Lovelace' },
};

export function hub(id: string, name: string): HubView {
  return { id, name, platform: 'local', routes: { 'local-secure': true, local: true, remote: false }, pinnedRoute: null };
}

export const FULL_CONTROL: HubPermissions = { control: true, flows: 'start' };
export const READ_ONLY: HubPermissions = { control: false, flows: 'read', reason: 'This sign-in may only look at devices.' };

export function deviceList(hubId: string, names: string[], extra: Partial<DeviceList> = {}): DeviceList {
  return {
    hubId,
    route: 'local-secure',
    rttMs: 3,
    routeOutcomes: [
      { kind: 'local-secure', outcome: 'answered', rttMs: 3 },
      { kind: 'local', outcome: 'aborted' },
    ],
    fetchedAt: '2025-01-01T12:00:00.000Z',
    devices: names.map((name, i) => ({ id: `${hubId}-d${i}`, name, class: 'light', capabilities: [] })),
    permissions: FULL_CONTROL,
    favourites: [],
    ...extra,
  };
}

export const FLOWS: FlowList = { hubId: 'h1', canStart: true, flows: [{ id: 'f1', name: 'Good night', enabled: true }] };

/** A loaded snapshot of the hub of `list`, with its flows (none to show by default). */
export function snapshot(list: DeviceList, flows: Extract<HubSnapshot, { status: 'loaded' }>['flows'] = { status: 'none' }): HubSnapshot {
  return { status: 'loaded', hubId: list.hubId, devices: list, flows };
}

/** A light with an on/off switch and a dim level, both last updated at `time`. */
export function light(id: string, name: string, on: boolean, dim: number, time = '2025-01-01T12:00:00.000Z'): Device {
  const capability = (state: Pick<CapabilityState, 'id' | 'type' | 'title' | 'value'> & Partial<CapabilityState>): CapabilityState => ({
    getable: true,
    setable: true,
    lastUpdated: time,
    ...state,
  });
  return {
    id,
    name,
    class: 'light',
    capabilities: ['onoff', 'dim'],
    capabilitiesObj: {
      onoff: capability({ id: 'onoff', type: 'boolean', title: 'Turned on', value: on }),
      dim: capability({ id: 'dim', type: 'number', title: 'Dim level', value: dim, min: 0, max: 1, step: 0.01, units: '%' }),
    },
  };
}
