/** Every pending change of the open hub has a deadline (docs/device-controls.md, "Connection state and deadlines"): it then rolls back with a sentence, and a late answer is ignored. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHubsStore } from '../../../../renderer/src/stores/hubs-store';
import { createOpenHubStore } from '../../../../renderer/src/stores/open-hub-store';
import { ACTION_DEADLINE_MS, CHANGE_NOT_CONFIRMED } from '../../../../renderer/src/stores/settle';
import { deviceList, fakeBridge, FLOWS, hub, light, ok, snapshot } from '../fake-bridge';

const T1 = '2025-01-01T12:00:01.000Z';

/** Flushes promise callbacks without real time passing (fake timers are on). */
const settleMicrotasks = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

async function homeLoaded(options: { actionDeadlineMs?: number } = {}) {
  const fake = fakeBridge();
  const hubs = createHubsStore(fake.bridge);
  let nextTx = 0;
  const store = createOpenHubStore(fake.bridge, hubs, { newTransactionId: () => `tx-${++nextTx}`, ...options });
  hubs.getState().setActive(true);
  fake.waiting('hubs.list')[0]!.resolve(ok([hub('h1', 'Home')]));
  await settleMicrotasks();
  fake.emit('hubs.snapshot', snapshot(deviceList('h1', [], { devices: [light('heater', 'Water heater', false, 0.5)] }), { status: 'loaded', list: FLOWS }));
  const shown = (capabilityId: string) =>
    store.getState().pending.heater?.[capabilityId]?.value ?? store.getState().devices.heater?.capabilitiesObj?.[capabilityId]?.value;
  return { fake, store, shown };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('open hub: deadlines', () => {
  it('rolls a change back with a sentence when main has not answered by the deadline', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('heater', 'onoff', true);
    expect(shown('onoff')).toBe(true);

    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS - 1);
    expect(shown('onoff')).toBe(true); // not yet
    await vi.advanceTimersByTimeAsync(1);
    await setting;
    expect(shown('onoff')).toBe(false);
    expect(store.getState().pending).toEqual({});
    expect(store.getState().errors.heater?.message).toBe(`Couldn't turn on Water heater — ${CHANGE_NOT_CONFIRMED}`);

    // The answer that arrives after the deadline is ignored: the value and the error stay as they are.
    fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T1 }));
    await settleMicrotasks();
    expect(shown('onoff')).toBe(false);
    expect(store.getState().errors.heater?.message).toBe(`Couldn't turn on Water heater — ${CHANGE_NOT_CONFIRMED}`);
  });

  it('takes the deadline it was given', async () => {
    const { store, shown } = await homeLoaded({ actionDeadlineMs: 500 });
    const setting = store.getState().setCapability('heater', 'dim', 0.8);
    await vi.advanceTimersByTimeAsync(500);
    await setting;
    expect(shown('dim')).toBe(0.5);
    expect(store.getState().errors.heater?.message).toBe(`Couldn't set Dim level of Water heater to 80 % — ${CHANGE_NOT_CONFIRMED}`);
  });

  it('an answer before the deadline counts, and no timeout follows it', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('heater', 'onoff', true);
    fake.waiting('hubs.setCapability')[0]!.resolve(ok({ capabilityId: 'onoff', value: true, transactionId: 'tx-1', time: T1 }));
    await setting;
    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS * 2);
    expect(shown('onoff')).toBe(true);
    expect(store.getState().errors).toEqual({});
  });

  it('undoes a favourite main did not confirm in time', async () => {
    const { store } = await homeLoaded();
    const pinning = store.getState().setFavourite('heater', true);
    expect(store.getState().favourites).toEqual({ heater: true });
    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS);
    await pinning;
    expect(store.getState().favourites).toEqual({});
    expect(store.getState().errors.heater?.message).toBe(`Couldn't add Water heater to favourites — ${CHANGE_NOT_CONFIRMED}`);
  });

  it('a flow trigger never stays "starting": it fails at the deadline, and its late answer is ignored', async () => {
    const { fake, store } = await homeLoaded();
    const starting = store.getState().triggerFlow('f1');
    expect(store.getState().triggers.f1).toEqual({ status: 'starting' });
    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS);
    await starting;
    expect(store.getState().triggers.f1).toEqual({ status: 'failed', message: CHANGE_NOT_CONFIRMED });
    fake.waiting('hubs.triggerFlow')[0]!.resolve(ok({ id: 'f1', triggeredAt: T1 }));
    await settleMicrotasks();
    expect(store.getState().triggers.f1).toEqual({ status: 'failed', message: CHANGE_NOT_CONFIRMED });
  });

  it('keeps a card error until it is dismissed, however long', async () => {
    const { fake, store } = await homeLoaded();
    const setting = store.getState().setCapability('heater', 'onoff', true);
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'Water heater: The tank is empty.' } });
    await setting;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(store.getState().errors.heater?.message).toBe("Couldn't turn on Water heater — The tank is empty.");
    store.getState().dismissError('heater');
    expect(store.getState().errors).toEqual({});
  });
});

