import { describe, expect, it } from 'vitest';
import { connectStores } from '../../../renderer/src/stores/connect-stores';
import { createHubsStore, devicesOf } from '../../../renderer/src/stores/hubs-store';
import { createSessionStore } from '../../../renderer/src/stores/session-store';
import { deviceList, fakeBridge, flush, hub, ok, SIGNED_IN, sessionView } from './fake-bridge';

const HOME = hub('h1', 'Home');
const CABIN = hub('h2', 'Cabin');

async function activeStore(hubs = [HOME, CABIN]) {
  const fake = fakeBridge();
  const store = createHubsStore(fake.bridge);
  store.getState().setActive(true);
  fake.waiting('hubs.list')[0]!.resolve(ok(hubs));
  await flush();
  return { fake, store };
}

describe('hubs store', () => {
  it('does nothing until active', async () => {
    const fake = fakeBridge();
    const store = createHubsStore(fake.bridge);
    await store.getState().reload();
    store.getState().select('h1');
    expect(fake.calls).toHaveLength(0);
    expect(store.getState().list.status).toBe('idle');
  });

  it('loads the hubs, selects the first one and loads its devices', async () => {
    const fake = fakeBridge();
    const store = createHubsStore(fake.bridge);
    store.getState().setActive(true);
    expect(store.getState().list.status).toBe('loading');

    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [HOME, CABIN] });
    expect(store.getState().selectedHubId).toBe('h1');
    expect(devicesOf(store.getState(), 'h1').status).toBe('loading');

    const [call] = fake.waiting('hubs.devices');
    expect(call?.args).toEqual(['h1']);
    call!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    expect(devicesOf(store.getState(), 'h1')).toEqual({ status: 'loaded', list: deviceList('h1', ['Lamp']) });
  });

  it('shows an empty account without selecting anything', async () => {
    const { fake, store } = await activeStore([]);
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [] });
    expect(store.getState().selectedHubId).toBeNull();
    expect(fake.waiting('hubs.devices')).toHaveLength(0);
  });

  it('keeps a hub list error and retries with reload', async () => {
    const fake = fakeBridge();
    const store = createHubsStore(fake.bridge);
    store.getState().setActive(true);
    fake.waiting('hubs.list')[0]!.resolve({ ok: false, error: { code: 'cloud-unreachable', message: 'The cloud did not answer.' } });
    await flush();
    expect(store.getState().list).toEqual({ status: 'error', error: { code: 'cloud-unreachable', message: 'The cloud did not answer.' } });

    const retry = store.getState().reload();
    expect(store.getState().list.status).toBe('loading');
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME]));
    await flush();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', [])));
    await retry;
    expect(store.getState().list.status).toBe('loaded');
  });

  it('keeps a device error per hub and loads again when the hub is selected again', async () => {
    const { fake, store } = await activeStore();
    fake.waiting('hubs.devices')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'No address answered.' } });
    await flush();
    expect(devicesOf(store.getState(), 'h1')).toEqual({ status: 'error', error: { code: 'hub-unreachable', message: 'No address answered.' } });

    store.getState().select('h1');
    expect(devicesOf(store.getState(), 'h1').status).toBe('loading');
    expect(fake.waiting('hubs.devices')).toHaveLength(1);
  });

  it('keeps showing a loaded hub selected again while it refetches it, and reload loads the selected hub', async () => {
    const { fake, store } = await activeStore();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    store.getState().select('h2');
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h2', ['Stove'])));
    await flush();

    store.getState().select('h1');
    store.getState().select('h1'); // selecting the selected hub again does not fetch again
    expect(fake.waiting('hubs.devices').map((c) => c.args)).toEqual([['h1']]);
    expect(devicesOf(store.getState(), 'h1')).toEqual({ status: 'loaded', list: deviceList('h1', ['Lamp']) });
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp', 'Desk'])));
    await flush();
    expect(devicesOf(store.getState(), 'h1')).toEqual({ status: 'loaded', list: deviceList('h1', ['Lamp', 'Desk']) });

    // A failed background refetch leaves the list shown.
    store.getState().select('h2');
    fake.waiting('hubs.devices')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'No address answered.' } });
    await flush();
    expect(devicesOf(store.getState(), 'h2').status).toBe('loaded');
    store.getState().select('h1');
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();

    void store.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(fake.waiting('hubs.devices').map((c) => c.args)).toEqual([['h1']]);
    // The selection survives a reload, and other hubs keep what they had.
    expect(store.getState().selectedHubId).toBe('h1');
    expect(devicesOf(store.getState(), 'h2').status).toBe('loaded');
  });

  it('ignores a selection of a hub that is not in the list', async () => {
    const { fake, store } = await activeStore();
    const before = fake.calls.length;
    store.getState().select('nope');
    expect(store.getState().selectedHubId).toBe('h1');
    expect(fake.calls.length).toBe(before);
  });

  it('a slow answer for a hub no longer selected does not replace the current hub', async () => {
    const { fake, store } = await activeStore();
    const slowHome = fake.waiting('hubs.devices')[0]!;
    store.getState().select('h2');
    const cabin = fake.waiting('hubs.devices').find((c) => c.args[0] === 'h2')!;
    cabin.resolve(ok(deviceList('h2', ['Stove'])));
    await flush();

    slowHome.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    expect(store.getState().selectedHubId).toBe('h2');
    expect(devicesOf(store.getState(), 'h2')).toEqual({ status: 'loaded', list: deviceList('h2', ['Stove']) });
    // Filed under its own hub, it is what that hub shows when selected again.
    expect(devicesOf(store.getState(), 'h1')).toEqual({ status: 'loaded', list: deviceList('h1', ['Lamp']) });
  });

  it('an overtaken answer for the same hub is dropped', async () => {
    const { fake, store } = await activeStore();
    const first = fake.waiting('hubs.devices')[0]!;
    void store.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    const second = fake.waiting('hubs.devices').find((c) => c !== first)!;

    second.resolve(ok(deviceList('h1', ['New lamp'])));
    await flush();
    first.resolve(ok(deviceList('h1', ['Old lamp'])));
    await flush();
    expect(devicesOf(store.getState(), 'h1')).toEqual({ status: 'loaded', list: deviceList('h1', ['New lamp']) });
  });

  it('an overtaken hub list answer is dropped', async () => {
    const { fake, store } = await activeStore();
    void store.getState().reload();
    void store.getState().reload();
    const [older, newer] = fake.waiting('hubs.list');
    newer!.resolve(ok([CABIN]));
    await flush();
    older!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(store.getState().list).toEqual({ status: 'loaded', hubs: [CABIN] });
    expect(store.getState().selectedHubId).toBe('h2');
  });

  it('refuses devices that belong to another hub', async () => {
    const { fake, store } = await activeStore();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h2', ['Stove'])));
    await flush();
    expect(devicesOf(store.getState(), 'h1').status).toBe('error');
  });

  it('clears everything when it becomes inactive and drops answers that arrive afterwards', async () => {
    const { fake, store } = await activeStore();
    const pending = fake.waiting('hubs.devices')[0]!;
    store.getState().setActive(false);
    expect(store.getState()).toMatchObject({ active: false, list: { status: 'idle' }, selectedHubId: null, devices: {} });

    pending.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    expect(store.getState().devices).toEqual({});
  });
});

