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
  /**
   * Stream of every change to webhooks, slots and open taps: each instance's mirror follows it. An entry
   * names what changed (kind, id) and carries its number in `changeSequence`, never the value: the mirror
   * reads the value from its hash (docs/services.md, "What Redis holds").
   */
  changes: 'fw:changes',
  /** The change stream's entry numbers, one after the other: a mirror that sees a gap fell behind the trimming and loads again. */
  changeSequence: 'fw:change-seq',
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
  /**
   * Hash: slot key → `<count> <id>`, the messages its queue lost to its caps or the budget and the newest
   * of them, for the listener's `dropped` notice (docs/webhooks-app.md, "Dropped by the forwarder").
   */
  dropped: 'fw:dropped',
} as const;

export const SLOT_PREFIX = 'fw:q:';
export const slotKey = (webhookId: string, listenerId: string): string => `${SLOT_PREFIX}${JSON.stringify([webhookId, listenerId])}`;
/** Sets of slot keys, per webhook and per webhook owner: the listener caps count them. */
export const webhookSlotsKey = (webhookId: string): string => `fw:webhook-slots:${webhookId}`;
export const ownerSlotsKey = (ownerId: string): string => `fw:owner-slots:${ownerId}`;
/** Set of `<instance>/<tap>`: the taps of a webhook open on each instance. */
export const tapsKey = (webhookId: string): string => `fw:taps:${webhookId}`;
/**
 * Exists while a delegation token a listener registered with is valid (`SET NX` with the token's remaining
 * lifetime, a minute at most): each token is accepted once by all instances together (redis-replay-guard.ts).
 */
export const usedTokenKey = (jti: string): string => `fw:used-token:${jti}`;
/** Exists while the instance lives (refreshed well within its time to live). */
export const ALIVE_PREFIX = 'fw:alive:';
/** Pub/sub: an instance's wake-ups (slot keys with new messages, `!<slot key>` for a listener replaced elsewhere). */
export const WAKE_PREFIX = 'fw:wake:';
/** Pub/sub: a webhook's tap events, for the instances with a tap of it open. */
export const tapChannel = (webhookId: string): string => `fw:tap:${webhookId}`;
/**
 * The change stream's bound (docs/services.md, "What Redis holds"): 10,000 entries (trimmed with `~`, so
 * up to one stream node more, at most 100 entries), each at most a slot key and a few short fields. A
 * mirror that falls further behind sees the gap in the entries' numbers and loads everything again.
 */
export const CHANGES_MAX_LENGTH = 10_000;
/** The most a slot key takes: two ids of at most 200 characters, each escaped by JSON to at most 6 bytes a character. */
export const MAX_SLOT_KEY_BYTES = SLOT_PREFIX.length + 2 * (2 + 200 * 6) + 3;
/**
 * What Redis holds for the change stream at most, as MEMORY USAGE counts it: measured 27.4 MiB with every
 * subject at MAX_SLOT_KEY_BYTES, 1.1 MiB with subjects of 70 bytes (an app's slot key).
 */
export const CHANGES_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Changes a mirror reads at once, and so the values it reads back at once: at most 64 slot records of
 * MAX_SLOT_RECORD_BYTES (8 MiB) wait in Redis's output buffer for one instance.
 */
export const CHANGES_READ_COUNT = 64;
/**
 * The most a listener slot's record takes in `fw:slots` (the REGISTER script refuses more): its data
 * (at most MAX_REGISTRATION_DATA_BYTES of JSON), the canonical `$key`/`$keys` values again, and its ids.
 */
export const MAX_SLOT_RECORD_BYTES = 128 * 1024;
