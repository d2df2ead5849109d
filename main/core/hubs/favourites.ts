/**
 * The devices the user pinned at the top, per hub, kept in the settings store so they survive
 * restarts (they belong to this app, not to the hub). A stored value that is not a valid favourites
 * map (edited by hand, older version) is read as "no favourites" and logged once.
 */
import { z } from 'zod';
import type { KeyValueStore, Logger } from '../shared';

export const FAVOURITES_KEY = 'hubs:favourites';
/** Bounds what one hub's entry may cost; a home with more favourites than this has no "top" anyway. */
export const MAX_FAVOURITES_PER_HUB = 1_000;

const FavouritesSchema = z.record(z.string(), z.array(z.string().min(1).max(200)).max(MAX_FAVOURITES_PER_HUB));

export interface Favourites {
  /** The hub's favourite device ids, in the order they were pinned. */
  get(hubId: string): string[];
  set(hubId: string, deviceId: string, favourite: boolean): void;
}

export function createFavourites(store: KeyValueStore, logger: Logger): Favourites {
  let reportedBadData = false;
  const read = (): Record<string, string[]> => {
    const stored = store.get(FAVOURITES_KEY);
    if (stored === undefined) return {};
    const parsed = FavouritesSchema.safeParse(stored);
    if (parsed.success) return parsed.data;
    if (!reportedBadData) logger.warn('favourites: the stored favourites are not valid; starting with none', { issue: parsed.error.issues[0]?.message });
    reportedBadData = true;
    return {};
  };
  return {
    get(hubId) {
      const all = read();
      return Object.hasOwn(all, hubId) ? all[hubId]! : [];
    },
    set(hubId, deviceId, favourite) {
      const all = read();
      const current = (Object.hasOwn(all, hubId) ? all[hubId]! : []).filter((id) => id !== deviceId);
      if (favourite) current.push(deviceId);
      if (current.length > MAX_FAVOURITES_PER_HUB) current.shift();
      if (current.length === 0) delete all[hubId];
      else all[hubId] = current;
      store.set(FAVOURITES_KEY, all);
    },
  };
}
