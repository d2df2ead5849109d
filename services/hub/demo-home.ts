/**
 * The devices of a demo hub and their state, in one place: the only owner of state changes. A change
 * (from a client, a flow, the simulation) goes through `setCapability`, which checks it against the
 * capability's metadata, stores it and tells every `onChange` listener (the realtime channel).
 * Ids are derived from fixed names, so they are the same on every start (the app may remember them).
 */
import { createHash } from 'node:crypto';
import type { CapabilityEventData, CapabilityValue } from '../../common/hub-control';
import type { Device, DeviceMap } from '../../common/wire';
import { type CapabilityId, capabilityState } from './capabilities';
import { valueProblem } from './capability-rules';
import { followingChanges } from './cover-travel';
import type { DeviceSeed } from './device-seed';
import { generatedSeeds } from './generated-devices';

export type DemoHomeKind = 'home' | 'cabin';

/** Why a change was refused, as the HTTP answer says it. */
export interface Refusal {
  status: 400 | 404 | 409;
  error: 'invalid_value' | 'not_setable' | 'unknown_device' | 'unknown_capability' | 'device_unavailable' | 'device_refused';
  description: string;
}
export type SetCapabilityResult = { ok: true; event: CapabilityEventData } | { ok: false; refusal: Refusal };

/** What listeners hear: a capability's new value, or a device added, changed (not its values) or removed. */
export type HomeChange =
  | { type: 'capability'; deviceId: string; data: CapabilityEventData }
  | { type: 'device.create' | 'device.update'; device: Device }
  | { type: 'device.delete'; deviceId: string };
export type HomeListener = (change: HomeChange) => void;

export interface DemoHome {
  readonly kind: DemoHomeKind;
  /** A copy of every device, keyed by id (docs/interface.md §2.5). */
  devices(): DeviceMap;
  device(id: string): Device | undefined;
  has(id: string): boolean;
  /** The zones devices are in, keyed by id (a flat list: no zone has a parent). */
  zones(): ZoneMap;
  /**
   * Checks and stores a value. `transactionId` null means the hub itself (simulation, flows): it may
   * also set values clients may not (sensor readings); a client's change must be to a setable capability.
   */
  setCapability(deviceId: string, capabilityId: string, value: CapabilityValue, transactionId: string | null): SetCapabilityResult;
  /** Marks a device reachable or not (`device.update`); false for an unknown device. */
  setAvailable(deviceId: string, available: boolean): boolean;
  /** Adds a device (`device.create`) and returns it. */
  addDevice(seed: DeviceSeed): Device;
  /** Removes a device (`device.delete`); false for an unknown device. */
  removeDevice(deviceId: string): boolean;
  /** Calls `listener` after every change, in order; returns the function that stops it. */
  onChange(listener: HomeListener): () => void;
}

/** A room or area of the home, in the shape the official client's zone manager reads. */
export interface Zone {
  id: string;
  name: string;
  parent: null;
}
export type ZoneMap = Record<string, Zone>;

