import { describe, expect, it } from 'vitest';
import type { DeviceEvent } from '../../../common/ipc-contract';
import { createLiveDevicesStore } from '../../../renderer/src/stores/live-devices-store';
import { deviceList, fakeBridge, flush, light, ok, READ_ONLY } from './fake-bridge';

const T0 = '2025-01-01T12:00:00.000Z';
const T1 = '2025-01-01T12:00:01.000Z';
const T2 = '2025-01-01T12:00:02.000Z';

function setup(list = deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5), light('desk', 'Desk', true, 1)] })) {
  const fake = fakeBridge();
  const frames: (() => void)[] = [];
  let nextTx = 0;
  const store = createLiveDevicesStore(fake.bridge, { scheduleFlush: (run) => frames.push(run), newTransactionId: () => `tx-${++nextTx}` });
  store.getState().watch('h1');
  store.getState().load(list);
  const runFrame = () => frames.splice(0).forEach((run) => run());
  const events = (...batch: DeviceEvent[]) => fake.emit('hubs.deviceEvents', { hubId: 'h1', events: batch });
  const shown = (deviceId: string, capabilityId: string) => {
    const state = store.getState();
    return state.pending[deviceId]?.[capabilityId]?.value ?? state.devices[deviceId]?.capabilitiesObj?.[capabilityId]?.value;
  };
  return { fake, store, frames, runFrame, events, shown };
}

const capability = (deviceId: string, capabilityId: string, value: boolean | number, time: string, transactionId: string | null = null): DeviceEvent => ({
  kind: 'capability',
  deviceId,
  capabilityId,
  value,
  time,
  transactionId,
});

describe('live devices: events', () => {
  it('queues batches and applies them in one update per frame', () => {
    const { store, frames, runFrame, events, shown } = setup();
    const desk = store.getState().devices.desk;
    const summaries = store.getState().summaries;
    let updates = 0;
    store.subscribe(() => updates++);

    events(capability('lamp', 'onoff', true, T1));
    events(capability('lamp', 'dim', 0.7, T1), capability('lamp', 'dim', 0.9, T2));
    expect(frames).toHaveLength(1);
    expect(shown('lamp', 'onoff')).toBe(false);

    runFrame();
    expect(updates).toBe(1);
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(shown('lamp', 'dim')).toBe(0.9);
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.lastUpdated).toBe(T2);
    // Only the changed device is a new object; the grid's summaries are untouched by values.
    expect(store.getState().devices.desk).toBe(desk);
    expect(store.getState().summaries).toBe(summaries);
  });

  it('ignores events of another hub, unknown devices and malformed events', () => {
    const { fake, store, runFrame, events } = setup();
    const before = store.getState().devices;
    fake.emit('hubs.deviceEvents', { hubId: 'h2', events: [capability('lamp', 'onoff', true, T1)] });
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [{ kind: 'capability', deviceId: 'lamp' }, 'nonsense'] });
    fake.emit('hubs.deviceEvents', null);
    events(capability('ghost', 'onoff', true, T1), capability('lamp', 'nope', true, T1));
    runFrame();
    expect(store.getState().devices).toBe(before);
  });

  it('adds, replaces and removes devices, updating what the grid places them by', () => {
    const { store, runFrame, events } = setup();
    events(
      { kind: 'device', device: { ...light('hall', 'Hall light', false, 0), zoneName: 'Hall' } },
      { kind: 'device', device: { ...light('desk', 'Desk lamp', true, 1) } },
      { kind: 'removed', deviceId: 'lamp' },
    );
    runFrame();
    expect(store.getState().summaries.map((s) => [s.id, s.name, s.zoneName])).toEqual([
      ['desk', 'Desk lamp', undefined],
      ['hall', 'Hall light', 'Hall'],
    ]);
    expect(store.getState().devices.lamp).toBeUndefined();
  });

  it('holds events until the list is loaded and drops those older than the list', () => {
    const fake = fakeBridge();
    const frames: (() => void)[] = [];
    const store = createLiveDevicesStore(fake.bridge, { scheduleFlush: (run) => frames.push(run) });
    store.getState().watch('h1');
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [capability('lamp', 'dim', 0.1, '2025-01-01T11:00:00.000Z'), capability('lamp', 'onoff', true, T1)] });
    frames.splice(0).forEach((run) => run());
    expect(store.getState().loaded).toBe(false);

    store.getState().load(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)] }));
    frames.splice(0).forEach((run) => run());
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(true);
    expect(store.getState().devices.lamp!.capabilitiesObj!.dim!.value).toBe(0.5);
  });

  it('keeps values newer than a refetched list, and takes the list’s newer ones', () => {
    const { store, runFrame, events, shown } = setup();
    events(capability('lamp', 'dim', 0.9, T2), capability('desk', 'dim', 0.1, T1));
    runFrame();
    store.getState().load(deviceList('h1', [], { devices: [light('lamp', 'Lamp', true, 0.4, T1), light('desk', 'Desk', false, 0.6, T2)] }));
    expect(shown('lamp', 'dim')).toBe(0.9);
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(shown('desk', 'dim')).toBe(0.6);
  });

  it('follows the live status of the watched hub only', () => {
    const { fake, store } = setup();
    expect(store.getState().live).toEqual({ state: 'connecting' });
    fake.emit('hubs.live', { hubId: 'h1', state: { state: 'live', since: T0 } });
    expect(store.getState().live).toEqual({ state: 'live', since: T0 });
    fake.emit('hubs.live', { hubId: 'h2', state: { state: 'offline', reason: 'x' } });
    fake.emit('hubs.live', { hubId: 'h1', state: null });
    expect(store.getState().live).toEqual({ state: 'live', since: T0 });
  });

  it('shows a refused watch as not live, with the reason', async () => {
    const fake = fakeBridge();
    const store = createLiveDevicesStore(fake.bridge);
    store.getState().watch('h1');
    expect(fake.waiting('hubs.watch')[0]!.args).toEqual(['h1']);
    fake.waiting('hubs.watch')[0]!.resolve({ ok: false, error: { code: 'hub-unreachable', message: 'The hub did not answer.' } });
    await flush();
    expect(store.getState().live).toEqual({ state: 'offline', reason: 'The hub did not answer.' });
  });

  it('stops listening when disposed', () => {
    const { fake, store } = setup();
    expect(fake.listenerCount()).toBe(2);
    store.dispose();
    expect(fake.listenerCount()).toBe(0);
  });
});

