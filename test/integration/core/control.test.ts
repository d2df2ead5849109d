/**
 * Control and the live channel of the app core against the real reference stack over real sockets:
 * two cores signed in as the same user; one changes a device, the other sees it over realtime; the
 * hub's refusals arrive with its reasons; a read-only sign-in may not control; a session that the hub
 * ends is replaced and the channel resubscribed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceEvent, EventPayload } from '../../../common/ipc-contract';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { createTrustedFetch, createTrustedWebSocket } from '../../../main/trusted-fetch';
import { type RunningStack, startStack } from '../../../services/stack';
import { signedInStackCore } from '../../support/stack-core';
import { openHub, readDevices } from '../../support/open-hub';
import { nextEvent } from '../../support/next-event';

let stack: RunningStack;
let homeId: string;
const cores: HubdeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
  homeId = stack.info.hubs.find((hub) => hub.name === 'Home')!.id;
});
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});
afterAll(() => stack?.close());

/** A core signed in through the consent page; `trustStackCa` makes it trust the hub's LAN certificate (https + wss). */
async function signedInCore(options: { client?: 'full' | 'readonly'; trustStackCa?: boolean } = {}): Promise<HubdeskCore> {
  const ca = options.trustStackCa ? stack.info.ca : undefined;
  const core = await signedInStackCore(stack.info, { fetch: createTrustedFetch(ca), openWebSocket: createTrustedWebSocket(ca) }, options.client);
  cores.push(core);
  return core;
}

const liveState = (state: string) => (status: EventPayload<'hubs.live'>) => status.hubId === homeId && status.state.kind === state;

/** The first capability event of `deviceId` in a batch that `match` accepts. */
function nextChange(core: HubdeskCore, deviceId: string, match: (event: Extract<DeviceEvent, { kind: 'capability' }>) => boolean = () => true) {
  const pick = (batch: EventPayload<'hubs.deviceEvents'>) =>
    batch.events.find(
      (event): event is Extract<DeviceEvent, { kind: 'capability' }> => event.kind === 'capability' && event.deviceId === deviceId && match(event),
    );
  return nextEvent(core, 'hubs.deviceEvents', (batch) => pick(batch) !== undefined).then((batch) => pick(batch)!);
}

/** Opens Home and waits until its live channel is subscribed. */
async function watchLive(core: HubdeskCore): Promise<void> {
  const live = nextEvent(core, 'hubs.live', liveState('live'));
  await core.handlers['hubs.open'](homeId);
  await live;
}

async function deviceNamed(core: HubdeskCore, name: string) {
  const list = await readDevices(core, homeId);
  const device = list.devices.find((d) => d.name === name);
  if (!device) throw new Error(`no device named ${name}`);
  return { list, device };
}

describe('control and live updates against the reference hub', () => {
  it('a change made by one core reaches another within one event, and the first sees its own echo by transactionId', async () => {
    const first = await signedInCore();
    const second = await signedInCore({ trustStackCa: true }); // over https + wss on the LAN certificate
    await Promise.all([watchLive(first), watchLive(second)]);
    const { device: lamp } = await deviceNamed(first, 'Floor lamp');
    const { list } = await deviceNamed(second, 'Floor lamp');
    expect(list.route).toBe('local-secure');
    expect(list.permissions).toEqual({ control: true, flows: 'start' });

    const seenBySecond = nextChange(second, lamp.id, (event) => event.capabilityId === 'onoff');
    const echo = nextChange(first, lamp.id, (event) => event.transactionId === 'tx-first-1');
    const stored = await first.handlers['hubs.setCapability'](homeId, { deviceId: lamp.id, capabilityId: 'onoff', value: true, transactionId: 'tx-first-1' });
    expect(stored).toMatchObject({ capabilityId: 'onoff', value: true, transactionId: 'tx-first-1' });
    expect(await seenBySecond).toMatchObject({ value: true, transactionId: 'tx-first-1' });
    expect(await echo).toMatchObject({ value: true });
  });

  it("an invalid value is refused with the hub's reason, naming the device", async () => {
    const core = await signedInCore();
    const { device: spots } = await deviceNamed(core, 'Kitchen spots');
    const refused = core.handlers['hubs.setCapability'](homeId, { deviceId: spots.id, capabilityId: 'dim', value: 1.5, transactionId: 'tx-bad' });
    await expect(refused).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/^Kitchen spots: .*dim/) });
  });

  it('a read-only sign-in may look but not control, and is told why', async () => {
    const core = await signedInCore({ client: 'readonly' });
    const { list, device: lamp } = await deviceNamed(core, 'Floor lamp');
    expect(list.permissions).toMatchObject({ control: false, reason: expect.stringMatching(/read-only access to Home/) });
    const refused = core.handlers['hubs.setCapability'](homeId, { deviceId: lamp.id, capabilityId: 'onoff', value: false, transactionId: 'tx-ro' });
    await expect(refused).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/read-only/) });
  });

  it('lists the flows and starts one', async () => {
    const core = await signedInCore();
    const { flows: view } = await openHub(core, homeId);
    if (view.status !== 'loaded') throw new Error(`the flows were not read: ${JSON.stringify(view)}`);
    const flows = view.list;
    expect(flows.canStart).toBe(true);
    const enabled = flows.flows.find((flow) => flow.enabled)!;
    expect(await core.handlers['hubs.triggerFlow'](homeId, enabled.id)).toMatchObject({ id: enabled.id });
  });

  it('favourites are kept per hub and come with the device list', async () => {
    const core = await signedInCore();
    const { device: lamp } = await deviceNamed(core, 'Floor lamp');
    await core.handlers['hubs.setFavourite'](homeId, lamp.id, true);
    expect((await readDevices(core, homeId)).favourites).toEqual([lamp.id]);
  });

  it('when the hub ends the session, the core opens a new one, resubscribes, refetches, and sees later changes', async () => {
    const watcher = await signedInCore();
    const changer = await signedInCore();
    await watchLive(watcher);
    const { device: fan } = await deviceNamed(watcher, 'Ceiling fan');

    const reconnecting = nextEvent(watcher, 'hubs.live', liveState('reconnecting'));
    const refreshed = reconnecting.then(() => nextEvent(watcher, 'hubs.snapshot'));
    const liveAgain = reconnecting.then(() => nextEvent(watcher, 'hubs.live', liveState('live')));
    stack.hubs.find((hub) => hub.id === homeId)!.expireSessions();
    expect((await reconnecting).state).toMatchObject({ cause: 'session-ended' });
    await liveAgain;
    const snapshot = await refreshed;
    expect(snapshot.status === 'loaded' && snapshot.devices.devices.length).toBeGreaterThan(0);

    const seen = nextChange(watcher, fan.id, (event) => event.transactionId === 'tx-after-expiry');
    await changer.handlers['hubs.setCapability'](homeId, { deviceId: fan.id, capabilityId: 'fan_speed', value: 0.75, transactionId: 'tx-after-expiry' });
    expect(await seen).toMatchObject({ capabilityId: 'fan_speed', value: 0.75 });
  });
});
