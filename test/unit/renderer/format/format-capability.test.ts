import { describe, expect, it } from 'vitest';
import type { CapabilityState, Device } from '../../../../common/wire';
import { capabilityLabel, capabilityStates, formatCapability, formatCapabilityValue } from '../../../../renderer/src/format/format-capability';

function cap(overrides: Partial<CapabilityState> & Pick<CapabilityState, 'id' | 'type' | 'value'>): CapabilityState {
  return { title: overrides.id, getable: true, setable: false, lastUpdated: null, ...overrides };
}

describe('formatCapability', () => {
  it.each([
    ['onoff', true, 'On'],
    ['onoff', false, 'Off'],
    ['locked', true, 'Locked'],
    ['locked', false, 'Unlocked'],
    ['alarm_motion', true, 'Alarm'],
    ['alarm_contact', false, 'OK'],
    ['button_pressed', true, 'Yes'],
  ])('boolean %s=%s reads %s', (id, value, expected) => {
    expect(formatCapability(cap({ id, type: 'boolean', value }))).toBe(expected);
  });

  it('formats numbers with their decimals and units', () => {
    expect(formatCapability(cap({ id: 'measure_temperature', type: 'number', value: 21.5, units: '°C', decimals: 1 }))).toBe('21.5 °C');
    expect(formatCapability(cap({ id: 'measure_temperature', type: 'number', value: 21, units: '°C', decimals: 1 }))).toBe('21.0 °C');
    expect(formatCapability(cap({ id: 'measure_humidity', type: 'number', value: 45, units: '%' }))).toBe('45 %');
    expect(formatCapability(cap({ id: 'measure_power', type: 'number', value: 1234.567, units: 'W' }))).toBe('1,234.57 W');
    expect(formatCapability(cap({ id: 'target_temperature', type: 'number', value: 19.96, units: '°C', decimals: 1 }))).toBe('20.0 °C');
  });

  it('does not show minus zero or non-finite numbers', () => {
    expect(formatCapability(cap({ id: 'measure_temperature', type: 'number', value: -0.01, units: '°C', decimals: 1 }))).toBe('0.0 °C');
    expect(formatCapability(cap({ id: 'measure_power', type: 'number', value: Number.NaN, units: 'W' }))).toBe('Unknown');
  });

  it('ignores nonsense decimals', () => {
    expect(formatCapability(cap({ id: 'measure_power', type: 'number', value: 3.14159, decimals: -3 }))).toBe('3.14');
  });

  it('shows a light’s hue as an angle and its colour temperature as how warm it is', () => {
    expect(formatCapability(cap({ id: 'light_hue', type: 'number', value: 0.1, min: 0, max: 1, units: '%' }))).toBe('36°');
    expect(formatCapability(cap({ id: 'light_hue', type: 'number', value: 1, min: 0, max: 1, units: '%' }))).toBe('360°');
    expect(formatCapability(cap({ id: 'light_temperature', type: 'number', value: 0.6, min: 0, max: 1, units: '%' }))).toBe('60 % warm');
  });

  it('shows a dim level 0..1 as a percentage', () => {
    expect(formatCapability(cap({ id: 'dim', type: 'number', value: 0.5, min: 0, max: 1 }))).toBe('50 %');
    expect(formatCapability(cap({ id: 'dim', type: 'number', value: 1 }))).toBe('100 %');
    expect(formatCapability(cap({ id: 'dim', type: 'number', value: 0.333 }))).toBe('33 %');
    expect(formatCapability(cap({ id: 'windowcoverings_set', type: 'number', value: 0.25, min: 0, max: 1, units: '%' }))).toBe('25 %');
    expect(formatCapability(cap({ id: 'measure_humidity', type: 'number', value: 64, min: 0, max: 100, units: '%' }))).toBe('64 %');
  });

  it('shows the title of an enum value, or the value itself when it has no title', () => {
    const values = [
      { id: 'heat', title: 'Heating' },
      { id: 'off', title: 'Off' },
    ];
    expect(formatCapability(cap({ id: 'thermostat_mode', type: 'enum', value: 'heat', values }))).toBe('Heating');
    expect(formatCapability(cap({ id: 'thermostat_mode', type: 'enum', value: 'eco', values }))).toBe('eco');
  });

  it('shows strings as they are and a missing value as Unknown', () => {
    expect(formatCapability(cap({ id: 'speaker_track', type: 'string', value: 'Blue in Green' }))).toBe('Blue in Green');
    expect(formatCapability(cap({ id: 'measure_temperature', type: 'number', value: null, units: '°C' }))).toBe('Unknown');
  });

  it('does not misread a value of the wrong type', () => {
    expect(formatCapability(cap({ id: 'onoff', type: 'boolean', value: 'maybe' }))).toBe('maybe');
    expect(formatCapability(cap({ id: 'measure_power', type: 'number', value: true }))).toBe('true');
  });
});

