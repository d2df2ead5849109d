/**
 * The errors shown on device cards, and the rule that keeps them honest: a card never shows an error
 * that contradicts its value. A failed change remembers what was asked for; once the hub reports that
 * value (a late confirmation, its echo, another client doing the same), the error is gone
 * (docs/device-controls.md, "A change confirmed late").
 */
import type { CapabilityValue } from '../../../common/ipc-contract';
import type { Device } from '../../../common/wire';

/** A refused change or favourite, shown on the card until dismissed; `id` tells two errors apart. */
export interface CardError {
  id: number;
  message: string;
  /** For a failed change: the capability and the value that was asked for. */
  change?: { capabilityId: string; value: CapabilityValue };
}

/** The errors without those of changes the devices now show done; the same object when none goes. */
export function errorsAgreeingWith(
  errors: Readonly<Record<string, CardError>>,
  devices: Readonly<Record<string, Device>>,
): Readonly<Record<string, CardError>> {
  let kept: Record<string, CardError> | null = null;
  for (const [deviceId, error] of Object.entries(errors)) {
    if (error.change === undefined) continue;
    const shown = Object.hasOwn(devices, deviceId) ? devices[deviceId]!.capabilitiesObj?.[error.change.capabilityId]?.value : undefined;
    if (shown !== error.change.value) continue;
    kept ??= { ...errors };
    delete kept[deviceId];
  }
  return kept ?? errors;
}
