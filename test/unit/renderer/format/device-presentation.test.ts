import { describe, expect, it } from 'vitest';
import type { CapabilityState, Device } from '../../../../common/wire';
import { capabilityWords, controlName, presentCapabilities, stateLine, valueWords } from '../../../../renderer/src/format/device-presentation';
import { formatCapability } from '../../../../renderer/src/format/format-capability';
import { createDemoHome } from '../../../../services/hub/demo-home';

// Local times, so the state line's "12:30" holds in any time zone.
const NOW = new Date(2030, 0, 1, 12, 30).getTime();
const demo = Object.values({ ...createDemoHome('home', { now: () => NOW }).devices(), ...createDemoHome('cabin', { now: () => NOW }).devices() });
const named = (name: string) => demo.find((device) => device.name === name)!;
const withValues = (device: Device, values: Record<string, CapabilityState['value']>): Device => ({
  ...device,
  capabilitiesObj: Object.fromEntries(
    Object.entries(device.capabilitiesObj ?? {}).map(([id, state]) => [id, Object.hasOwn(values, id) ? { ...state, value: values[id]! } : state]),
  ),
});
const line = (device: Device) => stateLine(device, { now: NOW, locale: 'en-GB' });
const rows = (device: Device) => presentCapabilities(device).map((row) => [row.state.id, row.words.label, row.control, row.primary]);

describe('the presentation table, for every class of the demo homes', () => {
  it.each<[string, string, string, string | null]>([
    // device, its primary capability, its primary control, its state line
    ['Ceiling light', 'onoff', 'switch', 'On · 80 %'],
    ['Floor lamp', 'onoff', 'switch', 'Off'],
    ['TV socket', 'onoff', 'switch', 'On · 87.5 W'],
    ['Living room thermostat', 'target_temperature', 'generic', '20.6 °C · set to 21.0 °C'],
    ['Living room speaker', 'speaker_playing', 'play-pause', 'Paused · volume 30 %'],
    ['Living room blinds', 'windowcoverings_state', 'cover-moves', 'Open 70 %'],
    ['Bedroom curtains', 'windowcoverings_state', 'cover-moves', 'Closed'],
    ['Kitchen motion sensor', 'alarm_motion', 'generic', 'Clear · last motion 12:30'],
    ['Smoke alarm', 'alarm_smoke', 'generic', 'No smoke'],
    ['Water leak sensor', 'alarm_water', 'generic', 'Dry'],
    ['Front door lock', 'locked', 'switch', 'Locked'],
    ['Doorbell', 'alarm_generic', 'generic', 'Quiet'],
    ['Front door sensor', 'alarm_contact', 'generic', 'Closed'],
    ['Ceiling fan', 'onoff', 'switch', 'Off'],
    ['Bathroom climate sensor', 'measure_temperature', 'generic', '22.1 °C · 64 %'],
    ['Towel rail', 'onoff', 'switch', 'On · 300.0 W'],
    ['Office air quality', 'measure_temperature', 'generic', '21.3 °C · 45 %'],
    ['Sprinkler', 'onoff', 'switch', 'Off'],
    ['Garage door', 'garagedoor_closed', 'door', 'Closed'],
    ['EV charger', 'onoff', 'switch', 'On · 7,200.0 W'],
  ])('%s: %s first, as a %s control; the state line reads %j', (name, primary, control, expected) => {
    const device = named(name);
    const [first] = presentCapabilities(device);
    expect(first).toMatchObject({ primary: true, control, state: { id: primary } });
    expect(line(device)).toBe(expected);
  });

  it('covers every class of the demo homes', () => {
    const classes = new Set(demo.map((device) => device.class));
    // Each has a primary control and a state line (the generic card has neither).
    for (const deviceClass of classes) {
      const device = demo.find((d) => d.class === deviceClass)!;
      expect(
        presentCapabilities(device).some((row) => row.primary),
        deviceClass,
      ).toBe(true);
      expect(line(device), deviceClass).not.toBeNull();
    }
  });

  it('a garage door is a door: "Closed" and Open / Close, never "Garage door closed: Yes"', () => {
    const door = named('Garage door');
    const [row] = presentCapabilities(door);
    expect(row!.words.label).toBe('Door');
    expect(valueWords(door.class, row!.state, true)).toBe('Closed');
    expect(line(withValues(door, { garagedoor_closed: false }))).toBe('Open');
  });

  it('a motion sensor says Motion / Clear with the time of the motion; alarms say what they are', () => {
    const motion = named('Kitchen motion sensor');
    expect(line(withValues(motion, { alarm_motion: true }))).toBe('Motion · since 12:30');
    expect(presentCapabilities(motion).map((row) => valueWords(motion.class, row.state, row.state.value))[0]).toBe('Clear');
    expect(line(withValues(named('Smoke alarm'), { alarm_smoke: true }))).toBe('Smoke detected');
    expect(line(withValues(named('Water leak sensor'), { alarm_water: true }))).toBe('Water leak');
    expect(line(withValues(named('Doorbell'), { alarm_generic: true }))).toBe('Ringing');
  });

  it('a motion long ago gives its day', () => {
    const motion = named('Kitchen motion sensor');
    const old: Device = {
      ...motion,
      capabilitiesObj: {
        ...motion.capabilitiesObj,
        alarm_motion: { ...motion.capabilitiesObj!.alarm_motion!, lastUpdated: new Date(2029, 11, 24, 8, 5).toISOString() },
      },
    };
    expect(line(old)).toMatch(/^Clear · last motion 24 Dec(,| at)? 0?8:05$/);
  });

  it('a cover says where it is and where it goes', () => {
    const blinds = named('Living room blinds');
    expect(line(withValues(blinds, { windowcoverings_state: 'down' }))).toBe('Closing · Open 70 %');
    expect(line(withValues(blinds, { windowcoverings_state: 'down', windowcoverings_set: 0 }))).toBe('Closed');
    expect(line(withValues(blinds, { windowcoverings_state: 'up', windowcoverings_set: 1 }))).toBe('Open');
  });

  it('a speaker has play/pause and volume; a muted one says so', () => {
    const speaker = named('Living room speaker');
    expect(rows(speaker).slice(0, 2)).toEqual([
      ['speaker_playing', 'Playback', 'play-pause', true],
      ['volume_set', 'Volume', 'generic', false],
    ]);
    expect(line(withValues(speaker, { speaker_playing: true, volume_mute: true }))).toBe('Playing · Muted');
  });

  it('a colour light has one colour control (no saturation row) and a colour-temperature slider', () => {
    expect(rows(named('Ceiling light'))).toEqual([
      ['onoff', 'On/off', 'switch', true],
      ['dim', 'Brightness', 'generic', false],
      ['light_hue', 'Colour', 'colour', false],
      ['light_temperature', 'Colour temperature', 'generic', false],
      ['light_mode', 'Light mode', 'generic', false],
    ]);
  });

  it('a sprinkler waters', () => {
    expect(capabilityWords('sprinkler', named('Sprinkler').capabilitiesObj!.onoff!)).toMatchObject({ label: 'Watering', states: ['Watering', 'Off'] });
    expect(line(withValues(named('Sprinkler'), { onoff: true }))).toBe('Watering');
  });
});

