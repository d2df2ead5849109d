import { describe, expect, it } from 'vitest';
import { DeviceMapSchema } from '../../../../common/wire';
import { valueProblem } from '../../../../services/hub/capability-rules';
import { createDemoHome, type HomeChange } from '../../../../services/hub/demo-home';

describe('demo homes', () => {
  it('has the same device ids on every start', () => {
    expect(Object.keys(createDemoHome('home').devices())).toEqual(Object.keys(createDemoHome('home').devices()));
    expect(Object.keys(createDemoHome('home').devices())[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('builds a valid device map: home with ≥20 devices in ≥6 zones, cabin with 6–10', () => {
    const home = Object.values(DeviceMapSchema.parse(createDemoHome('home').devices()));
    expect(home.length).toBeGreaterThanOrEqual(20);
    expect(new Set(home.map((d) => d.zone)).size).toBeGreaterThanOrEqual(6);
    const cabin = Object.values(DeviceMapSchema.parse(createDemoHome('cabin').devices()));
    expect(cabin.length).toBeGreaterThanOrEqual(6);
    expect(cabin.length).toBeLessThanOrEqual(10);
    const homeIds = new Set(home.map((d) => d.id));
    expect(cabin.some((d) => homeIds.has(d.id))).toBe(false);
  });

  it('keeps values within their capability ranges', () => {
    for (const device of Object.values(createDemoHome('home').devices())) {
      for (const cap of Object.values(device.capabilitiesObj ?? {})) {
        if (cap.type === 'number') {
          expect(typeof cap.value).toBe('number');
          if (cap.min !== undefined) expect(cap.value as number).toBeGreaterThanOrEqual(cap.min);
          if (cap.max !== undefined) expect(cap.value as number).toBeLessThanOrEqual(cap.max);
        }
        if (cap.type === 'enum') expect(cap.values?.map((v) => v.id)).toContain(cap.value);
        if (cap.type === 'boolean') expect(typeof cap.value).toBe('boolean');
      }
    }
  });

  it('hands out copies: callers cannot change the hub’s state', () => {
    const home = createDemoHome('home');
    const [id] = Object.keys(home.devices());
    home.devices()[id!]!.name = 'changed';
    expect(home.device(id!)?.name).not.toBe('changed');
    expect(home.device('nope')).toBeUndefined();
  });
});

describe('setCapability', () => {
  const home = createDemoHome('home', { now: () => Date.parse('2030-01-01T00:00:00Z') });
  const byName = (name: string) => Object.values(home.devices()).find((device) => device.name === name)!.id;
  const lamp = byName('Floor lamp');
  const thermostat = byName('Living room thermostat');
  const blinds = byName('Living room blinds');
  const sensor = byName('Kitchen motion sensor');
  const sprinkler = byName('Sprinkler');

  it.each<[string, () => string, string, boolean | number | string, number, string]>([
    ['a number for a boolean', () => lamp, 'onoff', 1, 400, 'invalid_value'],
    ['a string for a number', () => lamp, 'dim', '0.5', 400, 'invalid_value'],
    ['a number below min', () => thermostat, 'target_temperature', 4.5, 400, 'invalid_value'],
    ['a number above max', () => thermostat, 'target_temperature', 35.5, 400, 'invalid_value'],
    ['a number off its step', () => thermostat, 'target_temperature', 20.25, 400, 'invalid_value'],
    ['a value not in the enum', () => blinds, 'windowcoverings_state', 'sideways', 400, 'invalid_value'],
    ['a read-only capability', () => sensor, 'alarm_motion', true, 400, 'not_setable'],
    ['an unavailable device', () => sprinkler, 'onoff', true, 409, 'device_unavailable'],
    ['an unknown device', () => 'no-such-device', 'onoff', true, 404, 'unknown_device'],
    ['an unknown capability', () => lamp, 'volume_set', 0.5, 404, 'unknown_capability'],
    ['an inherited property name', () => lamp, 'toString', true, 404, 'unknown_capability'],
  ])('refuses %s', (_name, device, capabilityId, value, status, error) => {
    const before = home.device(device());
    const result = home.setCapability(device(), capabilityId, value, 'tx-1');
    expect(result).toMatchObject({ ok: false, refusal: { status, error, description: expect.any(String) } });
    expect(home.device(device())).toEqual(before);
  });

  it.each<[string, () => string, string, boolean | number | string]>([
    ['a boolean', () => lamp, 'onoff', true],
    ['a fraction on its step despite floating point', () => lamp, 'dim', 0.3],
    ['the ends of a range', () => thermostat, 'target_temperature', 35],
    ['a half step counted from min', () => thermostat, 'target_temperature', 21.5],
    ['an enum value', () => blinds, 'windowcoverings_state', 'idle'], // a move moves the position too: see the cover's tests below
  ])('stores %s and reports it to listeners', (_name, device, capabilityId, value) => {
    const heard: HomeChange[] = [];
    const stop = home.onChange((change) => heard.push(change));
    const result = home.setCapability(device(), capabilityId, value, 'tx-2');
    stop();
    const event = { capabilityId, value, transactionId: 'tx-2', time: '2030-01-01T00:00:00.000Z' };
    expect(result).toEqual({ ok: true, event });
    expect(heard).toEqual([{ type: 'capability', deviceId: device(), data: event }]);
    expect(home.device(device())!.capabilitiesObj![capabilityId]).toMatchObject({ value, lastUpdated: event.time });
  });

  it('lets the hub itself (no transaction id) set a sensor reading a client may not', () => {
    expect(home.setCapability(sensor, 'alarm_motion', true, null)).toMatchObject({ ok: true, event: { transactionId: null, value: true } });
    expect(home.setCapability(sensor, 'alarm_motion', 'yes', null)).toMatchObject({ ok: false, refusal: { error: 'invalid_value' } });
  });

  it('refuses the value a device reports a fault for, with the device’s reason, and accepts the others', () => {
    const cabin = createDemoHome('cabin');
    const heater = Object.values(cabin.devices()).find((device) => device.name === 'Water heater')!.id;
    const refused = cabin.setCapability(heater, 'onoff', true, 'tx-3');
    expect(refused).toMatchObject({ ok: false, refusal: { status: 409, error: 'device_refused', description: expect.stringContaining('fill it') } });
    expect(cabin.device(heater)!.capabilitiesObj!.onoff!.value).toBe(false);
    expect(cabin.setCapability(heater, 'onoff', false, 'tx-4')).toMatchObject({ ok: true });
  });

  it('reports devices added, changed and removed, and stops reporting when told', () => {
    const heard: HomeChange['type'][] = [];
    const stop = home.onChange((change) => heard.push(change.type));
    const added = home.addDevice({ key: 'test-lamp', name: 'Test lamp', class: 'light', zone: 'office', values: { onoff: false } });
    expect(home.has(added.id)).toBe(true);
    expect(home.setAvailable(added.id, false)).toBe(true);
    expect(home.device(added.id)?.available).toBe(false);
    expect(home.removeDevice(added.id)).toBe(true);
    expect(home.removeDevice(added.id)).toBe(false);
    expect(home.setAvailable('nope', true)).toBe(false);
    stop();
    home.setCapability(lamp, 'onoff', false, 'tx-3');
    expect(heard).toEqual(['device.create', 'device.update', 'device.delete']);
  });
});

describe('a large home', () => {
  it('has the number of devices asked for, of mixed classes in every zone, all valid', () => {
    const devices = Object.values(DeviceMapSchema.parse(createDemoHome('home', { devices: 1000 }).devices()));
    expect(devices).toHaveLength(1000);
    expect(new Set(devices.map((d) => d.class)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(devices.map((d) => d.zone)).size).toBe(8);
    for (const device of devices) {
      for (const capability of Object.values(device.capabilitiesObj ?? {})) expect(valueProblem(capability, capability.value!)).toBeUndefined();
    }
  });
});

describe('a cover’s position follows its moves, as a real cover travels to its end', () => {
  const setup = () => {
    const home = createDemoHome('home');
    const blinds = Object.values(home.devices()).find((device) => device.name === 'Living room blinds')!.id;
    const heard: HomeChange[] = [];
    home.onChange((change) => heard.push(change));
    const position = () => home.device(blinds)?.capabilitiesObj?.windowcoverings_set?.value;
    return { home, blinds, heard, position };
  };

  it('Close (down) leaves it at 0, Open (up) at 1, each told to listeners as the hub’s own change', () => {
    const { home, blinds, heard, position } = setup();
    expect(position()).toBe(0.7);
    expect(home.setCapability(blinds, 'windowcoverings_state', 'down', 'tx-1').ok).toBe(true);
    expect(position()).toBe(0);
    const events = heard.flatMap((change) => (change.type === 'capability' ? [[change.data.capabilityId, change.data.value, change.data.transactionId]] : []));
    expect(events).toEqual([
      ['windowcoverings_state', 'down', 'tx-1'],
      ['windowcoverings_set', 0, null],
    ]);
    home.setCapability(blinds, 'windowcoverings_state', 'up', 'tx-2');
    expect(position()).toBe(1);
  });

  it('Stop (idle) leaves the position where it is', () => {
    const { home, blinds, position } = setup();
    home.setCapability(blinds, 'windowcoverings_state', 'idle', 'tx-1');
    expect(position()).toBe(0.7);
  });

  it('a refused move moves nothing', () => {
    const { home, blinds, position } = setup();
    expect(home.setCapability(blinds, 'windowcoverings_state', 'sideways', 'tx-1').ok).toBe(false);
    expect(position()).toBe(0.7);
  });
});
