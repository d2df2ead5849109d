/**
 * The order of intakes as the forwarder took them (docs/webhooks-app.md, "The inspector"): its message
 * ids are `evt_<time>_<sequence>`, both base36 and zero-padded (services/forwarder/message-ids.ts), and
 * the sequence alone orders them, whichever socket brought a message first. Ids of any other form (an
 * imported file's) are ordered by their arrival time; the same time says nothing (0).
 */
const FORWARDER_ID = /^evt_[0-9a-z]{9}_([0-9a-z]{10})$/;

/** Negative when `a` was taken before `b`, positive after, 0 for the same. */
export function intakeOrder(a: { id: string; receivedAt: string }, b: { id: string; receivedAt: string }): number {
  const sequenceA = FORWARDER_ID.exec(a.id)?.[1];
  const sequenceB = sequenceA === undefined ? undefined : FORWARDER_ID.exec(b.id)?.[1];
  // Zero-padded to one width: as text they compare as their numbers do.
  if (sequenceA !== undefined && sequenceB !== undefined) return compareText(sequenceA, sequenceB);
  return compareText(a.receivedAt, b.receivedAt);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
