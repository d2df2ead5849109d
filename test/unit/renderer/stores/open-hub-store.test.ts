import { describe, expect, it, vi } from 'vitest';
import type { DeviceEvent, DeviceList, FlowsView, HubView, LiveState } from '../../../../common/ipc-contract';
import { createHubsStore } from '../../../../renderer/src/stores/hubs-store';
import { CONFIRMED_MEMORY, createOpenHubStore, MAX_QUEUED, outageAfter } from '../../../../renderer/src/stores/open-hub-store';
import { deviceList, fakeBridge, flush, FLOWS, hub, light, ok, READ_ONLY, snapshot } from '../fake-bridge';

const T0 = '2025-01-01T12:00:00.000Z';
const T1 = '2025-01-01T12:00:01.000Z';
const T2 = '2025-01-01T12:00:02.000Z';

const HOME = hub('h1', 'Home');
const CABIN = hub('h2', 'Cabin');
const UNREACHABLE = { code: 'hub-unreachable', message: 'No address answered.' } as const;

const homeList = (extra: Partial<DeviceList> = {}) =>
  deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5), light('desk', 'Desk', true, 1)], ...extra });

/** A signed-in hubs store whose list is answered with `hubs`, and the open-hub store following it. */
async function signedIn(hubs: HubView[] = [HOME, CABIN]) {
  const fake = fakeBridge();
  const hubsStore = createHubsStore(fake.bridge);
  let nextTx = 0;
  const store = createOpenHubStore(fake.bridge, hubsStore, { newTransactionId: () => `tx-${++nextTx}` });
  hubsStore.getState().setActive(true);
  fake.waiting('hubs.list')[0]!.resolve(ok(hubs));
  await flush();
  const opened = () => fake.argsOf('hubs.open').map((args) => args[0]);
  const events = (...batch: DeviceEvent[]) => fake.emit('hubs.deviceEvents', { hubId: 'h1', events: batch });
  const shown = (deviceId: string, capabilityId: string) => {
    const state = store.getState();
    return state.pending[deviceId]?.[capabilityId]?.value ?? state.devices[deviceId]?.capabilitiesObj?.[capabilityId]?.value;
  };
  return { fake, hubs: hubsStore, store, opened, events, shown };
}

/** Home open with its snapshot (a lamp and a desk light) loaded. */
async function homeLoaded(list = homeList(), flows: FlowsView = { status: 'none' }) {
  const setup = await signedIn();
  setup.fake.emit('hubs.snapshot', snapshot(list, flows));
  return setup;
}

const capability = (deviceId: string, capabilityId: string, value: boolean | number, time: string, transactionId: string | null = null): DeviceEvent => ({
  kind: 'capability',
  deviceId,
  capabilityId,
  value,
  time,
  transactionId,
});