export interface DemoHomeOptions {
  now?: () => number;
  /** Fill the home with generated devices up to this many in all (the bench's large home). */
  devices?: number;
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
    {
      key: 'living-ceiling',
      name: 'Ceiling light',
      class: 'light',
      zone: 'living',
      values: { onoff: true, dim: 0.8, light_hue: 0.1, light_saturation: 0.4, light_temperature: 0.6, light_mode: 'temperature' },
    },
    { key: 'living-floor-lamp', name: 'Floor lamp', class: 'light', zone: 'living', values: { onoff: false, dim: 0.5 } },
    { key: 'living-tv-socket', name: 'TV socket', class: 'socket', zone: 'living', values: { onoff: true, measure_power: 87.5, meter_power: 142.31 } },
    {
      key: 'living-thermostat',
      name: 'Living room thermostat',
      class: 'thermostat',
      zone: 'living',
      values: { target_temperature: 21, measure_temperature: 20.6, thermostat_mode: 'heat' },
    },
    {
      key: 'living-speaker',
      name: 'Living room speaker',
      class: 'speaker',
      zone: 'living',
      values: { speaker_playing: false, volume_set: 0.3, volume_mute: false },
    },
    {
      key: 'living-blinds',
      name: 'Living room blinds',
      class: 'windowcoverings',
      zone: 'living',
      values: { windowcoverings_state: 'idle', windowcoverings_set: 0.7 },
    },
    { key: 'kitchen-spots', name: 'Kitchen spots', class: 'light', zone: 'kitchen', values: { onoff: true, dim: 1 } },
    { key: 'kitchen-coffee', name: 'Coffee machine', class: 'socket', zone: 'kitchen', values: { onoff: false, measure_power: 0, meter_power: 36.9 } },
    {
      key: 'kitchen-motion',
      name: 'Kitchen motion sensor',
      class: 'sensor',
      zone: 'kitchen',
      values: { alarm_motion: false, measure_luminance: 240, measure_battery: 88 },
    },
    { key: 'kitchen-smoke', name: 'Smoke alarm', class: 'sensor', zone: 'kitchen', values: { alarm_smoke: false, measure_battery: 95 } },
    { key: 'kitchen-leak', name: 'Water leak sensor', class: 'sensor', zone: 'kitchen', values: { alarm_water: false, measure_battery: 71 } },
    { key: 'hallway-lock', name: 'Front door lock', class: 'lock', zone: 'hallway', values: { locked: true, measure_battery: 64 } },
    { key: 'hallway-doorbell', name: 'Doorbell', class: 'doorbell', zone: 'hallway', values: { alarm_generic: false, measure_battery: 52 } },
    { key: 'hallway-light', name: 'Hallway light', class: 'light', zone: 'hallway', values: { onoff: false, dim: 0.4 } },
    { key: 'hallway-door-sensor', name: 'Front door sensor', class: 'sensor', zone: 'hallway', values: { alarm_contact: false, measure_battery: 90 } },
    { key: 'bedroom-bedside', name: 'Bedside lamp', class: 'light', zone: 'bedroom', values: { onoff: false, dim: 0.2, light_temperature: 0.9 } },
    {
      key: 'bedroom-thermostat',
      name: 'Bedroom thermostat',
      class: 'thermostat',
      zone: 'bedroom',
      values: { target_temperature: 18, measure_temperature: 18.4, thermostat_mode: 'auto' },
    },
    { key: 'bedroom-fan', name: 'Ceiling fan', class: 'fan', zone: 'bedroom', values: { onoff: false, fan_speed: 0.5 } },
    { key: 'bedroom-curtains', name: 'Bedroom curtains', class: 'curtain', zone: 'bedroom', values: { windowcoverings_state: 'idle', windowcoverings_set: 0 } },
    {
      key: 'bathroom-climate',
      name: 'Bathroom climate sensor',
      class: 'sensor',
      zone: 'bathroom',
      values: { measure_temperature: 22.1, measure_humidity: 64, measure_battery: 80 },
    },
    { key: 'bathroom-towel-rail', name: 'Towel rail', class: 'heater', zone: 'bathroom', values: { onoff: true, measure_power: 300, meter_power: 212.4 } },
    { key: 'office-desk-lamp', name: 'Desk lamp', class: 'light', zone: 'office', values: { onoff: true, dim: 0.9 } },
    {
      key: 'office-air',
      name: 'Office air quality',
      class: 'sensor',
      zone: 'office',
      values: { measure_co2: 612, measure_temperature: 21.3, measure_humidity: 45 },
    },
    { key: 'office-printer', name: 'Printer socket', class: 'socket', zone: 'office', values: { onoff: false, measure_power: 0.4, meter_power: 11.02 } },
    { key: 'garden-lights', name: 'Garden lights', class: 'light', zone: 'garden', values: { onoff: false } },
    { key: 'garden-sprinkler', name: 'Sprinkler', class: 'sprinkler', zone: 'garden', values: { onoff: false }, available: false },
    { key: 'garage-door', name: 'Garage door', class: 'garagedoor', zone: 'garage', values: { garagedoor_closed: true } },
    { key: 'garage-charger', name: 'EV charger', class: 'evcharger', zone: 'garage', values: { onoff: true, measure_power: 7200, meter_power: 1532.4 } },
  ],
  cabin: [
    { key: 'main-lights', name: 'Cabin lights', class: 'light', zone: 'main', values: { onoff: false, dim: 0.6 } },
    {
      key: 'main-heater',
      name: 'Panel heater',
      class: 'thermostat',
      zone: 'main',
      values: { target_temperature: 12, measure_temperature: 11.5, thermostat_mode: 'heat' },
    },
    {
      key: 'main-water-heater',
      name: 'Water heater',
      class: 'socket',
      zone: 'main',
      values: { onoff: false, measure_power: 0, meter_power: 402.7 },
      fault: { capabilityId: 'onoff', value: true, reason: 'The tank is empty: fill it before switching the water heater on.' },
    },
    { key: 'main-smoke', name: 'Smoke alarm', class: 'sensor', zone: 'main', values: { alarm_smoke: false, measure_battery: 77 } },
    { key: 'main-door-lock', name: 'Cabin door lock', class: 'lock', zone: 'main', values: { locked: true, measure_battery: 41 } },
    { key: 'loft-lamp', name: 'Loft lamp', class: 'light', zone: 'loft', values: { onoff: false, dim: 0.3 } },
    { key: 'outside-porch', name: 'Porch light', class: 'light', zone: 'outside', values: { onoff: false } },
    {
      key: 'outside-weather',
      name: 'Outdoor sensor',
      class: 'sensor',
      zone: 'outside',
      values: { measure_temperature: -3.5, measure_humidity: 83, measure_battery: 66 },
    },
  ],
};

