import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../../common/ipc-contract';
import { contextBridge, fakeEvent, ipcRenderer, resetFakeElectron } from '../../support/fake-electron';
import '../../../preload/index';

vi.mock('electron', () => import('../../support/fake-electron'));

type Exposed = Record<string, unknown> & {
  hubs: { open: (id: string | null) => Promise<unknown> };
  on: (event: string, listener: (payload: unknown) => void) => () => void;
};

// What the preload exposed when it was imported above, as a page would see it.
const exposedKeys = [...contextBridge.exposed.keys()];
const exposed = contextBridge.exposed.get('hubdesk') as Exposed;

describe('preload bridge', () => {
  beforeEach(() => resetFakeElectron());

  it('exposes one object, `hubdesk`, holding the contract verbs and `on` only', async () => {
    expect(exposedKeys).toEqual(['hubdesk']);
    const namespaces = [...new Set(CHANNELS.map((c) => c.split('.')[0]))];
    expect(Object.keys(exposed).sort()).toEqual([...namespaces, 'on'].sort());
    for (const channel of CHANNELS) {
      const [ns, verb] = channel.split('.') as [string, string];
      expect(typeof (exposed[ns] as Record<string, unknown>)[verb]).toBe('function');
    }
    for (const value of Object.values(exposed)) expect(value).not.toBe(ipcRenderer);
  });

  it('sends verbs over the one invoke channel', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true });
    expect(await exposed.hubs.open('h1')).toEqual({ ok: true });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('hubdesk:invoke', 'hubs.open', ['h1']);
  });

  it('delivers only the subscribed event, checked against its schema, and stops after unsubscribing', async () => {
    const listener = vi.fn();
    const view = {
      auth: { status: 'signed-out' },
      notices: [],
      backend: { authUrl: 'http://127.0.0.1:1', embedded: true, portalUrl: null },
      tokenStorage: 'encrypted',
      allowUnencryptedRoutes: true,
    };
    const unsubscribe = exposed.on('session.changed', listener);
    ipcRenderer.emit('hubdesk:event', fakeEvent(), 'other.event', { x: 1 });
    ipcRenderer.emit('hubdesk:event', fakeEvent(), 'session.changed', { auth: { status: 'signed-out' } }); // malformed: dropped
    ipcRenderer.emit('hubdesk:event', fakeEvent(), 'session.changed', view);
    expect(listener.mock.calls).toEqual([[view]]);
    unsubscribe();
    ipcRenderer.emit('hubdesk:event', fakeEvent(), 'session.changed', view);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(ipcRenderer.listenerCount('hubdesk:event')).toBe(0);
  });

  it('refuses to subscribe to events outside the contract', async () => {
    expect(() => exposed.on('ipc.raw', vi.fn())).toThrow(/unknown event/);
  });
});
