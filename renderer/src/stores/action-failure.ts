/**
 * The sentence a card shows when a change of its device failed (docs/device-controls.md, "Connection state and deadlines"): what the user tried,
 * on which device, and why — "Couldn't turn on Water heater — The tank is empty: fill it first." The
 * core prefixes a hub's reason with the device's name ("Water heater: …"); the name is said once.
 */
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';
import { formatCapabilityValue } from '../format/format-capability';

export function capabilityFailure(device: Device | undefined, capabilityId: string, value: CapabilityValue, reason: string): string {
  const name = device?.name ?? 'the device';
  const capability = device?.capabilitiesObj?.[capabilityId];
  const title = capability?.title || capabilityId;
  let action: string;
  if (typeof value === 'boolean' && capabilityId === 'onoff') action = `${value ? 'turn on' : 'turn off'} ${name}`;
  else if (typeof value === 'boolean') action = `${value ? 'turn on' : 'turn off'} ${title} of ${name}`;
  else action = `set ${title} of ${name} to ${capability ? formatCapabilityValue(capability, value) : String(value)}`;
  return `Couldn't ${action} — ${withoutSubject(reason, name)}`;
}

export function favouriteFailure(device: Device | undefined, favourite: boolean, reason: string): string {
  const name = device?.name ?? 'the device';
  return `Couldn't ${favourite ? `add ${name} to` : `remove ${name} from`} favourites — ${withoutSubject(reason, name)}`;
}

function withoutSubject(reason: string, name: string): string {
  const prefix = `${name}: `;
  return reason.startsWith(prefix) && reason.length > prefix.length ? reason.slice(prefix.length) : reason;
}