describe('connectStores', () => {
  it('activates the hubs store on sign-in and clears it when the session leaves signed-in', async () => {
    const fake = fakeBridge();
    const session = createSessionStore(fake.bridge);
    const hubs = createHubsStore(fake.bridge);
    const disconnect = connectStores(session, hubs);
    fake.waiting('session.get')[0]!.resolve(ok(sessionView(SIGNED_IN)));
    await flush();
    expect(hubs.getState().active).toBe(true);
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME]));
    await flush();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    expect(devicesOf(hubs.getState(), 'h1').status).toBe('loaded');

    fake.emitSession(sessionView({ status: 'signed-out', reason: 'Your sign-in expired.' }));
    expect(hubs.getState()).toMatchObject({ active: false, list: { status: 'idle' }, selectedHubId: null, devices: {} });

    // Other session changes while signed in (e.g. a dismissed notice) do not reload the hubs.
    fake.emitSession(sessionView(SIGNED_IN));
    const lists = fake.calls.filter((c) => c.channel === 'hubs.list').length;
    fake.emitSession(sessionView(SIGNED_IN, { notices: [] , tokenStorage: 'memory-only' }));
    expect(fake.calls.filter((c) => c.channel === 'hubs.list').length).toBe(lists);

    disconnect();
    fake.emitSession(sessionView({ status: 'signed-out' }));
    expect(hubs.getState().active).toBe(true);
  });
});

describe('route pinning', () => {
  it('pins through the bridge, then reloads the hubs and the selected hub’s devices', async () => {
    const { fake, store } = await activeStore();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    const pinning = store.getState().pinRoute('h1', 'remote');
    expect(fake.waiting('hubs.pinRoute')[0]!.args).toEqual(['h1', 'remote']);
    fake.waiting('hubs.pinRoute')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('hubs.list')[0]!.resolve(ok([{ ...HOME, pinnedRoute: 'remote' }, CABIN]));
    await flush();
    fake.waiting('hubs.devices')[0]!.resolve(ok({ ...deviceList('h1', ['Lamp']), route: 'remote' }));
    await pinning;
    const list = store.getState().list;
    expect(list.status === 'loaded' && list.hubs[0]!.pinnedRoute).toBe('remote');
    expect(devicesOf(store.getState(), 'h1')).toMatchObject({ status: 'loaded', list: { route: 'remote' } });
  });

  it('refusing unencrypted routes asks main, then reloads the selected hub on the route main chose', async () => {
    const { fake, store } = await activeStore();
    fake.waiting('hubs.devices')[0]!.resolve(ok({ ...deviceList('h1', ['Lamp']), route: 'local' }));
    await flush();
    const refusing = store.getState().allowUnencryptedRoutes(false);
    expect(fake.waiting('hubs.allowUnencryptedRoutes')[0]!.args).toEqual([false]);
    fake.waiting('hubs.allowUnencryptedRoutes')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    fake.waiting('hubs.devices')[0]!.resolve(ok({ ...deviceList('h1', ['Lamp']), route: 'remote' }));
    await refusing;
    expect(devicesOf(store.getState(), 'h1')).toMatchObject({ status: 'loaded', list: { route: 'remote' } });
  });

  it('shows a refused pin as the hub’s error', async () => {
    const { fake, store } = await activeStore();
    const pinning = store.getState().pinRoute('h1', 'local');
    fake.waiting('hubs.pinRoute')[0]!.resolve({ ok: false, error: { code: 'signed-out', message: 'You are not signed in.' } });
    await pinning;
    expect(devicesOf(store.getState(), 'h1')).toMatchObject({ status: 'error', error: { code: 'signed-out' } });
  });
});
