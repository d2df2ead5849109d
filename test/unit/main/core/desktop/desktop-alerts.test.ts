import { describe, expect, it } from 'vitest';
import type { DesktopNotification, LiveState, NotificationSwitches } from '../../../../../common/ipc-contract';
import { alarmKind, startDesktopAlerts } from '../../../../../main/core/desktop/desktop-alerts';
import { DEFAULT_NOTIFICATIONS } from '../../../../../main/core/desktop/desktop-preferences';
import { createOpenHubModel } from '../../../../../main/core/hubs/open-hub-model';
import { recordingLogger } from '../../../../support/core-fakes';
import { device, snapshot } from '../../../../support/hub-snapshots';

function setUp(switches: Partial<NotificationSwitches> = {}) {
  const model = createOpenHubModel(() => 'Home', recordingLogger());
  const shown: DesktopNotification[] = [];
  const stop = startDesktopAlerts({
    openHub: model,
    switches: () => ({ ...DEFAULT_NOTIFICATIONS, ...switches }),
    hubName: () => 'Home',
    notify: (n) => shown.push(n),
  });
  const set = (deviceId: string, capabilityId: string, value: boolean) =>
    model.events('home', [{ kind: 'capability', deviceId, capabilityId, value, transactionId: null, time: 't' }]);
  const live = (state: LiveState) => model.live({ hubId: 'home', state });
  model.snapshot(
    snapshot('home', [
      device('smoke', 'Hall smoke detector', { alarm_smoke: false, alarm_motion: false, alarm_battery: false }),
      device('leak', 'Washer', { alarm_water: false }),
    ]),
  );
  return { model, shown, stop, set, live };
}

describe('desktop alerts', () => {
  it('names alarm kinds, and other capabilities are none', () => {
    expect([
      alarmKind('alarm_smoke'),
      alarmKind('alarm_co'),
      alarmKind('alarm_water'),
      alarmKind('alarm_tamper'),
      alarmKind('alarm_battery'),
      alarmKind('onoff'),
      alarmKind('alarm_constructor'),
    ]).toEqual(['smoke', 'smoke', 'water', 'tamper', 'other', null, 'other']);
  });

  it('tells when an alarm turns on, with the device, zone and hub, once per change', () => {
    const { shown, set } = setUp();
    set('smoke', 'alarm_smoke', true);
    set('smoke', 'alarm_smoke', true); // no change: nothing new
    set('smoke', 'alarm_smoke', false);
    expect(shown).toEqual([
      {
        tag: 'alarm:home:smoke:alarm_smoke',
        kind: 'smoke',
        title: 'Smoke alarm: Hall smoke detector',
        body: 'Kitchen, Home',
        hubId: 'home',
        deviceId: 'smoke',
      },
    ]);
  });

  it('does not name the kind twice when the device is named after it', () => {
    const { model, shown } = setUp();
    model.snapshot(snapshot('home', [device('k', 'Kitchen smoke alarm', { alarm_smoke: false })]));
    model.events('home', [{ kind: 'capability', deviceId: 'k', capabilityId: 'alarm_smoke', value: true, transactionId: null, time: 't' }]);
    expect(shown.map((n) => n.title)).toEqual(['Kitchen smoke alarm']);
  });

  it('shows a name from the hub as one plain line: no control or text-reversing characters', () => {
    const { model, shown } = setUp();
    model.snapshot(snapshot('home', [device('x', 'Back\u202edoor\n\u0007sensor', { alarm_tamper: false })]));
    model.events('home', [{ kind: 'capability', deviceId: 'x', capabilityId: 'alarm_tamper', value: true, transactionId: null, time: 't' }]);
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
    live({ kind: 'live', since: 'now' });
    live({ kind: 'not-responding', since: 0 });
    live({ kind: 'reconnecting', attempt: 1, nextAttemptAt: 0, cause: 'hub-not-answering' });
    expect(shown).toEqual([]); // one drop that may come straight back
    live({ kind: 'reconnecting', attempt: 2, nextAttemptAt: 0, cause: 'offline' });
    live({ kind: 'reconnecting', attempt: 3, nextAttemptAt: 0, cause: 'hub-not-answering' });
    live({ kind: 'live', since: 'later' });
    live({ kind: 'live', since: 'later still' });
    expect(shown.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['hub-unreachable', 'Home is unreachable', 'This computer is offline — Hubdesk keeps trying.'],
      ['hub-reachable', 'Home is reachable again', 'Its devices are live again.'],
    ]);
  });

  it('says nothing when the hub is closed, never was live, or reachability is switched off', () => {
    const closing = setUp();
    closing.live({ kind: 'live', since: 'now' });
    closing.live({ kind: 'closed' });
    closing.live({ kind: 'reconnecting', attempt: 5, nextAttemptAt: 0, cause: 'hub-not-answering' });
    expect(closing.shown).toEqual([]);
    const signingOut = setUp();
    signingOut.live({ kind: 'live', since: 'now' });
    signingOut.live({ kind: 'signed-out' });
    expect(signingOut.shown).toEqual([]);
    const off = setUp({ hubReachability: false });
    off.live({ kind: 'live', since: 'now' });
    off.live({ kind: 'hub-refused' });
    expect(off.shown).toEqual([]);
  });

  it('a channel that ends for good after being live is unreachable at once, said in the window’s words', () => {
    const { shown, live } = setUp();
    live({ kind: 'live', since: 'now' });
    live({ kind: 'no-realtime' });
    expect(shown.map((n) => [n.kind, n.body])).toEqual([['hub-unreachable', 'Home doesn’t send live updates — reload to see changes.']]);
  });

  it('stops when asked', () => {
    const { shown, set, stop } = setUp();
    stop();
    set('smoke', 'alarm_smoke', true);
    expect(shown).toEqual([]);
  });
});