describe('open hub: a change confirmed late ends in the hub’s state', () => {
  const onoff = (value: boolean, transactionId: string | null, time = T1) => ({
    kind: 'capability' as const,
    deviceId: 'heater',
    capabilityId: 'onoff',
    value,
    transactionId,
    time,
  });

  it('the error of a change that missed the deadline goes as soon as the hub reports the value asked for', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('heater', 'onoff', true);
    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS);
    await setting;
    expect(shown('onoff')).toBe(false);
    expect(store.getState().errors.heater?.message).toBe(`Couldn't turn on Water heater — ${CHANGE_NOT_CONFIRMED}`);

    // The hub comes back and does it: its echo arrives after the deadline.
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [onoff(true, 'tx-1')] });
    expect(shown('onoff')).toBe(true);
    expect(store.getState().errors).toEqual({}); // no "Couldn't turn on" beside "On"
  });

  it('an echo that came while the answer was still awaited confirms the change, even when the answer never comes', async () => {
    const { fake, store, shown } = await homeLoaded();
    const setting = store.getState().setCapability('heater', 'onoff', true);
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [onoff(true, 'tx-1')] });
    await vi.advanceTimersByTimeAsync(ACTION_DEADLINE_MS);
    await setting;
    expect(shown('onoff')).toBe(true);
    expect(store.getState().pending).toEqual({});
    expect(store.getState().errors).toEqual({});
  });

  it('an error stays while the value still differs from the one asked for, and goes when a snapshot shows it done', async () => {
    const { fake, store } = await homeLoaded();
    const setting = store.getState().setCapability('heater', 'onoff', true);
    fake.waiting('hubs.setCapability')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'Water heater: The tank is empty.' } });
    await setting;
    fake.emit('hubs.deviceEvents', {
      hubId: 'h1',
      events: [{ kind: 'capability', deviceId: 'heater', capabilityId: 'dim', value: 0.9, transactionId: null, time: T1 }],
    });
    expect(store.getState().errors.heater?.message).toBe("Couldn't turn on Water heater — The tank is empty.");
    // Filled and switched on by someone else: the snapshot read after a reconnect says so.
    fake.emit(
      'hubs.snapshot',
      snapshot(deviceList('h1', [], { devices: [light('heater', 'Water heater', true, 0.9, T1)] }), { status: 'loaded', list: FLOWS }),
    );
    expect(store.getState().errors).toEqual({});
  });

  it('a favourite’s error is not a value’s: it stays until dismissed', async () => {
    const { fake, store } = await homeLoaded();
    const pinning = store.getState().setFavourite('heater', true);
    fake.waiting('hubs.setFavourite')[0]!.resolve({ ok: false, error: { code: 'internal', message: 'Disk full.' } });
    await pinning;
    fake.emit('hubs.deviceEvents', { hubId: 'h1', events: [onoff(true, null)] });
    expect(store.getState().errors.heater?.message).toBe("Couldn't add Water heater to favourites — Disk full.");
  });
});