/** A stable uuid-shaped id for a name: the same on every start and on every machine. */
export function stableId(name: string): string {
  const hex = createHash('sha256').update(`hubdesk-demo/${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const zoneId = (kind: DemoHomeKind, key: string): string => stableId(`${kind}/zone/${key}`);
const zoneOf = (kind: DemoHomeKind, key: string, name: string): Zone => ({ id: zoneId(kind, key), name, parent: null });

const refuse = (status: Refusal['status'], error: Refusal['error'], description: string): SetCapabilityResult => ({
  ok: false,
  refusal: { status, error, description },
});

export function createDemoHome(kind: DemoHomeKind, options: DemoHomeOptions = {}): DemoHome {
  const now = options.now ?? Date.now;
  const state = new Map<string, Device>();
  const faults = new Map<string, NonNullable<DeviceSeed['fault']>>();
  const listeners = new Set<HomeListener>();
  const emit = (change: HomeChange) => {
    for (const listener of listeners) listener(change);
  };
  const deviceFrom = (seed: DeviceSeed): Device => {
    const lastUpdated = new Date(now()).toISOString();
    const capabilities = Object.keys(seed.values) as CapabilityId[];
    return {
      id: stableId(`${kind}/device/${seed.key}`),
      name: seed.name,
      class: seed.class,
      capabilities,
      zone: zoneId(kind, seed.zone),
      zoneName: ZONES[kind][seed.zone] ?? seed.zone,
      available: seed.available ?? true,
      capabilitiesObj: Object.fromEntries(capabilities.map((cap) => [cap, capabilityState(cap, seed.values[cap]!, lastUpdated)])),
    };
  };
  const seeds = SEEDS[kind];
  for (const seed of [...seeds, ...generatedSeeds((options.devices ?? 0) - seeds.length, Object.keys(ZONES[kind]))]) {
    const device = deviceFrom(seed);
    state.set(device.id, device);
    if (seed.fault) faults.set(device.id, seed.fault);
  }

  const home: DemoHome = {
    kind,
    devices: () => structuredClone(Object.fromEntries(state)),
    device: (id) => {
      const device = state.get(id);
      return device && structuredClone(device);
    },
    has: (id) => state.has(id),
    zones: () =>
      Object.fromEntries(
        Object.entries(ZONES[kind])
          .map(([key, name]) => zoneOf(kind, key, name))
          .map((zone) => [zone.id, zone]),
      ),
    setCapability(deviceId, capabilityId, value, transactionId) {
      const device = state.get(deviceId);
      if (!device) return refuse(404, 'unknown_device', `There is no device ${deviceId} on this hub.`);
      const capability = Object.hasOwn(device.capabilitiesObj ?? {}, capabilityId) ? device.capabilitiesObj![capabilityId] : undefined;
      if (!capability) return refuse(404, 'unknown_capability', `${device.name} has no capability ${capabilityId}.`);
      if (transactionId !== null && !capability.setable) return refuse(400, 'not_setable', `${capability.title} of ${device.name} is read-only.`);
      if (device.available === false) return refuse(409, 'device_unavailable', `${device.name} is unavailable.`);
      const problem = valueProblem(capability, value);
      if (problem !== undefined) return refuse(400, 'invalid_value', problem);
      const fault = faults.get(deviceId);
      if (transactionId !== null && fault?.capabilityId === capabilityId && fault.value === value) return refuse(409, 'device_refused', fault.reason);
      const time = new Date(now()).toISOString();
      capability.value = value;
      capability.lastUpdated = time;
      const data: CapabilityEventData = { capabilityId, value, transactionId, time };
      emit({ type: 'capability', deviceId, data: { ...data } });
      // The device then does what was asked (a cover travels to its end): the hub's own changes, after this one.
      for (const [followId, followValue] of followingChanges(capabilityId, value, device.capabilities))
        home.setCapability(deviceId, followId, followValue, null);
      return { ok: true, event: data };
    },
    setAvailable(deviceId, available) {
      const device = state.get(deviceId);
      if (!device) return false;
      device.available = available;
      emit({ type: 'device.update', device: structuredClone(device) });
      return true;
    },
    addDevice(seed) {
      const device = deviceFrom(seed);
      state.set(device.id, device);
      emit({ type: 'device.create', device: structuredClone(device) });
      return structuredClone(device);
    },
    removeDevice(deviceId) {
      if (!state.delete(deviceId)) return false;
      emit({ type: 'device.delete', deviceId });
      return true;
    },
    onChange(listener) {
      // A wrapper per call, so the same function added twice is also removed once per call.
      const entry: HomeListener = (change) => listener(change);
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
  };
  return home;
}
