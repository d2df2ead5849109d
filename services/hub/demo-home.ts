/**
 * The devices of a demo hub and their state, in one place. Ids are derived from fixed names, so they
 * are the same on every start (the app may remember them). Later features (control, realtime) change
 * state through this object only.
 */
import { createHash } from 'node:crypto';
import type { Device, DeviceMap } from '../../common/wire';
import { type CapabilityId, type CapabilityValues, capabilityState } from './capabilities';

export type DemoHomeKind = 'home' | 'cabin';

export interface DemoHome {
  readonly kind: DemoHomeKind;
  /** A copy of every device, keyed by id (spec §2.5). */
  devices(): DeviceMap;
  device(id: string): Device | undefined;
}

interface DeviceSeed {
  key: string;
  name: string;
  class: string;
  zone: string;
  values: CapabilityValues;
  available?: boolean;
}

const ZONES: Record<DemoHomeKind, Record<string, string>> = {
  home: {
    living: 'Living room',
    kitchen: 'Kitchen',
    hallway: 'Hallway',
    bedroom: 'Bedroom',
    bathroom: 'Bathroom',
    office: 'Office',
    garden: 'Garden',
    garage: 'Garage',
  },
  cabin: { main: 'Main room', loft: 'Sleeping loft', outside: 'Outside' },
};