describe('open hub: which hub is open', () => {
  it('opens the first hub once the list is loaded and shows its snapshot', async () => {
    const fake = fakeBridge();
    const hubs = createHubsStore(fake.bridge);
    const store = createOpenHubStore(fake.bridge, hubs);
    hubs.getState().setActive(true);
    expect(store.getState()).toMatchObject({ hubId: null, snapshot: { status: 'idle' }, live: null });
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(fake.argsOf('hubs.open')).toEqual([['h1']]);
    expect(store.getState()).toMatchObject({ hubId: 'h1', snapshot: { status: 'loading' }, live: { kind: 'connecting' }, route: null });
    expect(store.getState().devices).toEqual({});

    const list = homeList({ favourites: ['desk'], permissions: READ_ONLY });
    fake.emit('hubs.snapshot', snapshot(list, { status: 'loaded', list: FLOWS }));
    const state = store.getState();
    expect(state.snapshot).toEqual({ status: 'loaded' });
    expect(Object.keys(state.devices)).toEqual(['lamp', 'desk']);
    expect(state.devices.lamp).toEqual(light('lamp', 'Lamp', false, 0.5));
    expect(state.summaries).toEqual([
      { id: 'lamp', name: 'Lamp', class: 'light', zoneName: undefined },
      { id: 'desk', name: 'Desk', class: 'light', zoneName: undefined },
    ]);
    expect(state.permissions).toEqual(READ_ONLY);
    expect(state.favourites).toEqual({ desk: true });
    expect(state.route).toEqual({ route: list.route, rttMs: list.rttMs, routeOutcomes: list.routeOutcomes, fetchedAt: list.fetchedAt });
    expect(state.flows).toEqual({ status: 'loaded', list: FLOWS });
  });

  it('opens nothing for an empty account', async () => {
    const { store, opened } = await signedIn([]);
    expect(opened()).toEqual([]);
    expect(store.getState()).toMatchObject({ hubId: null, snapshot: { status: 'idle' } });
  });

  it('opens another listed hub, dropping everything of the previous one', async () => {
    const { fake, store, opened } = await homeLoaded();
    store.getState().open('h2');
    expect(opened()).toEqual(['h1', 'h2']);
    expect(store.getState()).toMatchObject({ hubId: 'h2', snapshot: { status: 'loading' }, summaries: [], route: null, live: { kind: 'connecting' } });
    expect(store.getState().devices).toEqual({});

    // Late news of Home is not Cabin's.
    fake.emit('hubs.snapshot', snapshot(homeList()));
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [{ kind: 'device', device: light('ghost', 'Ghost', true, 1) }] });
    fake.emit('hubs.live', { hubId: 'h1', state: { kind: 'closed' } });
    expect(store.getState()).toMatchObject({ hubId: 'h2', snapshot: { status: 'loading' }, live: { kind: 'connecting' } });
    expect(store.getState().devices).toEqual({});

    fake.emit('hubs.snapshot', snapshot(deviceList('h2', ['Stove'])));
    expect(store.getState().summaries.map((s) => s.name)).toEqual(['Stove']);
  });

  it('ignores opening a hub that is not listed, or the open hub again', async () => {
    const { store, opened } = await signedIn();
    store.getState().open('nope');
    store.getState().open('h1');
    expect(store.getState().hubId).toBe('h1');
    expect(opened()).toEqual(['h1']);
  });

  it('shows a hub opened again as it was left until its new snapshot arrives', async () => {
    const { fake, store, opened, events } = await homeLoaded(homeList(), { status: 'loaded', list: FLOWS });
    events(capability('lamp', 'onoff', true, T1));
    store.getState().open('h2');
    fake.emit('hubs.snapshot', snapshot(deviceList('h2', ['Stove'])));

    store.getState().open('h1');
    expect(opened()).toEqual(['h1', 'h2', 'h1']);
    expect(store.getState()).toMatchObject({
      hubId: 'h1',
      snapshot: { status: 'loaded' },
      flows: { status: 'loaded', list: FLOWS },
      live: { kind: 'connecting' },
    });
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(true);

    fake.emit('hubs.snapshot', snapshot(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.2, T2)] })));
    expect(store.getState().summaries.map((s) => s.name)).toEqual(['Lamp']);
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(false);
  });

  it('keeps a shown hub when a background read fails, and shows the error when nothing is shown', async () => {
    const { fake, store } = await homeLoaded();
    // e.g. the read after the live channel reconnected
    fake.emit('hubs.snapshot', { status: 'error', hubId: 'h1', error: UNREACHABLE });
    expect(store.getState().snapshot).toEqual({ status: 'loaded' });
    expect(Object.keys(store.getState().devices)).toEqual(['lamp', 'desk']);

    store.getState().open('h2');
    fake.emit('hubs.snapshot', { status: 'error', hubId: 'h2', error: UNREACHABLE });
    expect(store.getState().snapshot).toEqual({ status: 'error', error: UNREACHABLE });
    // The core keeps trying: a later snapshot shows the hub.
    fake.emit('hubs.snapshot', snapshot(deviceList('h2', ['Stove'])));
    expect(store.getState().snapshot).toEqual({ status: 'loaded' });
  });

  it('refuses a snapshot whose devices belong to another hub', async () => {
    const { fake, store } = await signedIn();
    fake.emit('hubs.snapshot', { status: 'loaded', hubId: 'h1', devices: deviceList('h2', ['Stove']), flows: { status: 'none' } });
    expect(store.getState().snapshot).toMatchObject({ status: 'error', error: { code: 'internal' } });
    expect(store.getState().devices).toEqual({});
  });

  it('shows a refused opening as an error and not live, with the reason', async () => {
    const { fake, store } = await signedIn();
    fake.waiting('hubs.open')[0]!.resolve({ ok: false, error: UNREACHABLE });
    await flush();
    expect(store.getState()).toMatchObject({ snapshot: { status: 'error', error: UNREACHABLE }, live: { kind: 'not-opened', code: UNREACHABLE.code } });
  });

  it('drops the refusal of a hub no longer open', async () => {
    const { fake, store } = await signedIn();
    const home = fake.waiting('hubs.open')[0]!;
    store.getState().open('h2');
    home.resolve({ ok: false, error: UNREACHABLE });
    await flush();
    expect(store.getState()).toMatchObject({ hubId: 'h2', snapshot: { status: 'loading' }, live: { kind: 'connecting' } });
  });

  it('forgets what a hub showed once it is no longer in the list', async () => {
    const { fake, hubs, store } = await homeLoaded();
    store.getState().open('h2');
    void hubs.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve(ok([CABIN]));
    await flush();
    void hubs.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    store.getState().open('h1');
    expect(store.getState()).toMatchObject({ hubId: 'h1', snapshot: { status: 'loading' } });
    expect(store.getState().devices).toEqual({});
  });

  it('keeps the open hub when the list reloads with it, opens the first one when it is gone, closes when the list fails', async () => {
    const { fake, hubs, store, opened } = await signedIn();
    store.getState().open('h2');
    void hubs.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    expect(opened()).toEqual(['h1', 'h2']);

    void hubs.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME]));
    await flush();
    expect(opened()).toEqual(['h1', 'h2', 'h1']);
    expect(store.getState().hubId).toBe('h1');

    void hubs.getState().reload();
    fake.waiting('hubs.list')[0]!.resolve({ ok: false, error: { code: 'cloud-unreachable', message: 'The cloud did not answer.' } });
    await flush();
    expect(opened()).toEqual(['h1', 'h2', 'h1', null]);
    expect(store.getState()).toMatchObject({ hubId: null, snapshot: { status: 'idle' }, live: null });
  });

  it('closes the open hub and forgets everything on sign-out, dropping answers that arrive afterwards', async () => {
    const { fake, hubs, store, opened } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    hubs.getState().setActive(false);
    expect(opened()).toEqual(['h1', null]);
    expect(store.getState()).toMatchObject({ hubId: null, snapshot: { status: 'idle' }, summaries: [], route: null, live: null });
    expect([store.getState().devices, store.getState().pending, store.getState().favourites]).toEqual([{}, {}, {}]);

    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'signed-out', message: 'You are not signed in.' } });
    await setting;
    fake.emit('hubs.snapshot', snapshot(homeList()));
    expect(store.getState().hubId).toBeNull();
    expect([store.getState().devices, store.getState().errors]).toEqual([{}, {}]);

    // The next sign-in shows nothing of the last one's hubs until they are read.
    hubs.getState().setActive(true);
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME]));
    await flush();
    expect(store.getState()).toMatchObject({ hubId: 'h1', snapshot: { status: 'loading' } });
    expect(store.getState().devices).toEqual({});
  });

  it('stops listening and following the hub list when disposed', async () => {
    const { fake, hubs, store, opened } = await signedIn();
    expect(fake.listenerCount()).toBe(4); // hubs.snapshot listens for its pages too
    store.dispose();
    expect(fake.listenerCount()).toBe(0);
    hubs.getState().setActive(false);
    expect(opened()).toEqual(['h1']);
  });
});

