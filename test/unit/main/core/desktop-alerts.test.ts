import { describe, expect, it } from 'vitest';
import type { DesktopNotification, NotificationSwitches } from '../../../../common/ipc-contract';
import { alarmKind, startDesktopAlerts } from '../../../../main/core/desktop-alerts';
import { DEFAULT_NOTIFICATIONS } from '../../../../main/core/desktop-preferences';
import { CLOSED_REASON } from '../../../../main/core/open-hub';
import { createOpenHubMirror } from '../../../../main/core/open-hub-mirror';
import { recordingLogger } from '../../../support/core-fakes';
import { device, snapshot } from '../../../support/hub-snapshots';

function setUp(switches: Partial<NotificationSwitches> = {}) {
  const mirror = createOpenHubMirror(() => 'Home', recordingLogger());
  const shown: DesktopNotification[] = [];
  const stop = startDesktopAlerts({ mirror, switches: () => ({ ...DEFAULT_NOTIFICATIONS, ...switches }), hubName: () => 'Home', notify: (n) => shown.push(n) });
  const set = (deviceId: string, capabilityId: string, value: boolean) =>
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'capability', deviceId, capabilityId, value, transactionId: null, time: 't' }] });
  const live = (state: Parameters<typeof mirror.apply<'hubs.live'>>[1]['state']) => mirror.apply('hubs.live', { hubId: 'home', state });
  mirror.apply('hubs.snapshot', snapshot('home', [device('smoke', 'Hall smoke detector', { alarm_smoke: false, alarm_motion: false, alarm_battery: false }), device('leak', 'Washer', { alarm_water: false })]));
  return { mirror, shown, stop, set, live };
}

describe('desktop alerts', () => {
  it('names alarm kinds, and other capabilities are none', () => {
    expect([alarmKind('alarm_smoke'), alarmKind('alarm_co'), alarmKind('alarm_water'), alarmKind('alarm_tamper'), alarmKind('alarm_battery'), alarmKind('onoff'), alarmKind('alarm_constructor')]).toEqual(['smoke', 'smoke', 'water', 'tamper', 'other', null, 'other']);
  });

  it('tells when an alarm turns on, with the device, zone and hub, once per change', () => {
    const { shown, set } = setUp();
    set('smoke', 'alarm_smoke', true);
    set('smoke', 'alarm_smoke', true); // no change: nothing new
    set('smoke', 'alarm_smoke', false);
    expect(shown).toEqual([{ tag: 'alarm:home:smoke:alarm_smoke', kind: 'smoke', title: 'Smoke alarm: Hall smoke detector', body: 'Kitchen, Home', hubId: 'home', deviceId: 'smoke' }]);
  });

  it('does not name the kind twice when the device is named after it', () => {
    const { mirror, shown } = setUp();
    mirror.apply('hubs.snapshot', snapshot('home', [device('k', 'Kitchen smoke alarm', { alarm_smoke: false })]));
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'capability', deviceId: 'k', capabilityId: 'alarm_smoke', value: true, transactionId: null, time: 't' }] });
    expect(shown.map((n) => n.title)).toEqual(['Kitchen smoke alarm']);
  });

  it('shows a name from the hub as one plain line: no control or text-reversing characters', () => {
    const { mirror, shown } = setUp();
    mirror.apply('hubs.snapshot', snapshot('home', [device('x', 'Back\u202edoor\n\u0007sensor', { alarm_tamper: false })]));
    mirror.apply('hubs.deviceEvents', { hubId: 'home', events: [{ kind: 'capability', deviceId: 'x', capabilityId: 'alarm_tamper', value: true, transactionId: null, time: 't' }] });
    expect(shown.map((n) => n.title)).toEqual(['Tamper alarm: Backdoor sensor']); // the override removed, the line break a space
  });

  it('respects each switch: motion is off by default, a switched-off kind says nothing', () => {
    const { shown, set } = setUp({ water: false });
    set('smoke', 'alarm_motion', true);
    set('leak', 'alarm_water', true);
    set('smoke', 'alarm_battery', true);
    expect(shown.map((n) => [n.kind, n.title])).toEqual([['other', 'alarm_battery: Hall smoke detector']]); // an unknown alarm goes by its capability's title
  });

  it('says a hub is unreachable after a second failed attempt, and reachable again once', () => {
    const { shown, live } = setUp();
    live({ state: 'live', since: 'now' });
    live({ state: 'reconnecting', attempt: 1, nextRetryAt: 0, reason: 'Connection reset' });
    expect(shown).toEqual([]); // one drop that may come straight back
    live({ state: 'reconnecting', attempt: 2, nextRetryAt: 0, reason: 'Connection refused' });
    live({ state: 'reconnecting', attempt: 3, nextRetryAt: 0, reason: 'Connection refused' });
    live({ state: 'live', since: 'later' });
    live({ state: 'live', since: 'later still' });
    expect(shown.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['hub-unreachable', 'Home is unreachable', 'Hubdesk keeps trying. Connection refused'],
      ['hub-reachable', 'Home is reachable again', 'Its devices are live again.'],
    ]);
  });

  it('says nothing when the hub is closed, never was live, or reachability is switched off', () => {
    const closing = setUp();
    closing.live({ state: 'live', since: 'now' });
    closing.live({ state: 'offline', reason: CLOSED_REASON });
    closing.live({ state: 'reconnecting', attempt: 5, nextRetryAt: 0, reason: 'x' });
    expect(closing.shown).toEqual([]);
    const off = setUp({ hubReachability: false });
    off.live({ state: 'live', since: 'now' });
    off.live({ state: 'offline', reason: 'No access' });
    expect(off.shown).toEqual([]);
  });

  it('stops when asked', () => {
    const { shown, set, stop } = setUp();
    stop();
    set('smoke', 'alarm_smoke', true);
    expect(shown).toEqual([]);
  });
});
