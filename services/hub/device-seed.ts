/**
 * What a demo home's device is made from (its name, class, zone and first values), for the home's own
 * devices (demo-home.ts) and the generated ones (generated-devices.ts): apart from both, so that
 * neither module imports the other for it.
 */
import type { CapabilityValue } from '../../common/hub-control';
import type { CapabilityId, CapabilityValues } from './capabilities';

export interface DeviceSeed {
  key: string;
  name: string;
  class: string;
  zone: string;
  values: CapabilityValues;
  available?: boolean;
  /**
   * A fault the device reports when asked for one value (the demo's refused change): a client setting
   * `capabilityId` to `value` is refused with 409 and `reason`, as a real device driver refuses it.
   */
  fault?: { capabilityId: CapabilityId; value: CapabilityValue; reason: string };
}