describe('capabilityStates', () => {
  it('lists capability states in the device order, skipping those without state', () => {
    const device: Device = {
      id: 'd1',
      name: 'Lamp',
      class: 'light',
      capabilities: ['onoff', 'dim', 'light_hue'],
      capabilitiesObj: {
        dim: cap({ id: 'dim', type: 'number', value: 0.25, title: 'Brightness' }),
        onoff: cap({ id: 'onoff', type: 'boolean', value: true, title: 'Turned on' }),
      },
    };
    expect(capabilityStates(device).map((state) => [state.id, formatCapability(state)])).toEqual([
      ['onoff', 'On'],
      ['dim', '25 %'],
    ]);
    // A value not yet confirmed reads like the current one.
    expect(formatCapabilityValue(device.capabilitiesObj!.dim!, 0.7)).toBe('70 %');
  });

  it('copes with a device without capability states and with inherited property names', () => {
    expect(capabilityStates({ id: 'd', name: 'X', class: 'other', capabilities: ['onoff'] })).toEqual([]);
    expect(capabilityStates({ id: 'd', name: 'X', class: 'other', capabilities: ['constructor', 'toString'], capabilitiesObj: {} })).toEqual([]);
  });
});

describe('capabilityLabel', () => {
  it('labels a capability whose title is a state by what it controls, so the row says the state once', () => {
    const onoff = cap({ id: 'onoff', title: 'Turned on', type: 'boolean', value: true, setable: true });
    expect(capabilityLabel(onoff)).toBe('Switch');
    expect(`${capabilityLabel(onoff)} ${formatCapability(onoff)}`).toBe('Switch On');
    expect(capabilityLabel(cap({ id: 'locked', title: 'Locked', type: 'boolean', value: false }))).toBe('Lock');
  });

  it('does not reuse the title of a reading that shares the card (a socket: on/off beside "Power" in W)', () => {
    const socket = [
      cap({ id: 'onoff', title: 'Turned on', type: 'boolean', value: true }),
      cap({ id: 'measure_power', title: 'Power', type: 'number', value: 307.1, units: 'W' }),
    ];
    const labels = socket.map(capabilityLabel);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('keeps the title of every other capability, and falls back to the id without one', () => {
    expect(capabilityLabel(cap({ id: 'dim', title: 'Dim level', type: 'number', value: 0.5 }))).toBe('Dim level');
    expect(capabilityLabel(cap({ id: 'alarm_motion', title: 'Motion alarm', type: 'boolean', value: false }))).toBe('Motion alarm');
    expect(capabilityLabel(cap({ id: 'button_pressed', title: '', type: 'boolean', value: true }))).toBe('button_pressed');
  });

  it('applies only to booleans: a number called onoff keeps its title', () => {
    expect(capabilityLabel(cap({ id: 'onoff', title: 'Turned on', type: 'number', value: 1 }))).toBe('Turned on');
  });
});
