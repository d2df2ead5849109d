/**
 * A scriptable Bridge for store tests: every invoke is recorded and stays pending until the test
 * resolves it, so tests decide the order in which answers arrive.
 */
import type { Envelope } from '../../../common/app-error';
import type { Bridge, DeviceList, HubView, SessionView } from '../../../common/ipc-contract';

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
  listenerCount(): number;
  /** Calls of one channel still waiting, oldest first. */
  waiting(channel: string): PendingCall[];
}

export function fakeBridge(): FakeBridge {
  const calls: PendingCall[] = [];
  const settled = new Set<PendingCall>();
  const listeners = new Set<(payload: unknown) => void>();

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
    hubs: { list: verb('hubs.list'), devices: verb('hubs.devices'), pinRoute: verb('hubs.pinRoute') },
    vault: { allowPlaintextStorage: verb('vault.allowPlaintextStorage') },
    notices: { dismiss: verb('notices.dismiss') },
    on: (_event: string, listener: (payload: unknown) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Bridge;

  return {
    bridge,
    calls,
    emitSession: (view) => listeners.forEach((listener) => listener(view)),
    listenerCount: () => listeners.size,
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

export function deviceList(hubId: string, names: string[]): DeviceList {
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
  };
}