describe('switches are named by their device and what they control', () => {
  it.each([
    ['Bedside lamp', 'onoff', 'Bedside lamp, on/off'],
    ['Front door lock', 'locked', 'Front door lock, lock'],
    ['Living room speaker', 'volume_mute', 'Living room speaker, mute'],
    ['Sprinkler', 'onoff', 'Sprinkler, watering'],
  ])('%s %s: %s', (name, capabilityId, expected) => {
    const device = named(name);
    expect(controlName(device.name, capabilityWords(device.class, device.capabilitiesObj![capabilityId]!))).toBe(expected);
  });
});

describe('unknown classes and capabilities keep the generic rendering', () => {
  const cap = (overrides: Partial<CapabilityState> & Pick<CapabilityState, 'id' | 'type' | 'value'>): CapabilityState => ({
    title: overrides.id,
    getable: true,
    setable: false,
    lastUpdated: null,
    ...overrides,
  });
  const robot: Device = {
    id: 'r1',
    name: 'Robot',
    class: 'vacuumcleaner',
    capabilities: ['measure_battery', 'vacuum_mode', 'onoff'],
    capabilitiesObj: {
      measure_battery: cap({ id: 'measure_battery', type: 'number', value: 40, units: '%', title: 'Battery' }),
      vacuum_mode: cap({ id: 'vacuum_mode', type: 'enum', value: 'eco', setable: true, title: 'Cleaning mode', values: [{ id: 'eco', title: 'Eco' }] }),
      onoff: cap({ id: 'onoff', type: 'boolean', value: true, setable: true, title: 'Turned on' }),
    },
  };

  it('an unknown class: the hub’s order, no primary, no state line; known capabilities keep their words', () => {
    expect(rows(robot)).toEqual([
      ['measure_battery', 'Battery', 'generic', false],
      ['vacuum_mode', 'Cleaning mode', 'generic', false],
      ['onoff', 'On/off', 'switch', false],
    ]);
    expect(line(robot)).toBeNull();
  });

  it('an unknown capability: the hub’s title and the value as format-capability says', () => {
    const state = cap({ id: 'button_pressed', type: 'boolean', value: true, title: 'Button pressed' });
    expect(capabilityWords('light', state)).toEqual({ label: 'Button pressed' });
    expect(valueWords('light', state, true)).toBe(formatCapability(state));
    // An unknown alarm still reads Alarm / OK.
    expect(valueWords('sensor', cap({ id: 'alarm_pm25', type: 'boolean', value: true, title: 'Fine dust' }), true)).toBe('Alarm');
  });

  it('a known capability of an unexpected type stays generic (a number called onoff is no switch)', () => {
    const odd = cap({ id: 'onoff', type: 'number', value: 1, setable: true, title: 'Turned on' });
    expect(capabilityWords('light', odd)).toEqual({ label: 'Turned on' });
    expect(presentCapabilities({ ...robot, class: 'light', capabilities: ['onoff'], capabilitiesObj: { onoff: odd } })[0]?.control).toBe('generic');
  });
});

describe('numbers in the user’s locale', () => {
  it('German: decimal comma and dot for thousands', () => {
    expect(stateLine(named('Living room thermostat'), { now: NOW, locale: 'de-DE' })).toBe('20,6 °C · set to 21,0 °C');
    expect(stateLine(named('EV charger'), { now: NOW, locale: 'de-DE' })).toBe('On · 7.200,0 W');
  });

  it('French: a narrow space for thousands; minus zero never shown', () => {
    expect(stateLine(named('EV charger'), { now: NOW, locale: 'fr-FR' })).toBe('On · 7\u202f200,0 W');
    const cold = withValues(named('Outdoor sensor'), { measure_temperature: -0.01 });
    expect(stateLine(cold, { now: NOW, locale: 'fr-FR' })).toBe('0,0 °C · 83 %');
  });
});