describe('open hub: reading it again', () => {
  it('reload shows loading, opens the open hub again and reloads the hub list', async () => {
    const { fake, store, opened } = await homeLoaded();
    store.getState().reload();
    expect(store.getState().snapshot).toEqual({ status: 'loading' });
    expect(opened()).toEqual(['h1', 'h1']);
    expect(fake.waiting('hubs.list')).toHaveLength(1);

    fake.emit('hubs.snapshot', snapshot(deviceList('h1', ['Lamp', 'Stove'])));
    expect(store.getState().snapshot).toEqual({ status: 'loaded' });
    expect(store.getState().summaries.map((s) => s.name)).toEqual(['Lamp', 'Stove']);
  });

  it('a reload that fails shows the error; trying again can show the hub', async () => {
    const { fake, store, opened } = await homeLoaded();
    store.getState().reload();
    fake.emit('hubs.snapshot', { status: 'error', hubId: 'h1', error: UNREACHABLE });
    expect(store.getState().snapshot).toEqual({ status: 'error', error: UNREACHABLE });

    store.getState().reload();
    expect(opened()).toEqual(['h1', 'h1', 'h1']);
    fake.emit('hubs.snapshot', snapshot(homeList()));
    expect(store.getState().snapshot).toEqual({ status: 'loaded' });
  });

  it('trying the flows again reads the hub afresh while its devices stay shown', async () => {
    const flowsError = { code: 'hub-unreachable', message: 'The hub did not answer.' } as const;
    const { fake, store, opened } = await homeLoaded(homeList(), { status: 'error', error: flowsError });
    expect(store.getState().flows).toEqual({ status: 'error', error: flowsError });

    store.getState().retryFlows();
    expect(opened()).toEqual(['h1', 'h1']);
    expect(store.getState()).toMatchObject({ snapshot: { status: 'loaded' }, flows: { status: 'loading' } });
    store.getState().retryFlows(); // already loading
    expect(opened()).toHaveLength(2);

    // A read that fails altogether is the flows' error; the devices stay.
    fake.emit('hubs.snapshot', { status: 'error', hubId: 'h1', error: UNREACHABLE });
    expect(store.getState()).toMatchObject({ snapshot: { status: 'loaded' }, flows: { status: 'error', error: UNREACHABLE } });

    store.getState().retryFlows();
    fake.emit('hubs.snapshot', snapshot(homeList(), { status: 'loaded', list: FLOWS }));
    expect(store.getState().flows).toEqual({ status: 'loaded', list: FLOWS });
  });

  it('shows no flows when the session may not see them', async () => {
    const { store } = await homeLoaded(homeList({ permissions: { ...READ_ONLY, flows: 'none' } }));
    expect(store.getState().flows).toEqual({ status: 'none' });
  });
});

