import { describe, expect, it } from 'vitest';
import type { DeviceEvent } from '../../../../../common/ipc-contract';
import { type CapabilityChange, createOpenHubModel, type OpenHubSummary } from '../../../../../main/core/hubs/open-hub-model';
import { recordingLogger } from '../../../../support/core-fakes';
import { device, snapshot } from '../../../../support/hub-snapshots';

function modelWithLog() {
  const model = createOpenHubModel((hubId) => (hubId === 'home' ? 'Home' : undefined), recordingLogger());
  const changes: CapabilityChange[] = [];
  const summaries: OpenHubSummary[] = [];
  model.onCapabilityChange((change) => changes.push(change));
  model.onSummary((summary) => summaries.push(summary));
  return { model, changes, summaries };
}

const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';
const set = (deviceId: string, capabilityId: string, value: boolean, time = 't'): DeviceEvent => ({
  kind: 'capability',
  deviceId,
  capabilityId,
  value,
  transactionId: null,
  time,
});

describe('open hub model', () => {
  it('summarises the open hub: name, favourites in pinned order with their switch, enabled flows', () => {
    const { model } = modelWithLog();
    model.live({ hubId: 'home', state: { kind: 'connecting' } });
    model.snapshot(
      snapshot('home', [device('a', 'Lamp', { onoff: true }), device('b', 'Sensor', { measure_temperature: 20 }), device('c', 'Kettle', { onoff: false })], {
        favourites: ['c', 'b', 'gone'],
      }),
    );
    model.live({ hubId: 'home', state: { kind: 'live', since: 'now' } });
    expect(model.summary()).toEqual({
      hubId: 'home',
      hubName: 'Home',
      live: { kind: 'live', since: 'now' },
      favourites: [
        { deviceId: 'c', name: 'Kettle', on: false, canToggle: true },
        { deviceId: 'b', name: 'Sensor', on: null, canToggle: false },
      ],
      flows: [{ id: 'f1', name: 'Good night' }],
    });
  });

  it('cannot toggle or start without the permission; a hub whose name is not known goes by its id', () => {
    const { model } = modelWithLog();
    model.snapshot(snapshot('other', [device('a', 'Lamp', { onoff: true })], { favourites: ['a'], control: false, canStart: false }));
    expect(model.summary()).toMatchObject({ hubName: 'other', favourites: [{ deviceId: 'a', canToggle: false }], flows: [] });
  });

  it('reports a change only of a value known before, from events and from a later snapshot', () => {
    const { model, changes } = modelWithLog();
    model.snapshot(snapshot('home', [device('a', 'Smoke', { alarm_smoke: true })]));
    expect(changes).toEqual([]); // the first snapshot states values
    model.events('home', [set('a', 'alarm_smoke', false)]);
    model.events('home', [set('a', 'alarm_smoke', false)]);
    model.snapshot(snapshot('home', [device('a', 'Smoke', { alarm_smoke: true })]));
    expect(changes.map(({ hubId, capabilityId, previous, value }) => ({ hubId, capabilityId, previous, value }))).toEqual([
      { hubId: 'home', capabilityId: 'alarm_smoke', previous: true, value: false },
      { hubId: 'home', capabilityId: 'alarm_smoke', previous: false, value: true },
    ]);
  });

  it('keeps the window’s rule: an older value never replaces a newer one, from an event or a snapshot', () => {
    const { model, changes } = modelWithLog();
    model.snapshot(snapshot('home', [device('a', 'Lamp', { onoff: false })], { favourites: ['a'] }));
    model.events('home', [set('a', 'onoff', true, T2), set('a', 'onoff', false, T1)]); // the second was stamped before the first
    expect(model.summary().favourites[0]?.on).toBe(true);
    const stale = snapshot('home', [device('a', 'Lamp', { onoff: false })], { favourites: ['a'] });
    if (stale.status === 'loaded') stale.devices.devices[0]!.capabilitiesObj!.onoff!.lastUpdated = T1; // read before the event arrived
    model.snapshot(stale);
    expect(model.summary().favourites[0]?.on).toBe(true);
    expect(changes.map((change) => change.value)).toEqual([true]);
  });

  it('ignores events of another hub and of unknown devices', () => {
    const { model, changes, summaries } = modelWithLog();
    model.snapshot(snapshot('home', [device('a', 'Lamp', { onoff: true })], { favourites: ['a'] }));
    const before = summaries.length;
    model.events('else', [set('a', 'onoff', false)]);
    model.events('home', [set('zz', 'onoff', false)]);
    expect(changes).toEqual([]);
    expect(summaries).toHaveLength(before); // nothing changed, nobody woken
    expect(model.summary().favourites[0]?.on).toBe(true);
  });

  it('follows favourites, device replacements and removals', () => {
    const { model } = modelWithLog();
    model.snapshot(snapshot('home', [device('a', 'Lamp', { onoff: true }), device('b', 'Fan', { onoff: false })], { favourites: ['a'] }));
    model.favourites('home', ['a', 'b']);
    model.favourites('else', []);
    model.events('home', [
      { kind: 'device', device: device('b', 'Ceiling fan', { onoff: true }) },
      { kind: 'removed', deviceId: 'a' },
    ]);
    expect(model.summary().favourites).toEqual([{ deviceId: 'b', name: 'Ceiling fan', on: true, canToggle: true }]);
  });

  it('is closed when the hub is closed or the user signed out, and a new hub starts empty and connecting', () => {
    const { model } = modelWithLog();
    model.snapshot(snapshot('home', [device('a', 'Lamp', { onoff: true })], { favourites: ['a'] }));
    model.live({ hubId: 'home', state: { kind: 'closed' } });
    expect(model.summary()).toMatchObject({ hubId: null, live: { kind: 'closed' }, favourites: [] });
    model.live({ hubId: 'cabin', state: { kind: 'connecting' } });
    model.live({ hubId: 'home', state: { kind: 'closed' } }); // late close of the previous hub
    expect(model.summary()).toMatchObject({ hubId: 'cabin', live: { kind: 'connecting' }, favourites: [] });
    model.live({ hubId: 'cabin', state: { kind: 'reconnecting', attempt: 2, nextAttemptAt: 0, cause: 'refused' } });
    expect(model.summary()).toMatchObject({ live: { kind: 'reconnecting', cause: 'refused' } });
    model.live({ hubId: 'cabin', state: { kind: 'signed-out' } });
    expect(model.summary()).toMatchObject({ hubId: null, live: { kind: 'closed' } });
  });
});
