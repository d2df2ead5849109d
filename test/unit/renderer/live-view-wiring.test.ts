import { describe, expect, it } from 'vitest';
import { connectLiveView } from '../../../renderer/src/stores/connect-stores';
import { createFlowsStore } from '../../../renderer/src/stores/flows-store';
import { createHubsStore, devicesOf } from '../../../renderer/src/stores/hubs-store';
import { createLiveDevicesStore } from '../../../renderer/src/stores/live-devices-store';
import { deviceList, fakeBridge, flush, hub, light, ok, READ_ONLY } from './fake-bridge';

async function wired() {
  const fake = fakeBridge();
  const hubs = createHubsStore(fake.bridge);
  const live = createLiveDevicesStore(fake.bridge, { scheduleFlush: () => {} });
  const flows = createFlowsStore(fake.bridge);
  const disconnect = connectLiveView(fake.bridge, hubs, live, flows);
  hubs.getState().setActive(true);
  fake.waiting('hubs.list')[0]!.resolve(ok([hub('h1', 'Home'), hub('h2', 'Cabin')]));
  await flush();
  const watched = () => fake.calls.filter((call) => call.channel === 'hubs.watch').map((call) => call.args[0]);
  return { fake, hubs, live, flows, disconnect, watched };
}

describe('live view wiring', () => {
  it('watches the selected hub, the next one on select, and none on sign-out', async () => {
    const { fake, hubs, live, watched } = await wired();
    expect(watched()).toEqual(['h1']);
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', [], { devices: [light('lamp', 'Lamp', true, 1)] })));
    await flush();
    expect(live.getState()).toMatchObject({ hubId: 'h1', loaded: true });
    expect(Object.keys(live.getState().devices)).toEqual(['lamp']);

    hubs.getState().select('h2');
    expect(watched()).toEqual(['h1', 'h2']);
    expect(live.getState()).toMatchObject({ hubId: 'h2', loaded: false, devices: {} });

    // Back to a hub whose list is already loaded: it is shown again at once.
    hubs.getState().select('h1');
    expect(live.getState()).toMatchObject({ hubId: 'h1', loaded: true });

    hubs.getState().setActive(false);
    expect(watched()).toEqual(['h1', 'h2', 'h1', null]);
    expect(live.getState().hubId).toBeNull();
  });

  it('takes a list the core refetched, for the watched hub', async () => {
    const { fake, hubs, live } = await wired();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    fake.emit('hubs.devicesRefreshed', deviceList('h1', ['Lamp', 'Stove']));
    expect(live.getState().summaries.map((s) => s.name)).toEqual(['Lamp', 'Stove']);
    expect(devicesOf(hubs.getState(), 'h1')).toMatchObject({ status: 'loaded', list: { devices: [{ name: 'Lamp' }, { name: 'Stove' }] } });

    fake.emit('hubs.devicesRefreshed', { hubId: 'h1', devices: 'garbage' });
    fake.emit('hubs.devicesRefreshed', deviceList('elsewhere', ['Ghost']));
    expect(live.getState().summaries.map((s) => s.name)).toEqual(['Lamp', 'Stove']);
    expect(devicesOf(hubs.getState(), 'elsewhere').status).toBe('idle');
  });

  it('loads flows when the session may read them, not when it may not', async () => {
    const { fake, hubs, flows } = await wired();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h1', ['Lamp'])));
    await flush();
    expect(fake.waiting('hubs.flows').map((call) => call.args)).toEqual([['h1']]);
    expect(flows.getState()).toMatchObject({ hubId: 'h1', flows: { status: 'loading' } });

    hubs.getState().select('h2');
    expect(flows.getState().hubId).toBeNull();
    fake.waiting('hubs.devices')[0]!.resolve(ok(deviceList('h2', ['Stove'], { permissions: { ...READ_ONLY, flows: 'none' } })));
    await flush();
    expect(flows.getState()).toMatchObject({ hubId: null, flows: { status: 'idle' } });
    expect(fake.waiting('hubs.flows')).toHaveLength(1);
  });

  it('stops watching when disconnected', async () => {
    const { disconnect, watched, fake } = await wired();
    disconnect();
    expect(watched()).toEqual(['h1', null]);
    expect(fake.listenerCount()).toBe(2); // the live store's own listeners; the wiring's is gone
  });
});

describe('flows store', () => {
  const FLOWS = { hubId: 'h1', canStart: true, flows: [{ id: 'f1', name: 'Good night', enabled: true }] };

  it('triggers a flow and reports Started or the reason it did not start', async () => {
    const fake = fakeBridge();
    const flows = createFlowsStore(fake.bridge);
    flows.getState().show('h1');
    fake.waiting('hubs.flows')[0]!.resolve(ok(FLOWS));
    await flush();
    expect(flows.getState().flows).toEqual({ status: 'loaded', list: FLOWS });

    const starting = flows.getState().trigger('f1');
    expect(flows.getState().triggers.f1).toEqual({ status: 'starting' });
    void flows.getState().trigger('f1'); // a second click while starting does nothing
    expect(fake.waiting('hubs.triggerFlow')).toHaveLength(1);
    fake.waiting('hubs.triggerFlow')[0]!.resolve(ok({ id: 'f1', triggeredAt: '2025-01-01T12:00:00.000Z' }));
    await starting;
    expect(flows.getState().triggers.f1).toEqual({ status: 'started', at: '2025-01-01T12:00:00.000Z' });

    const again = flows.getState().trigger('f1');
    fake.waiting('hubs.triggerFlow')[0]!.resolve({ ok: false, error: { code: 'invalid-argument', message: 'The flow is turned off.' } });
    await again;
    expect(flows.getState().triggers.f1).toEqual({ status: 'failed', message: 'The flow is turned off.' });
  });

  it('drops answers for a hub no longer shown', async () => {
    const fake = fakeBridge();
    const flows = createFlowsStore(fake.bridge);
    flows.getState().show('h1');
    flows.getState().show('h2');
    fake.waiting('hubs.flows')[0]!.resolve(ok(FLOWS));
    await flush();
    expect(flows.getState()).toMatchObject({ hubId: 'h2', flows: { status: 'loading' } });
  });
});