describe('live devices: optimistic changes', () => {
  it('shows a change at once, sends it with a transaction id and keeps the hub’s value on success', async () => {
    const { fake, store, shown } = setup();
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
    const { fake, store, shown } = setup();
    const setting = store.getState().setCapability('lamp', 'dim', 0.8);
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'The value is above the maximum.' } });
    await setting;
    expect(shown('lamp', 'dim')).toBe(0.5);
    expect(store.getState().pending).toEqual({});
    expect(store.getState().errors.lamp?.message).toBe('Dim level was not changed. The value is above the maximum.');

    store.getState().dismissError('lamp');
    expect(store.getState().errors).toEqual({});
  });

  it('rolls back to a newer value that arrived meanwhile, not to the value before', async () => {
    const { fake, store, runFrame, events, shown } = setup();
    const setting = store.getState().setCapability('lamp', 'dim', 0.8);
    events(capability('lamp', 'dim', 0.2, T2));
    runFrame();
    expect(shown('lamp', 'dim')).toBe(0.8); // the user's value stays on top until settled
    fake.waiting('hubs.setCapability')[0]!.reject(new Error('socket closed'));
    await setting;
    expect(shown('lamp', 'dim')).toBe(0.2);
    expect(store.getState().errors.lamp?.message).toMatch(/lost its connection/);
  });

  it('does not apply the echo of its own change, pending or confirmed', async () => {
    const { fake, store, runFrame, events } = setup();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    const before = store.getState().devices.lamp;
    events(capability('lamp', 'onoff', true, T1, 'tx-1'));
    runFrame();
    expect(store.getState().devices.lamp).toBe(before);

    fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T1 }));
    await setting;
    const confirmed = store.getState().devices.lamp;
    events(capability('lamp', 'onoff', true, T2, 'tx-1'));
    runFrame();
    expect(store.getState().devices.lamp).toBe(confirmed);
    // Someone else's change with its own transaction id is applied.
    events(capability('lamp', 'onoff', false, T2, 'other-client-1'));
    runFrame();
    expect(store.getState().devices.lamp!.capabilitiesObj!.onoff!.value).toBe(false);
  });

  it('shows the last of two quick changes, whatever order they settle in', async () => {
    const { fake, store, shown } = setup();
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

  it('keeps pending values on top of a refetched list until they settle', async () => {
    const { fake, store, shown } = setup();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    store.getState().load(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.4, T1)] }));
    expect(shown('lamp', 'onoff')).toBe(true);
    expect(shown('lamp', 'dim')).toBe(0.4);
    fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T2 }));
    await setting;
    expect(store.getState().pending).toEqual({});
    expect(shown('lamp', 'onoff')).toBe(true);
  });

  it('sends nothing without the permission to control, or for an unknown capability', () => {
    const { fake, store } = setup(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)], permissions: READ_ONLY }));
    void store.getState().setCapability('lamp', 'onoff', true);
    expect(store.getState().permissions).toEqual(READ_ONLY);
    store.getState().load(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)] }));
    void store.getState().setCapability('lamp', 'colour', true);
    expect(fake.waiting('hubs.setCapability')).toHaveLength(0);
    expect(store.getState().pending).toEqual({});
  });

  it('drops the answer of a change made on a hub no longer watched', async () => {
    const { fake, store } = setup();
    const setting = store.getState().setCapability('lamp', 'onoff', true);
    store.getState().watch('h2');
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'No.' } });
    await setting;
    expect(store.getState()).toMatchObject({ hubId: 'h2', loaded: false, devices: {}, pending: {}, errors: {} });
  });
});

describe('live devices: favourites', () => {
  it('pins at once and keeps it when the core saves it', async () => {
    const { fake, store } = setup();
    const pinning = store.getState().setFavourite('lamp', true);
    expect(store.getState().favourites).toEqual({ lamp: true });
    expect(fake.waiting('hubs.setFavourite')[0]!.args).toEqual(['h1', 'lamp', true]);
    fake.waiting('hubs.setFavourite')[0]!.resolve(ok(undefined));
    await pinning;
    expect(store.getState().favourites).toEqual({ lamp: true });
  });

  it('undoes a favourite the core could not save and says why', async () => {
    const { fake, store } = setup(deviceList('h1', [], { devices: [light('lamp', 'Lamp', false, 0.5)], favourites: ['lamp'] }));
    const unpinning = store.getState().setFavourite('lamp', false);
    expect(store.getState().favourites).toEqual({});
    fake.waiting('hubs.setFavourite')[0]!.resolve({ ok: false, error: { code: 'internal', message: 'Disk full.' } });
    await unpinning;
    expect(store.getState().favourites).toEqual({ lamp: true });
    expect(store.getState().errors.lamp?.message).toBe('Removing from favourites failed: Disk full.');
  });
});
