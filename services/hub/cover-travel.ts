/**
 * What a real cover does when it is told to move: it travels to its end. A window covering sent `up`
 * ends fully open (`windowcoverings_set` 1), sent `down` fully closed (0); `idle` stops it where it is.
 * The demo home applies these follow-up changes as the hub's own (docs/device-controls.md, "Words per
 * class"), so Close leaves the position at 0 %, not where it was.
 */
import type { CapabilityValue } from '../../common/hub-control';

/** Where `windowcoverings_set` ends after `windowcoverings_state` is set to each move. */
const END_POSITION: Readonly<Record<string, number>> = { up: 1, down: 0 };

/** The changes that follow from setting `capabilityId` to `value` on a device with `capabilityIds`. */
export function followingChanges(capabilityId: string, value: CapabilityValue, capabilityIds: readonly string[]): [string, CapabilityValue][] {
  if (capabilityId !== 'windowcoverings_state' || typeof value !== 'string' || !capabilityIds.includes('windowcoverings_set')) return [];
  const position = Object.hasOwn(END_POSITION, value) ? END_POSITION[value] : undefined;
  return position === undefined ? [] : [['windowcoverings_set', position]];
}
