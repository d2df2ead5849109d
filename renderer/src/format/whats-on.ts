/**
 * "What's on" (docs/device-controls.md, "What's on"): the devices of the open hub that are on, open,
 * unlocked or playing now, each with the change that ends it ("Turn off", "Close", "Lock", "Pause"),
 * and the classes that can be turned off at once (lights, sockets, fans). Pure; unit-tested in Node.
 */
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { CapabilityState, Device } from '../../../common/wire';
import { valueWords } from './device-presentation';

export interface Change {
  deviceId: string;
  capabilityId: string;
  value: CapabilityValue;
}

export interface ActiveDevice {
  id: string;
  name: string;
  deviceClass: string;
  zoneName: string | undefined;
  /** What it is doing, in its card's words: "On", "Open", "Unlocked", "Playing". */
  state: string;
  /** What ends it, and the change to send; null when it cannot be changed from here (a door sensor). */
  end: { verb: string; change: Change } | null;
}

/** How each kind of "on" is found and ended, in this order: a device is listed once, by the first that applies. */
const RULES: readonly { capabilityId: string; isOn(value: CapabilityState['value']): boolean; verb: string; off: CapabilityValue | null }[] = [
  { capabilityId: 'onoff', isOn: (value) => value === true, verb: 'Turn off', off: false },
  { capabilityId: 'speaker_playing', isOn: (value) => value === true, verb: 'Pause', off: false },
  { capabilityId: 'garagedoor_closed', isOn: (value) => value === false, verb: 'Close', off: true },
  { capabilityId: 'windowcoverings_set', isOn: (value) => typeof value === 'number' && value > 0, verb: 'Close', off: null },
  { capabilityId: 'locked', isOn: (value) => value === false, verb: 'Lock', off: true },
  { capabilityId: 'alarm_contact', isOn: (value) => value === true, verb: '', off: null },
];

/** Classes the view turns off at once, with their plural words. */
export const TURN_OFF_CLASSES = [
  { deviceClass: 'light', plural: 'lights' },
  { deviceClass: 'socket', plural: 'sockets' },
  { deviceClass: 'fan', plural: 'fans' },
] as const;

/** The devices on, open, unlocked or playing now, by name; unavailable devices are left out (nothing is known of them). */
export function activeDevices(devices: readonly Device[]): ActiveDevice[] {
  const active: ActiveDevice[] = [];
  for (const device of devices) {
    if (device.available === false) continue;
    const found = activeState(device);
    if (found) active.push(found);
  }
  return active.sort((a, b) => a.name.localeCompare(b.name));
}

function activeState(device: Device): ActiveDevice | null {
  const states = device.capabilitiesObj ?? {};
  for (const rule of RULES) {
    const state = Object.hasOwn(states, rule.capabilityId) ? states[rule.capabilityId] : undefined;
    if (!state || !rule.isOn(state.value)) continue;
    const base = { id: device.id, name: device.name, deviceClass: device.class, zoneName: device.zoneName };
    if (rule.capabilityId === 'windowcoverings_set') return { ...base, state: coverState(state), end: coverEnd(device) };
    const end =
      state.setable && rule.off !== null ? { verb: rule.verb, change: { deviceId: device.id, capabilityId: rule.capabilityId, value: rule.off } } : null;
    return { ...base, state: valueWords(device.class, state, state.value), end };
  }
  return null;
}

function coverState(position: CapabilityState): string {
  return typeof position.value === 'number' && position.value >= 1 ? 'Open' : `Open ${valueWords('windowcoverings', position, position.value)}`;
}

/** A cover closes by moving down (its position follows, as the hub confirms), else by setting its position to 0. */
function coverEnd(device: Device): ActiveDevice['end'] {
  const moves = device.capabilitiesObj?.windowcoverings_state;
  if (moves?.setable && moves.values?.some((option) => option.id === 'down'))
    return { verb: 'Close', change: { deviceId: device.id, capabilityId: 'windowcoverings_state', value: 'down' } };
  if (device.capabilitiesObj?.windowcoverings_set?.setable)
    return { verb: 'Close', change: { deviceId: device.id, capabilityId: 'windowcoverings_set', value: 0 } };
  return null;
}

/** The changes that turn off every device of a class that is on now and may be switched. */
export function turnOffClass(active: readonly ActiveDevice[], deviceClass: string): Change[] {
  return active.flatMap((device) => (device.deviceClass === deviceClass && device.end?.change.capabilityId === 'onoff' ? [device.end.change] : []));
}
