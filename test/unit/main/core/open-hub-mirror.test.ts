import { describe, expect, it } from 'vitest';
import { CLOSED_REASON } from '../../../../main/core/open-hub';
import { type CapabilityChange, createOpenHubMirror, type OpenHubSummary } from '../../../../main/core/open-hub-mirror';
import { recordingLogger } from '../../../support/core-fakes';
import { device, snapshot } from '../../../support/hub-snapshots';

function mirrorWithLog() {
  const mirror = createOpenHubMirror((hubId) => (hubId === 'home' ? 'Home' : undefined), recordingLogger());
  const changes: CapabilityChange[] = [];
  const summaries: OpenHubSummary[] = [];
  mirror.onCapabilityChange((change) => changes.push(change));
  mirror.onSummary((summary) => summaries.push(summary));
  return { mirror, changes, summaries };
}

describe('open hub mirror', () => {
  it('summarises the open hub: name, favourites in pinned order with their switch, enabled flows', () => {
    const { mirror } = mirrorWithLog();
    mirror.apply('hubs.live', { hubId: 'home', state: { state: 'connecting' } });
    mirror.apply('hubs.snapshot', snapshot('home', [device('a', 'Lamp', { onoff: true }), device('b', 'Sensor', { measure_temperature: 20 }), device('c', 'Kettle', { onoff: false })], { favourites: ['c', 'b', 'gone'] }));
    mirror.apply('hubs.live', { hubId: 'home', state: { state: 'live', since: 'now' } });
    expect(mirror.summary()).toEqual({
      hubId: 'home',
      hubName: 'Home',
      live: 'live',
      favourites: [
        { deviceId: 'c', name: 'Kettle', on: false, canToggle: true },
        { deviceId: 'b', name: 'Sensor', on: null, canToggle: false },
      ],
      flows: [{ id: 'f1', name: 'Good night' }],
    });
  });

  it('cannot toggle or start without the permission', () => {
    const { mirror } = mirrorWithLog();
    mirror.apply('hubs.snapshot', snapshot('other', [device('a', 'Lamp', { onoff: true })], { favourites: ['a'], control: false, canStart: false }));
    expect(mirror.summary()).toMatchObject({ hubName: 'other', favourites: [{ deviceId: 'a', canToggle: false }], flows: [] });
  });

  it('reports a change only of a value known before, from events and from a later snapshot', () => {
    const { mirror, changes } = mirrorWithLog();
    mirror.apply('hubs.snapshot', snapshot('home', [device('a', 'Smoke', { alarm_smoke: true })]));
    expect(changes).toEqual([]); // the first snapshot states values
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'capability', deviceId: 'a', capabilityId: 'alarm_smoke', value: false, transactionId: null, time: 't' }] });
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'capability', deviceId: 'a', capabilityId: 'alarm_smoke', value: false, transactionId: null, time: 't' }] });
    mirror.apply('hubs.snapshot', snapshot('home', [device('a', 'Smoke', { alarm_smoke: true })]));
    expect(changes.map(({ hubId, capabilityId, previous, value }) => ({ hubId, capabilityId, previous, value }))).toEqual([
      { hubId: 'home', capabilityId: 'alarm_smoke', previous: true, value: false },
      { hubId: 'home', capabilityId: 'alarm_smoke', previous: false, value: true },
    ]);
  });

  it('ignores events of another hub and of unknown devices', () => {
    const { mirror, changes } = mirrorWithLog();
    mirror.apply('hubs.snapshot', snapshot('home', [device('a', 'Lamp', { onoff: true })], { favourites: ['a'] }));
    mirror.apply('hubs.deviceEvents', { hubId: 'else', events: [{ kind: 'capability', deviceId: 'a', capabilityId: 'onoff', value: false, transactionId: null, time: 't' }] });
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'capability', deviceId: 'zz', capabilityId: 'onoff', value: false, transactionId: null, time: 't' }] });
    expect(changes).toEqual([]);
    expect(mirror.summary().favourites[0]?.on).toBe(true);
  });

  it('follows favourites, device replacements and removals', () => {
    const { mirror } = mirrorWithLog();
    mirror.apply('hubs.snapshot', snapshot('home', [device('a', 'Lamp', { onoff: true }), device('b', 'Fan', { onoff: false })], { favourites: ['a'] }));
    mirror.setFavourites('home', ['a', 'b']);
    mirror.setFavourites('else', []);
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'device', device: device('b', 'Ceiling fan', { onoff: true }) }, { kind: 'removed', deviceId: 'a' }] });
    expect(mirror.summary().favourites).toEqual([{ deviceId: 'b', name: 'Ceiling fan', on: true, canToggle: true }]);
  });

  it('is closed when the hub is closed, and a new hub starts empty and connecting', () => {
    const { mirror } = mirrorWithLog();
    mirror.apply('hubs.snapshot', snapshot('home', [device('a', 'Lamp', { onoff: true })], { favourites: ['a'] }));
    mirror.apply('hubs.live', { hubId: 'home', state: { state: 'offline', reason: CLOSED_REASON } });
    expect(mirror.summary()).toMatchObject({ hubId: null, live: 'closed', favourites: [] });
    mirror.apply('hubs.live', { hubId: 'cabin', state: { state: 'connecting' } });
    mirror.apply('hubs.live', { hubId: 'home', state: { state: 'offline', reason: CLOSED_REASON } }); // late close of the previous hub
    expect(mirror.summary()).toMatchObject({ hubId: 'cabin', live: 'connecting', favourites: [] });
    mirror.apply('hubs.live', { hubId: 'cabin', state: { state: 'reconnecting', attempt: 2, nextRetryAt: 0, reason: 'Connection refused' } });
    expect(mirror.summary()).toMatchObject({ live: 'reconnecting', liveReason: 'Connection refused' });
  });
});
