/**
 * The capabilities the demo devices use, with the metadata a real hub reports for them (type, title,
 * units, range, whether the app may set them). A device lists only id → value; the rest comes from here.
 */
import type { CapabilityState } from '../../common/wire';

type Meta = Omit<CapabilityState, 'id' | 'value' | 'lastUpdated'>;

const onOff = (title: string, setable: boolean): Meta => ({ type: 'boolean', title, getable: true, setable });
const fraction = (title: string): Meta => ({ type: 'number', title, min: 0, max: 1, step: 0.01, decimals: 2, units: '%', getable: true, setable: true });
const measure = (title: string, units: string, decimals: number): Meta => ({ type: 'number', title, units, decimals, getable: true, setable: false });
const choice = (title: string, values: [string, string][]): Meta => ({
  type: 'enum',
  title,
  values: values.map(([id, valueTitle]) => ({ id, title: valueTitle })),
  getable: true,
  setable: true,
});

export const CAPABILITIES = {
  onoff: onOff('Turned on', true),
  dim: fraction('Dim level'),
  light_hue: fraction('Hue'),
  light_saturation: fraction('Saturation'),
  light_temperature: fraction('Colour temperature'),
  light_mode: choice('Light mode', [
    ['color', 'Colour'],
    ['temperature', 'Temperature'],
  ]),
  fan_speed: fraction('Fan speed'),
  target_temperature: { type: 'number', title: 'Target temperature', units: '°C', min: 5, max: 35, step: 0.5, decimals: 1, getable: true, setable: true },
  thermostat_mode: choice('Thermostat mode', [
    ['auto', 'Automatic'],
    ['heat', 'Heat'],
    ['cool', 'Cool'],
    ['off', 'Off'],
  ]),
  measure_temperature: measure('Temperature', '°C', 1),
  measure_humidity: measure('Humidity', '%', 0),
  measure_luminance: measure('Luminance', 'lx', 0),
  measure_co2: measure('CO₂', 'ppm', 0),
  measure_power: measure('Power', 'W', 1),
  meter_power: measure('Energy', 'kWh', 2),
  measure_battery: { ...measure('Battery', '%', 0), min: 0, max: 100 },
  alarm_motion: onOff('Motion alarm', false),
  alarm_contact: onOff('Contact alarm', false),
  alarm_smoke: onOff('Smoke alarm', false),
  alarm_water: onOff('Water alarm', false),
  alarm_generic: onOff('Ringing', false),
  locked: onOff('Locked', true),
  garagedoor_closed: onOff('Garage door closed', true),
  windowcoverings_state: choice('Window coverings state', [
    ['up', 'Up'],
    ['idle', 'Idle'],
    ['down', 'Down'],
  ]),
  windowcoverings_set: fraction('Position'),
  speaker_playing: onOff('Playing', true),
  volume_set: fraction('Volume'),
  volume_mute: onOff('Muted', true),
} satisfies Record<string, Meta>;

export type CapabilityId = keyof typeof CAPABILITIES;
export type CapabilityValues = Partial<Record<CapabilityId, boolean | number | string>>;

export function capabilityState(id: CapabilityId, value: boolean | number | string, lastUpdated: string): CapabilityState {
  return { id, ...CAPABILITIES[id], value, lastUpdated } as CapabilityState;
}
