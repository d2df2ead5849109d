/**
 * As docs/architecture.md, "The desktop" says: notifications from the open hub, against the real stack over real sockets. A sensor
 * on the reference hub trips (the hub reports it over realtime); the core tells the host, or, where the
 * host has no native notifications (the browser host), sends `desktop.notification` to the renderer.
 * A kind switched off says nothing; the tray's summary follows favourites and values.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopNotification } from '../../../common/ipc-contract';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import type { OpenHubSummary } from '../../../main/core/hubs/open-hub-model';
import { type RunningStack, startStack } from '../../../services/stack';
import { readDevices } from '../../support/open-hub';
import { signedInStackCore } from '../../support/stack-core';
import { nextEvent } from '../../support/next-event';

let stack: RunningStack;
const cores: HubdeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({ remoteLatencyMs: 0 });
});
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});
afterAll(() => stack?.close());

const home = () => stack.info.hubs.find((hub) => hub.name === 'Home')!;

/** Opens Home, waits for it to be live, and returns the id of the device called `name`. */
async function liveHome(core: HubdeskCore, name: string): Promise<string> {
  await core.handlers['hubs.list'](); // the hub names, as the app reads them at sign-in
  const live = nextEvent(core, 'hubs.live', (status) => status.hubId === home().id && status.state.kind === 'live');
  const list = await readDevices(core, home().id);
  await live;
  const device = list.devices.find((d) => d.name === name);
  if (!device) throw new Error(`no device named ${name}`);
  return device.id;
}

describe('desktop notifications from the open hub', () => {
  it('a smoke alarm turning on reaches the renderer as desktop.notification (browser host)', async () => {
    const core = await signedInStackCore(stack.info);
    cores.push(core);
    const smokeId = await liveHome(core, 'Smoke alarm');
    const notified = nextEvent(core, 'desktop.notification');
    expect(stack.hubs[0]!.report(smokeId, 'alarm_smoke', true)).toBe(true);
    expect(await notified).toEqual({
      tag: `alarm:${home().id}:${smokeId}:alarm_smoke`,
      kind: 'smoke',
      title: 'Smoke alarm',
      body: 'Kitchen, Home',
      hubId: home().id,
      deviceId: smokeId,
    });
    stack.hubs[0]!.report(smokeId, 'alarm_smoke', false);
  });

  it('goes to the host’s native notifications where it has them, and a kind switched off says nothing', async () => {
    const shown: DesktopNotification[] = [];
    const core = await signedInStackCore(stack.info, { desktop: { tray: true, notify: (n) => shown.push(n) } });
    cores.push(core);
    const toRenderer: unknown[] = [];
    core.onEvent('desktop.notification', (n) => toRenderer.push(n));
    await core.handlers['desktop.set']({ notify: { smoke: false } });
    const smokeId = await liveHome(core, 'Smoke alarm');
    const leakId = (await readDevices(core, home().id)).devices.find((d) => d.name === 'Water leak sensor')!.id;

    // Each report is followed by its event; the leak comes after the smoke, so when it is seen the smoke was skipped.
    const leakSeen = nextEvent(core, 'hubs.deviceEvents', (batch) => batch.events.some((e) => e.kind === 'capability' && e.deviceId === leakId));
    stack.hubs[0]!.report(smokeId, 'alarm_smoke', true);
    stack.hubs[0]!.report(leakId, 'alarm_water', true);
    await leakSeen;
    expect(shown.map((n) => [n.kind, n.title])).toEqual([['water', 'Water leak sensor']]);
    expect(toRenderer).toEqual([]);
    stack.hubs[0]!.report(smokeId, 'alarm_smoke', false);
    stack.hubs[0]!.report(leakId, 'alarm_water', false);
  });

  it('the tray summary shows the open hub’s favourites with their live value', async () => {
    const core = await signedInStackCore(stack.info);
    cores.push(core);
    const lampId = await liveHome(core, 'Floor lamp');
    await core.handlers['hubs.setFavourite'](home().id, lampId, true);
    expect(core.openHubSummary()).toMatchObject({
      hubId: home().id,
      hubName: 'Home',
      live: { kind: 'live' },
      favourites: [{ deviceId: lampId, name: 'Floor lamp', on: false, canToggle: true }],
    });
    expect(core.openHubSummary().flows.length).toBeGreaterThan(0);

    const turnedOn = new Promise<OpenHubSummary>((resolve) => {
      const off = core.onOpenHubSummary((summary) => {
        if (summary.favourites[0]?.on !== true) return;
        off();
        resolve(summary);
      });
    });
    stack.hubs[0]!.report(lampId, 'onoff', true);
    expect((await turnedOn).favourites[0]).toMatchObject({ deviceId: lampId, on: true });
    stack.hubs[0]!.report(lampId, 'onoff', false);
    await core.handlers['hubs.setFavourite'](home().id, lampId, false);
    expect(core.openHubSummary().favourites).toEqual([]);
  });
});
