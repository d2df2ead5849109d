/** The open home's power now (docs/insights-app.md, "Energy"): what its devices report drawing. */
import type { Device } from '../../../common/wire';

/** The home's power now: the sum of every available device's `measure_power` (W); null when none reports one. */
export function homePower(devices: Readonly<Record<string, Device>>): { watts: number; devices: number } | null {
  let watts = 0;
  let count = 0;
  for (const device of Object.values(devices)) {
    const value = device.capabilitiesObj?.measure_power?.value;
    if (device.available === false || typeof value !== 'number' || !Number.isFinite(value)) continue;
    watts += value;
    count++;
  }
  return count === 0 ? null : { watts, devices: count };
}
