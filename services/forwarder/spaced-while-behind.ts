/**
 * Legacy requests while the forwarder is behind on accepting connections (accept-backlog.ts,
 * docs/legacy-functions.md "Limits"): then each legacy webhook is let in once per `spacing` turns that
 * accepted a connection, and refused (429, before its body is read) in between; a spacing of 0 spaces nothing.
 *
 * A legacy body costs the event loop more than anything else the intake does (reading, decoding, framing
 * 256 KiB), and libuv accepts one connection per turn: a flood's bodies, however fairly queued for the
 * sandbox, make every turn long while the connections behind it — another webhook's among them — wait in
 * the kernel. Spaced so, one webhook's bodies take at most one turn in `spacing`; another webhook, whose
 * requests were not let in lately, is let in at once.
 */
import type { AcceptBacklog } from '../shared/accept-backlog';

export const DEFAULT_LEGACY_SPACING_WHILE_BEHIND = 16;

/** Whether a legacy request for `webhookId` may come in now (and counts it if so). */
export type LegacyAdmission = (webhookId: string) => boolean;

export function spacedWhileBehind(backlog: AcceptBacklog, spacing = DEFAULT_LEGACY_SPACING_WHILE_BEHIND): LegacyAdmission {
  if (!Number.isInteger(spacing) || spacing < 0) throw new RangeError(`the legacy spacing while behind must be a whole number of turns, got ${spacing}`);
  /** The accepting turn at which each webhook was last let in while behind; forgotten once the backlog is gone. */
  const lastIn = new Map<string, number>();
  return (webhookId) => {
    if (!backlog.behind) {
      if (lastIn.size > 0) lastIn.clear();
      return true;
    }
    const now = backlog.acceptingTurns;
    const last = lastIn.get(webhookId);
    if (last !== undefined && now - last < spacing) return false;
    lastIn.set(webhookId, now);
    return true;
  };
}
