/**
 * The inspector's list in the renderer (docs/security.md, "The app's webhook inspector"): entries newest
 * first, the shown and the held (while paused) lists cut to a count and a byte budget together, main's
 * events applied in batches, in intake order. No state here: webhooks-store.ts keeps the lists.
 */
import type { WebhookEntry, WebhookEntryPatch } from '../../../common/ipc-contract';
import { intakeOrder } from '../../../common/intake-order';

export const RENDERER_INSPECTOR_CAPACITY = 10_000;
export const RENDERER_INSPECTOR_BUDGET_BYTES = 16 * 1024 * 1024;
/** Main sends previews of at most 1 KiB; anything longer (a misbehaving host) is cut to this. */
export const RENDERER_PREVIEW_MAX_CHARS = 2048;
/** Main's kept messages are read this many at a time. */
export const SNAPSHOT_PAGE_ENTRIES = 200;
/** Accounted per entry besides its JSON length: the objects, the row's key and indexes. */
const ENTRY_OVERHEAD_BYTES = 200;

export const entryKey = (entry: Pick<WebhookEntry, 'webhookId' | 'id'>) => `${entry.webhookId}/${entry.id}`;
/** The webhook id and message id of a key (a webhook id never holds a `/`). */
export const keyParts = (key: string): Pick<WebhookEntry, 'webhookId' | 'id'> => {
  const slash = key.indexOf('/');
  return { webhookId: key.slice(0, slash), id: key.slice(slash + 1) };
};

const sizes = new WeakMap<WebhookEntry, number>();
/** What one summary is accounted in the renderer's budget: its JSON length plus a fixed overhead (computed once per entry). */
export function entryBytes(entry: WebhookEntry): number {
  let bytes = sizes.get(entry);
  if (bytes === undefined) {
    bytes = ENTRY_OVERHEAD_BYTES + JSON.stringify(entry).length;
    sizes.set(entry, bytes);
  }
  return bytes;
}

/**
 * Cuts held and shown entries (newest first, held ones being the newer) to the count bound of each
 * list and the byte budget of both together.
 */
export function withinBounds(held: WebhookEntry[], entries: WebhookEntry[], capacity: number, budget: number) {
  let bytes = 0;
  const fit = (list: WebhookEntry[]) => {
    let count = 0;
    for (const entry of list) {
      const size = entryBytes(entry);
      if (count >= capacity || bytes + size > budget) break;
      bytes += size;
      count++;
    }
    return count === list.length ? list : list.slice(0, count);
  };
  const keptHeld = fit(held);
  const keptEntries = fit(entries);
  return { held: keptHeld, entries: keptEntries, bytes };
}

/**
 * `fresh` (in arrival order) placed among `list` (newest first) by the forwarder's sequence
 * (`intakeOrder`): an intake whose message came after a later one's (a delivery and a tap event on two
 * sockets) goes below it. New messages almost always go in front (one comparison); any other is
 * placed by a binary search of the list, which is kept in this order.
 */
export function inIntakeOrder(fresh: readonly WebhookEntry[], list: readonly WebhookEntry[]): WebhookEntry[] {
  let out = list as WebhookEntry[];
  /** What goes in front of `out`, newest last: gathered, so a burst is one copy of the list. */
  let front: WebhookEntry[] = [];
  const settle = () => {
    out = [...front.reverse(), ...out];
    front = [];
  };
  for (const entry of fresh) {
    const newest = front.at(-1) ?? out[0];
    if (newest === undefined || intakeOrder(newest, entry) <= 0) {
      front.push(entry);
      continue;
    }
    settle();
    let low = 1;
    let high = out.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (intakeOrder(out[middle]!, entry) > 0) low = middle + 1;
      else high = middle;
    }
    out.splice(low, 0, entry);
  }
  settle();
  return out;
}

/** Keeps a summary's preview within RENDERER_PREVIEW_MAX_CHARS, whatever the host sent. */
export function clampPreview(entry: WebhookEntry): WebhookEntry {
  if (entry.preview.length <= RENDERER_PREVIEW_MAX_CHARS) return entry;
  return { ...entry, preview: entry.preview.slice(0, RENDERER_PREVIEW_MAX_CHARS), truncated: true };
}

/** An event of main's for the list: a new entry, or a patch of one by key. */
export type Queued = { kind: 'entry'; entry: WebhookEntry } | { kind: 'patch'; patch: WebhookEntryPatch };

/**
 * A batch of events applied to the shown and held lists (newest first): a patch changes the entry it
 * names wherever it is held (none: dropped), a new entry goes to the held list while paused, else to
 * the shown one, in intake order. Answers the new lists (not yet cut to their bounds), and whether the
 * selected entry's delivery arrived (its full message can now be fetched).
 */
export function applyBatch(
  batch: readonly Queued[],
  state: { entries: readonly WebhookEntry[]; held: readonly WebhookEntry[]; paused: boolean; selectedKey: string | null },
): { held: WebhookEntry[]; entries: WebhookEntry[]; refetch: boolean } {
  const entries = [...state.entries];
  const held = [...state.held];
  const fresh: WebhookEntry[] = [];
  // Where each message of the batch is held now, by key: the list and the index in it. One pass over
  // both lists, by id first, so a frame makes no key for the thousands of entries it does not touch.
  const ids = new Set(batch.map((item) => (item.kind === 'patch' ? item.patch.id : item.entry.id)));
  const where = new Map<string, [WebhookEntry[], number]>();
  for (const list of [entries, held]) {
    list.forEach((entry, index) => {
      if (!ids.has(entry.id)) return;
      const key = entryKey(entry);
      if (!where.has(key)) where.set(key, [list, index]);
    });
  }
  let refetch = false;
  for (const item of batch) {
    if (item.kind === 'patch') {
      const { webhookId: _webhookId, id: _id, ...changes } = item.patch;
      const key = entryKey(item.patch);
      const at = where.get(key);
      if (!at) continue; // no longer held (bounds, clear) or never loaded: nothing to patch
      at[0][at[1]] = clampPreview({ ...at[0][at[1]]!, ...changes });
      // The selected entry's delivery arrived: its full message can now be fetched.
      refetch ||= key === state.selectedKey && changes.awaitingDelivery === false;
      continue;
    }
    const key = entryKey(item.entry);
    const at = where.get(key);
    if (at) at[0][at[1]] = item.entry;
    else where.set(key, [fresh, fresh.push(item.entry) - 1]);
  }
  return state.paused ? { held: inIntakeOrder(fresh, held), entries, refetch } : { held, entries: inIntakeOrder(fresh, entries), refetch };
}
