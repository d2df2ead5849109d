import { describe, expect, it } from 'vitest';
import type { Device } from '../../../../common/wire';
import { activeDevices, turnOffClass } from '../../../../renderer/src/format/whats-on';
import { createDemoHome } from '../../../../services/hub/demo-home';

const home = createDemoHome('home');
const byName = (name: string) => Object.values(home.devices()).find((device) => device.name === name)!.id;
const summary = (devices: readonly Device[]) => activeDevices(devices).map((device) => [device.name, device.state, device.end?.verb ?? null]);

describe('what is on', () => {
  it('lists what is on, open, unlocked or playing in the demo home, each with what ends it', () => {
    const changed = createDemoHome('home');
    const id = (name: string) => Object.values(changed.devices()).find((device) => device.name === name)!.id;
    changed.setCapability(id('Front door lock'), 'locked', false, null);
    changed.setCapability(id('Garage door'), 'garagedoor_closed', false, null);
    changed.setCapability(id('Living room speaker'), 'speaker_playing', true, null);
    changed.setCapability(id('Front door sensor'), 'alarm_contact', true, null);
    expect(summary(Object.values(changed.devices()))).toEqual([
      ['Ceiling light', 'On', 'Turn off'],
      ['Desk lamp', 'On', 'Turn off'],
      ['EV charger', 'On', 'Turn off'],
      ['Front door lock', 'Unlocked', 'Lock'],
      ['Front door sensor', 'Open', null], // a sensor: nothing to end from here
      ['Garage door', 'Open', 'Close'],
      ['Kitchen spots', 'On', 'Turn off'],
      ['Living room blinds', 'Open 70 %', 'Close'],
      ['Living room speaker', 'Playing', 'Pause'],
      ['Towel rail', 'On', 'Turn off'],
      ['TV socket', 'On', 'Turn off'],
    ]);
  });

  it('leaves out unavailable devices and everything off, closed or locked', () => {
    const quiet = createDemoHome('home');
    for (const device of Object.values(quiet.devices())) {
      if (device.capabilitiesObj?.onoff) quiet.setCapability(device.id, 'onoff', false, null);
      if (device.capabilitiesObj?.windowcoverings_set) quiet.setCapability(device.id, 'windowcoverings_set', 0, null);
    }
    const sprinkler = quiet.device(byName('Sprinkler'))!;
    const onButGone = { ...sprinkler, capabilitiesObj: { ...sprinkler.capabilitiesObj, onoff: { ...sprinkler.capabilitiesObj!.onoff!, value: true } } };
    expect(summary([...Object.values(quiet.devices()), onButGone])).toEqual([]);
  });

  it('a cover closes by moving down; a read-only switch is listed but cannot be ended', () => {
    const devices = Object.values(home.devices());
    const blinds = activeDevices(devices).find((device) => device.name === 'Living room blinds');
    expect(blinds?.end?.change).toEqual({ deviceId: byName('Living room blinds'), capabilityId: 'windowcoverings_state', value: 'down' });
    const lamp = home.device(byName('Desk lamp'))!;
    const readOnly = { ...lamp, capabilitiesObj: { ...lamp.capabilitiesObj, onoff: { ...lamp.capabilitiesObj!.onoff!, setable: false } } };
    expect(summary([readOnly])).toEqual([['Desk lamp', 'On', null]]);
  });

  it('turns off a class at once: every light that is on, nothing else', () => {
    const active = activeDevices(Object.values(home.devices()));
    expect(turnOffClass(active, 'light')).toEqual(
      ['Ceiling light', 'Desk lamp', 'Kitchen spots'].map((name) => ({ deviceId: byName(name), capabilityId: 'onoff', value: false })),
    );
    expect(turnOffClass(active, 'fan')).toEqual([]);
  });
});