describe('open hub: routes', () => {
  it('pins the open hub’s route, shows the hub loading until the core’s new snapshot, then reloads the hub list', async () => {
    const { fake, hubs, store } = await homeLoaded();
    const pinning = store.getState().pinRoute('remote');
    expect(fake.waiting('hubs.pinRoute')[0]!.args).toEqual(['h1', 'remote']);
    expect(store.getState().snapshot).toEqual({ status: 'loading' });
    // The reopened hub's snapshot may overtake the answer.
    fake.emit('hubs.snapshot', snapshot(homeList({ route: 'remote' })));
    fake.waiting('hubs.pinRoute')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('hubs.list')[0]!.resolve(ok([{ ...HOME, pinnedRoute: 'remote' }, CABIN]));
    await pinning;
    const list = hubs.getState().list;
    expect(list.status === 'loaded' && list.hubs[0]!.pinnedRoute).toBe('remote');
    expect(store.getState()).toMatchObject({ snapshot: { status: 'loaded' }, route: { route: 'remote' } });
    // The core reopens the hub itself.
    expect(fake.argsOf('hubs.open')).toEqual([['h1']]);
  });

  it('shows a refused pin as the hub’s error', async () => {
    const { fake, store } = await homeLoaded();
    const pinning = store.getState().pinRoute('local');
    fake.waiting('hubs.pinRoute')[0]!.resolve({ ok: false, error: { code: 'signed-out', message: 'You are not signed in.' } });
    await pinning;
    expect(store.getState().snapshot).toMatchObject({ status: 'error', error: { code: 'signed-out' } });
    expect(fake.waiting('hubs.list')).toHaveLength(0);
  });

  it('refusing unencrypted routes asks main, then shows the route the reopened hub is on', async () => {
    const { fake, store } = await homeLoaded(homeList({ route: 'local' }));
    const refusing = store.getState().allowUnencryptedRoutes(false);
    expect(fake.waiting('hubs.allowUnencryptedRoutes')[0]!.args).toEqual([false]);
    expect(store.getState().snapshot).toEqual({ status: 'loading' });
    fake.waiting('hubs.allowUnencryptedRoutes')[0]!.resolve(ok(undefined));
    await flush();
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await refusing;
    fake.emit('hubs.snapshot', snapshot(homeList({ route: 'remote' })));
    expect(store.getState()).toMatchObject({ snapshot: { status: 'loaded' }, route: { route: 'remote' } });
  });
});