const SEEDS: Record<DemoHomeKind, DeviceSeed[]> = {
  home: [
    { key: 'living-ceiling', name: 'Ceiling light', class: 'light', zone: 'living', values: { onoff: true, dim: 0.8, light_hue: 0.1, light_saturation: 0.4, light_temperature: 0.6, light_mode: 'temperature' } },
    { key: 'living-floor-lamp', name: 'Floor lamp', class: 'light', zone: 'living', values: { onoff: false, dim: 0.5 } },
    { key: 'living-tv-socket', name: 'TV socket', class: 'socket', zone: 'living', values: { onoff: true, measure_power: 87.5, meter_power: 142.31 } },
    { key: 'living-thermostat', name: 'Living room thermostat', class: 'thermostat', zone: 'living', values: { target_temperature: 21, measure_temperature: 20.6, thermostat_mode: 'heat' } },
    { key: 'living-speaker', name: 'Living room speaker', class: 'speaker', zone: 'living', values: { speaker_playing: false, volume_set: 0.3, volume_mute: false } },
    { key: 'living-blinds', name: 'Living room blinds', class: 'windowcoverings', zone: 'living', values: { windowcoverings_state: 'idle', windowcoverings_set: 0.7 } },
    { key: 'kitchen-spots', name: 'Kitchen spots', class: 'light', zone: 'kitchen', values: { onoff: true, dim: 1 } },
    { key: 'kitchen-coffee', name: 'Coffee machine', class: 'socket', zone: 'kitchen', values: { onoff: false, measure_power: 0, meter_power: 36.9 } },
    { key: 'kitchen-motion', name: 'Kitchen motion sensor', class: 'sensor', zone: 'kitchen', values: { alarm_motion: false, measure_luminance: 240, measure_battery: 88 } },
    { key: 'kitchen-smoke', name: 'Smoke alarm', class: 'sensor', zone: 'kitchen', values: { alarm_smoke: false, measure_battery: 95 } },
    { key: 'kitchen-leak', name: 'Water leak sensor', class: 'sensor', zone: 'kitchen', values: { alarm_water: false, measure_battery: 71 } },
    { key: 'hallway-lock', name: 'Front door lock', class: 'lock', zone: 'hallway', values: { locked: true, measure_battery: 64 } },
    { key: 'hallway-doorbell', name: 'Doorbell', class: 'doorbell', zone: 'hallway', values: { alarm_generic: false, measure_battery: 52 } },
    { key: 'hallway-light', name: 'Hallway light', class: 'light', zone: 'hallway', values: { onoff: false, dim: 0.4 } },
    { key: 'hallway-door-sensor', name: 'Front door sensor', class: 'sensor', zone: 'hallway', values: { alarm_contact: false, measure_battery: 90 } },
    { key: 'bedroom-bedside', name: 'Bedside lamp', class: 'light', zone: 'bedroom', values: { onoff: false, dim: 0.2, light_temperature: 0.9 } },
    { key: 'bedroom-thermostat', name: 'Bedroom thermostat', class: 'thermostat', zone: 'bedroom', values: { target_temperature: 18, measure_temperature: 18.4, thermostat_mode: 'auto' } },
    { key: 'bedroom-fan', name: 'Ceiling fan', class: 'fan', zone: 'bedroom', values: { onoff: false, fan_speed: 0.5 } },
    { key: 'bedroom-curtains', name: 'Bedroom curtains', class: 'curtain', zone: 'bedroom', values: { windowcoverings_state: 'idle', windowcoverings_set: 0 } },
    { key: 'bathroom-climate', name: 'Bathroom climate sensor', class: 'sensor', zone: 'bathroom', values: { measure_temperature: 22.1, measure_humidity: 64, measure_battery: 80 } },
    { key: 'bathroom-towel-rail', name: 'Towel rail', class: 'heater', zone: 'bathroom', values: { onoff: true, measure_power: 300, meter_power: 212.4 } },
    { key: 'office-desk-lamp', name: 'Desk lamp', class: 'light', zone: 'office', values: { onoff: true, dim: 0.9 } },
    { key: 'office-air', name: 'Office air quality', class: 'sensor', zone: 'office', values: { measure_co2: 612, measure_temperature: 21.3, measure_humidity: 45 } },
    { key: 'office-printer', name: 'Printer socket', class: 'socket', zone: 'office', values: { onoff: false, measure_power: 0.4, meter_power: 11.02 } },
    { key: 'garden-lights', name: 'Garden lights', class: 'light', zone: 'garden', values: { onoff: false } },
    { key: 'garden-sprinkler', name: 'Sprinkler', class: 'sprinkler', zone: 'garden', values: { onoff: false }, available: false },
    { key: 'garage-door', name: 'Garage door', class: 'garagedoor', zone: 'garage', values: { garagedoor_closed: true } },
    { key: 'garage-charger', name: 'EV charger', class: 'evcharger', zone: 'garage', values: { onoff: true, measure_power: 7200, meter_power: 1532.4 } },
  ],
  cabin: [
    { key: 'main-lights', name: 'Cabin lights', class: 'light', zone: 'main', values: { onoff: false, dim: 0.6 } },
    { key: 'main-heater', name: 'Panel heater', class: 'thermostat', zone: 'main', values: { target_temperature: 12, measure_temperature: 11.5, thermostat_mode: 'heat' } },
    { key: 'main-water-heater', name: 'Water heater', class: 'socket', zone: 'main', values: { onoff: false, measure_power: 0, meter_power: 402.7 } },
    { key: 'main-smoke', name: 'Smoke alarm', class: 'sensor', zone: 'main', values: { alarm_smoke: false, measure_battery: 77 } },
    { key: 'main-door-lock', name: 'Cabin door lock', class: 'lock', zone: 'main', values: { locked: true, measure_battery: 41 } },
    { key: 'loft-lamp', name: 'Loft lamp', class: 'light', zone: 'loft', values: { onoff: false, dim: 0.3 } },
    { key: 'outside-porch', name: 'Porch light', class: 'light', zone: 'outside', values: { onoff: false } },
    { key: 'outside-weather', name: 'Outdoor sensor', class: 'sensor', zone: 'outside', values: { measure_temperature: -3.5, measure_humidity: 83, measure_battery: 66 } },
  ],
};

/** A stable uuid-shaped id for a name: the same on every start and on every machine. */
export function stableId(name: string): string {
  const hex = createHash('sha256').update(`hubdesk-demo/${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function createDemoHome(kind: DemoHomeKind, createdAt: Date = new Date()): DemoHome {
  const lastUpdated = createdAt.toISOString();
  const state = new Map<string, Device>();
  for (const seed of SEEDS[kind]) {
    const id = stableId(`${kind}/device/${seed.key}`);
    const capabilities = Object.keys(seed.values) as CapabilityId[];
    state.set(id, {
      id,
      name: seed.name,
      class: seed.class,
      capabilities,
      zone: stableId(`${kind}/zone/${seed.zone}`),
      zoneName: ZONES[kind][seed.zone] ?? seed.zone,
      available: seed.available ?? true,
      capabilitiesObj: Object.fromEntries(capabilities.map((cap) => [cap, capabilityState(cap, seed.values[cap]!, lastUpdated)])),
    });
  }
  return {
    kind,
    devices: () => structuredClone(Object.fromEntries(state)),
    device: (id) => {
      const device = state.get(id);
      return device && structuredClone(device);
    },
  };
}
