/**
 * A scriptable Bridge for store tests: every invoke is recorded and stays pending until the test
 * resolves it, so tests decide the order in which answers arrive.
 */
import type { Envelope } from '../../../common/app-error';
import type { Bridge, DeviceList, EventName, HubPermissions, HubView, SessionView } from '../../../common/ipc-contract';
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
  /** Delivers an event to the listeners of that event (payloads are not checked: tests send bad ones too). */
  emit(event: EventName, payload: unknown): void;
  listenerCount(): number;
  /** Calls of one channel still waiting, oldest first. */
  waiting(channel: string): PendingCall[];
}

export function fakeBridge(): FakeBridge {
  const calls: PendingCall[] = [];
  const settled = new Set<PendingCall>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload));

  const verb =
    (channel: string) =>
    (...args: unknown[]) =>
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
      });

  const bridge = {
    session: { get: verb('session.get') },
    auth: { signIn: verb('auth.signIn'), cancel: verb('auth.cancel'), signOut: verb('auth.signOut') },
    hubs: {
      list: verb('hubs.list'),
      devices: verb('hubs.devices'),
      pinRoute: verb('hubs.pinRoute'),
      allowUnencryptedRoutes: verb('hubs.allowUnencryptedRoutes'),
      setCapability: verb('hubs.setCapability'),
      watch: verb('hubs.watch'),
      flows: verb('hubs.flows'),
      triggerFlow: verb('hubs.triggerFlow'),
      setFavourite: verb('hubs.setFavourite'),
    },
    vault: { allowPlaintextStorage: verb('vault.allowPlaintextStorage') },
    notices: { dismiss: verb('notices.dismiss') },
    on: (event: string, listener: (payload: unknown) => void) => {
      const forEvent = listeners.get(event) ?? new Set();
      listeners.set(event, forEvent.add(listener));
      return () => forEvent.delete(listener);
    },
  } as unknown as Bridge;

  return {
    bridge,
    calls,
    emitSession: (view) => emit('session.changed', view),
    emit,
    listenerCount: () => [...listeners.values()].reduce((sum, forEvent) => sum + forEvent.size, 0),
    waiting: (channel) => calls.filter((call) => call.channel === channel && !settled.has(call)),
  };
}

/** Lets pending promise callbacks (store updates after an answer) run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export const ok = <T>(value: T): Envelope<T> => ({ ok: true, value });

export function sessionView(auth: SessionView['auth'], overrides: Partial<SessionView> = {}): SessionView {
  return {
    auth,
    notices: [],
    backend: { authUrl: 'https://cloud.example.test', embedded: false },
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

/** A light with an on/off switch and a dim level, both last updated at `time`. */
export function light(id: string, name: string, on: boolean, dim: number, time = '2025-01-01T12:00:00.000Z'): Device {
  const capability = (state: Pick<CapabilityState, 'id' | 'type' | 'title' | 'value'> & Partial<CapabilityState>): CapabilityState => ({ getable: true, setable: true, lastUpdated: time, ...state });
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