describe('open hub: events', () => {
  it('applies each batch in one store update', async () => {
    const { store, events, shown } = await homeLoaded();
    const desk = store.getState().devices.desk;
    const summaries = store.getState().summaries;
    let updates = 0;
    store.subscribe(() => updates++);

    events(capability('lamp', 'onoff', true, T1), capability('lamp', 'dim', 0.7, T1), capability('lamp', 'dim', 0.9, T2));
    expect(updates).toBe(1);
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(shown('lamp', 'dim')).toBe(0.9);
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.lastUpdated).toBe(T2);
    // Only the changed device is a new object; the grid's summaries are untouched by values.
    expect(store.getState().devices.desk).toBe(desk);
    expect(store.getState().summaries).toBe(summaries);

    events(capability('lamp', 'onoff', false, T2));
    expect(updates).toBe(2);
  });

  it('ignores events of another hub, unknown devices and capabilities, stale values; the bridge drops malformed ones', async () => {
    const { fake, store, events } = await homeLoaded();
    const before = store.getState().devices;
    let updates = 0;
    store.subscribe(() => updates++);
    fake.emit('hubs.deviceEvents', { hubId: 'h2', events: [capability('lamp', 'onoff', true, T1)] });
    events(capability('ghost', 'onoff', true, T1), capability('lamp', 'nope', true, T1), capability('lamp', 'onoff', true, '2025-01-01T11:00:00.000Z'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fake.emitRaw('hubs.deviceEvents', { hubId: 'h1', events: [{ kind: 'capability', deviceId: 'lamp' }] });
    fake.emitRaw('hubs.deviceEvents', null);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
    expect(store.getState().devices).toBe(before);
    expect(updates).toBe(0);
  });

  it('adds, replaces and removes devices, updating what the grid places them by', async () => {
    const { store, events } = await homeLoaded();
    const desk = store.getState().devices.desk;
    events(
      { kind: 'device', device: { ...light('hall', 'Hall light', false, 0), zoneName: 'Hall' } },
      { kind: 'device', device: light('desk', 'Desk lamp', true, 1) },
      { kind: 'removed', deviceId: 'lamp' },
    );
    expect(store.getState().summaries.map((s) => [s.id, s.name, s.zoneName])).toEqual([
      ['desk', 'Desk lamp', undefined],
      ['hall', 'Hall light', 'Hall'],
    ]);
    expect(store.getState().devices.lamp).toBeUndefined();
    expect(store.getState().devices.desk).not.toBe(desk);

    // A device replaced without moving leaves the summaries as they are.
    const summaries = store.getState().summaries;
    events({ kind: 'device', device: { ...light('desk', 'Desk lamp', false, 1), available: false } });
    expect(store.getState().summaries).toBe(summaries);
    expect(store.getState().devices.desk!.available).toBe(false);
  });

  it('holds events until the hub’s snapshot and skips those older than it', async () => {
    const { fake, store } = await signedIn();
    fake.emit('hubs.deviceEvents', {
      hubId: 'h1',
      events: [capability('lamp', 'dim', 0.1, '2025-01-01T11:00:00.000Z'), capability('lamp', 'onoff', true, T1)],
    });
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [{ kind: 'device', device: light('hall', 'Hall', false, 0) }] });
    expect(store.getState().devices).toEqual({});

    fake.emit('hubs.snapshot', snapshot(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)] })));
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(true);
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.value).toBe(0.5);
    expect(store.getState().summaries.map((s) => s.id)).toEqual(['lamp', 'hall']);
  });

  it('holds a bounded number of events: a batch that would pass the bound is dropped', async () => {
    const { fake, store } = await signedIn();
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [capability('lamp', 'onoff', true, T1)] });
    const flood = Array.from({ length: MAX_QUEUED }, () => capability('lamp', 'dim', 0.9, T2));
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: flood });
    fake.emit('hubs.snapshot', snapshot(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)] })));
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(true);
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.value).toBe(0.5);
  });

  it('keeps values newer than a new snapshot, and takes the snapshot’s newer ones', async () => {
    const { fake, store, events, shown } = await homeLoaded(homeList({ favourites: ['desk'] }));
    events(capability('lamp', 'dim', 0.9, T2), capability('desk', 'dim', 0.1, T1));
    const { summaries, favourites } = store.getState();
    fake.emit(
      'hubs.snapshot',
      snapshot(deviceList('h1', [], { devices: [light('lamp', 'Lamp', true, 0.4, T1), light('desk', 'Desk', false, 0.6, T2)], favourites: ['desk'] })),
    );
    expect(shown('lamp', 'dim')).toBe(0.9);
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(shown('desk', 'dim')).toBe(0.6);
    // Same devices in the same places, same favourites: the grid is not woken.
    expect(store.getState().summaries).toBe(summaries);
    expect(store.getState().favourites).toBe(favourites);
  });

  it('follows the live status of the open hub only', async () => {
    const { fake, store } = await homeLoaded();
    expect(store.getState().live).toEqual({ kind: 'connecting' });
    fake.emit('hubs.live', { hubId: 'h1', state: { kind: 'live', since: T0 } });
    expect(store.getState().live).toEqual({ kind: 'live', since: T0 });
    fake.emit('hubs.live', { hubId: 'h2', state: { kind: 'hub-refused' } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fake.emitRaw('hubs.live', { hubId: 'h1', state: null });
    warn.mockRestore();
    expect(store.getState().live).toEqual({ kind: 'live', since: T0 });
  });
});

