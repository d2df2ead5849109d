/**
 * Where the forwarder keeps its state in Redis (docs/services.md, "What Redis holds"). One standalone
 * Redis (or a primary with replicas): the scripts touch keys they find at run time (the largest queue
 * when the byte budget is over), so Redis Cluster is not supported.
 *
 * A listener slot (a webhook and a listenerId) is named by its queue key, `fw:q:["<webhookId>","<listenerId>"]`:
 * the stream of its unacknowledged messages, and the field or member that stands for the slot everywhere else.
 */
export const KEYS = {
  /** Hash: webhook id → JSON StoredWebhook (its record and tap credentials). */
  webhooks: 'fw:webhooks',
  /** Hash: slot key → JSON SlotRecord (the registration routing reads). */
  slots: 'fw:slots',
  /** Stream of every change to webhooks, slots and open taps: each instance's mirror follows it. */
  changes: 'fw:changes',
  /** The message sequence shared by all instances (message-ids.ts). */
  sequence: 'fw:seq',
  /** Sorted set: slot key → bytes of its queued frames (the largest pays first when the budget is over). */
  queueBytes: 'fw:queue-bytes',
  /** Bytes of all queued frames (the budget's total). */
  pendingBytes: 'fw:pending-bytes',
  /** Hash: slot key → the instance its listener is connected to. */
  owners: 'fw:owners',
  /** Sorted set: slot key → since when (ms) its listener is away; forgotten after `forgetAfterMs`. */
  away: 'fw:away',
  /** Set of the webhook ids with a tap open somewhere. */
  tapped: 'fw:tapped',
} as const;

export const SLOT_PREFIX = 'fw:q:';
export const slotKey = (webhookId: string, listenerId: string): string => `${SLOT_PREFIX}${JSON.stringify([webhookId, listenerId])}`;
/** Sets of slot keys, per webhook and per webhook owner: the listener caps count them. */
export const webhookSlotsKey = (webhookId: string): string => `fw:webhook-slots:${webhookId}`;
export const ownerSlotsKey = (ownerId: string): string => `fw:owner-slots:${ownerId}`;
/** Set of `<instance>/<tap>`: the taps of a webhook open on each instance. */
export const tapsKey = (webhookId: string): string => `fw:taps:${webhookId}`;
/** Exists while the instance lives (refreshed well within its time to live). */
export const ALIVE_PREFIX = 'fw:alive:';
/** Pub/sub: an instance's wake-ups (slot keys with new messages, `!<slot key>` for a listener replaced elsewhere). */
export const WAKE_PREFIX = 'fw:wake:';
/** Pub/sub: a webhook's tap events, for the instances with a tap of it open. */
export const tapChannel = (webhookId: string): string => `fw:tap:${webhookId}`;
/** Each instance reloads in full when it reconnects, so the change stream only needs to cover a few seconds of lag. */
export const CHANGES_MAX_LENGTH = 100_000;
