/**
 * The order of intakes as the forwarder took them (docs/webhooks-app.md, "The inspector"): its message
 * ids are `evt_<time>_<sequence>`, both base36 and zero-padded (services/forwarder/message-ids.ts), and
 * the sequence alone orders them, whichever socket brought a message first. Ids of any other form (an
 * imported file's) are ordered by their arrival time; the same time says nothing (0).
 */
const FORWARDER_ID = /^evt_[0-9a-z]{9}_([0-9a-z]{10})$/;

/** The sequence of a forwarder's message id, as zero-padded text (compares as its number); undefined for any other id. */
export function forwarderSequence(id: string): string | undefined {
  return FORWARDER_ID.exec(id)?.[1];
}

/** Negative when `a` was taken before `b`, positive after, 0 for the same. */
export function intakeOrder(a: { id: string; receivedAt: string }, b: { id: string; receivedAt: string }): number {
  const sequenceA = forwarderSequence(a.id);
  const sequenceB = sequenceA === undefined ? undefined : forwarderSequence(b.id);
  // Zero-padded to one width: as text they compare as their numbers do.
  if (sequenceA !== undefined && sequenceB !== undefined) return compareText(sequenceA, sequenceB);
  return compareText(a.receivedAt, b.receivedAt);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