describe('open hub: while it is not live', () => {
  const NOW = Date.parse('2025-01-01T12:05:00.000Z');
  async function homeWithClock() {
    const fake = fakeBridge();
    const hubsStore = createHubsStore(fake.bridge);
    let clock = NOW;
    const store = createOpenHubStore(fake.bridge, hubsStore, { now: () => clock });
    hubsStore.getState().setActive(true);
    fake.waiting('hubs.list')[0]!.resolve(ok([HOME, CABIN]));
    await flush();
    fake.emit('hubs.snapshot', snapshot(homeList()));
    const live = (state: LiveState) => fake.emit('hubs.live', { hubId: 'h1', state });
    return { fake, store, live, later: (ms: number) => (clock += ms) };
  }
  const retrying = (nextAttemptAt = NOW + 4_000): LiveState => ({ kind: 'reconnecting', attempt: 1, nextAttemptAt, cause: 'hub-not-answering' });

  it.each<[LiveState, boolean, boolean]>([
    [{ kind: 'live', since: T0 }, false, false],
    [{ kind: 'connecting' }, false, false], // the first connecting is no outage…
    [{ kind: 'connecting' }, true, true], // …one after an outage continues it
    [{ kind: 'not-responding', since: 0 }, false, true],
    [retrying(), false, true],
    [{ kind: 'hub-gone' }, false, true],
    [{ kind: 'no-realtime' }, false, true],
    [{ kind: 'not-opened', code: 'internal' }, false, true],
    [{ kind: 'closed' }, true, false],
    [{ kind: 'signed-out' }, true, false],
  ])('outageAfter(%j, was %s) is %s', (state, was, outage) => {
    expect(outageAfter(state, was)).toBe(outage);
  });

  it('is an outage from leaving live until live again, through a connecting; values were confirmed when live ended', async () => {
    const { store, live, later } = await homeWithClock();
    expect(store.getState()).toMatchObject({ outage: false, confirmedAt: Date.parse(T0) }); // read (at T0) before the channel was live
    live({ kind: 'live', since: T0 });
    later(30_000);
    live({ kind: 'not-responding', since: 0 });
    expect(store.getState()).toMatchObject({ outage: true, confirmedAt: NOW + 30_000 });
    later(60_000);
    live(retrying());
    live({ kind: 'connecting' });
    expect(store.getState()).toMatchObject({ outage: true, confirmedAt: NOW + 30_000 }); // still the moment live ended
    live({ kind: 'live', since: T1 });
    expect(store.getState()).toMatchObject({ outage: false, confirmedAt: null });
  });

  it('a snapshot read while not live confirms its values as of its read', async () => {
    const { fake, store, live } = await homeWithClock();
    live({ kind: 'live', since: T0 });
    live(retrying());
    fake.emit('hubs.snapshot', snapshot(homeList({ fetchedAt: '2025-01-01T12:07:00.000Z' })));
    expect(store.getState().confirmedAt).toBe(Date.parse('2025-01-01T12:07:00.000Z'));
    fake.emit('hubs.snapshot', snapshot(homeList({ fetchedAt: '2025-01-01T11:00:00.000Z' }))); // an older read does not take it back
    expect(store.getState().confirmedAt).toBe(Date.parse('2025-01-01T12:07:00.000Z'));
  });

  it('a hub opened again was confirmed when it was left, if it was live then', async () => {
    const { fake, store, live, later } = await homeWithClock();
    live({ kind: 'live', since: T0 });
    later(10_000);
    store.getState().open('h2');
    later(120_000);
    store.getState().open('h1');
    expect(store.getState()).toMatchObject({ hubId: 'h1', outage: false, confirmedAt: NOW + 10_000 });
    fake.emit('hubs.live', { hubId: 'h1', state: { kind: 'connecting' } });
    live(retrying());
    expect(store.getState()).toMatchObject({ outage: true, confirmedAt: NOW + 10_000 });
  });

  it('a hub that could not be opened is an outage', async () => {
    const { fake, store } = await signedIn();
    fake.waiting('hubs.open')[0]!.resolve({ ok: false, error: UNREACHABLE });
    await flush();
    expect(store.getState()).toMatchObject({ live: { kind: 'not-opened' }, outage: true });
  });

  it('"Try now" asks the core only while a retry is ahead', async () => {
    const { fake, store, live } = await homeWithClock();
    store.getState().retryNow();
    live({ kind: 'live', since: T0 });
    store.getState().retryNow();
    expect(fake.argsOf('hubs.reconnect')).toEqual([]);
    live(retrying());
    store.getState().retryNow();
    expect(fake.argsOf('hubs.reconnect')).toEqual([['h1']]);
  });
});

describe('open hub: optimistic changes', () => {
  it('shows a change at once, sends it with a transaction id and keeps the hub’s value on success', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(store.getState().pending.lamp?.onoff).toEqual({ value: true, transactionId: 'tx-1' });
    const [call] = fake.waiting('hubs.setCapability');
    expect(call!.args).toEqual(['h1', { deviceId: 'lamp', capabilityId: 'onoff', value: true, transactionId: 'tx-1' }]);

    call!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T1 }));
    await setting;
    expect(store.getState().pending).toEqual({});
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff).toMatchObject({ value: true, lastUpdated: T1 });
  });

  it('rolls back a refused change and says why on the card', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'dim', 0.8);
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'The value is above the maximum.' } });
    await setting;
    expect(shown('lamp', 'dim')).toBe(0.5);
    expect(store.getState().pending).toEqual({});
    expect(store.getState().errors.lamp?.message).toBe("Couldn't set Dim level of Lamp to 80 % — The value is above the maximum.");

    store.getState().dismissError('lamp');
    expect(store.getState().errors).toEqual({});
  });

  it('rolls back to a newer value that arrived meanwhile, not to the value before', async () => {
    const { fake, store, events, shown } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'dim', 0.8);
    events(capability('lamp', 'dim', 0.2, T2));
    expect(shown('lamp', 'dim')).toBe(0.8); // the user's value stays on top until settled
    fake.waiting('hubs.setCapability')[0]!.reject(new Error('socket closed'));
    await setting;
    expect(shown('lamp', 'dim')).toBe(0.2);
    expect(store.getState().errors.lamp?.message).toMatch(/lost its connection/);
  });

  it('does not apply the echo of its own change, pending or confirmed', async () => {
    const { fake, store, events } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    const before = store.getState().devices.lamp;
    events(capability('lamp', 'onoff', true, T1, 'tx-1'));
    expect(store.getState().devices.lamp).toBe(before);

    fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T1 }));
    await setting;
    const confirmed = store.getState().devices.lamp;
    events(capability('lamp', 'onoff', true, T2, 'tx-1'));
    expect(store.getState().devices.lamp).toBe(confirmed);
    // Someone else's change with its own transaction id is applied.
    events(capability('lamp', 'onoff', false, T2, 'other-client-1'));
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(false);
  });

  it(`remembers the last ${CONFIRMED_MEMORY} confirmed changes: an older echo is applied like anyone's`, async () => {
    const { fake, store, events } = await homeLoaded();
    for (let i = 0; i <= CONFIRMED_MEMORY; i++) {
      const setting = store.getState().setCapability('lamp', 'dim', 0.5);
      fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'dim', value: 0.5, transactionId: `tx-${i + 1}`, time: T1 }));
      await setting;
    }
    events(capability('lamp', 'dim', 0.3, T2, 'tx-2'));
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.value).toBe(0.5);
    events(capability('lamp', 'dim', 0.3, T2, 'tx-1'));
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.value).toBe(0.3);
  });

  it('shows the last of two quick changes, whatever order they settle in', async () => {
    const { fake, store, shown } = await homeLoaded();
    const first = store.getState().setCapability('lamp', 'dim', 0.3);
    const second = store.getState().setCapability('lamp', 'dim', 0.6);
    expect(shown('lamp', 'dim')).toBe(0.6);
    const [call1, call2] = fake.waiting('hubs.setCapability');

    call1!.resolve(ok({ capabilityId: 'dim', value: 0.3, transactionId: 'tx-1', time: T1 }));
    await first;
    expect(shown('lamp', 'dim')).toBe(0.6);

    call2!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'Busy.' } });
    await second;
    expect(shown('lamp', 'dim')).toBe(0.3);
  });

  it('keeps pending values on top of a new snapshot until they settle', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    fake.emit('hubs.snapshot', snapshot(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.4, T1)] })));
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(shown('lamp', 'dim')).toBe(0.4);
    fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T2 }));
    await setting;
    expect(store.getState().pending).toEqual({});
    expect(shown('lamp', 'onoff')).toBe(true);
  });

  it('forgets pending values and card errors of devices a new snapshot no longer has', async () => {
    const { fake, store } = await homeLoaded();
    const refused = store.getState().setCapability('desk', 'dim', 0.2);
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'No.' } });
    await refused;
    void store.getState().setCapability('desk', 'onoff', false);
    expect(Object.keys(store.getState().errors)).toEqual(['desk']);
    expect(Object.keys(store.getState().pending)).toEqual(['desk']);
    fake.emit('hubs.snapshot', snapshot(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)] })));
    expect(store.getState().errors).toEqual({});
    expect(store.getState().pending).toEqual({});
  });

  it('sends nothing without the permission to control, or for an unknown capability', async () => {
    const { fake, store } = await homeLoaded(homeList({ permissions: READ_ONLY }));
    void store.getState().setCapability('lamp', 'onoff', true);
    expect(store.getState().permissions).toEqual(READ_ONLY);
    fake.emit('hubs.snapshot', snapshot(homeList()));
    void store.getState().setCapability('lamp', 'colour', true);
    expect(fake.waiting('hubs.setCapability')).toHaveLength(0);
    expect(store.getState().pending).toEqual({});
  });

  it('drops the answer of a change made on a hub no longer open', async () => {
    const { fake, store } = await homeLoaded();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    store.getState().open('h2');
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'No.' } });
    await setting;
    expect(store.getState()).toMatchObject({ hubId: 'h2', snapshot: { status: 'loading' } });
    expect([store.getState().devices, store.getState().pending, store.getState().errors]).toEqual([{}, {}, {}]);
  });
});

describe('open hub: favourites', () => {
  it('pins at once and keeps it when the core saves it', async () => {
    const { fake, store } = await homeLoaded();
    const pinning = store.getState().setFavourite('lamp', true);
    expect(store.getState().favourites).toEqual({ lamp: true });
    expect(fake.waiting('hubs.setFavourite')[0]!.args).toEqual(['h1', 'lamp', true]);
    fake.waiting('hubs.setFavourite')[0]!.resolve(ok(undefined));
    await pinning;
    expect(store.getState().favourites).toEqual({ lamp: true });
  });

  it('undoes a favourite the core could not save and says why', async () => {
    const { fake, store } = await homeLoaded(homeList({ favourites: ['lamp'] }));
    const unpinning = store.getState().setFavourite('lamp', false);
    expect(store.getState().favourites).toEqual({});
    fake.waiting('hubs.setFavourite')[0]!.resolve({ ok: false, error: { code: 'internal', message: 'Disk full.' } });
    await unpinning;
    expect(store.getState().favourites).toEqual({ lamp: true });
    expect(store.getState().errors.lamp?.message).toBe("Couldn't remove Lamp from favourites — Disk full.");
  });

  it('drops the answer of a favourite on a hub no longer open', async () => {
    const { fake, store } = await homeLoaded();
    const pinning = store.getState().setFavourite('lamp', true);
    store.getState().open('h2');
    fake.emit('hubs.snapshot', snapshot(deviceList('h2', [], { devices: [light('lamp', 'Lamp', false, 0.5)] })));
    fake.waiting('hubs.setFavourite')[0]!.resolve({ ok: false, error: { code: 'internal', message: 'Disk full.' } });
    await pinning;
    expect(store.getState().errors).toEqual({});
    expect(store.getState().favourites).toEqual({});
  });

  it('keeps a favourite not saved yet over a snapshot read before it', async () => {
    const { fake, store } = await homeLoaded();
    const pinning = store.getState().setFavourite('desk', true);
    fake.emit('hubs.snapshot', snapshot(homeList({ favourites: [] })));
    expect(store.getState().favourites).toEqual({ desk: true });
    fake.waiting('hubs.setFavourite')[0]!.resolve(ok(undefined));
    await pinning;
    // Once saved, the snapshots say so themselves.
    fake.emit('hubs.snapshot', snapshot(homeList({ favourites: [] })));
    expect(store.getState().favourites).toEqual({});
  });
});

describe('open hub: flows', () => {
  it('triggers a flow and reports Started or the reason it did not start', async () => {
    const { fake, store } = await homeLoaded(homeList(), { status: 'loaded', list: FLOWS });
    const starting = store.getState().triggerFlow('f1');
    expect(store.getState().triggers.f1).toEqual({ status: 'starting' });
    void store.getState().triggerFlow('f1'); // a second click while starting does nothing
    expect(fake.waiting('hubs.triggerFlow').map((call) => call.args)).toEqual([['h1', 'f1']]);
    fake.waiting('hubs.triggerFlow')[0]!.resolve(ok({ id: 'f1', triggeredAt: T0 }));
    await starting;
    expect(store.getState().triggers.f1).toEqual({ status: 'started', at: T0 });

    const again = store.getState().triggerFlow('f1');
    fake.waiting('hubs.triggerFlow')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'The flow is turned off.' } });
    await again;
    expect(store.getState().triggers.f1).toEqual({ status: 'failed', message: 'The flow is turned off.' });
    // A new snapshot of the same hub keeps what happened.
    fake.emit('hubs.snapshot', snapshot(homeList(), { status: 'loaded', list: FLOWS }));
    expect(store.getState().triggers.f1).toEqual({ status: 'failed', message: 'The flow is turned off.' });
  });

  it('drops the answer of a trigger on a hub no longer open', async () => {
    const { fake, store } = await homeLoaded(homeList(), { status: 'loaded', list: FLOWS });
    const starting = store.getState().triggerFlow('f1');
    store.getState().open('h2');
    fake.waiting('hubs.triggerFlow')[0]!.resolve(ok({ id: 'f1', triggeredAt: T0 }));
    await starting;
    expect(store.getState()).toMatchObject({ hubId: 'h2', flows: { status: 'none' } });
    expect(store.getState().triggers).toEqual({});
  });
});
