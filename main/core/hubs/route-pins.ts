/**
 * The routes the user pinned, per hub, kept in the settings store so a pin survives restarts. A
 * stored value that is not a valid pin map (edited by hand, older version) is read as "no pins".
 */
import { z } from 'zod';
import { type RouteKind, RouteKindSchema } from '../../../common/ipc-contract';
import type { KeyValueStore } from '../shared';

export const ROUTE_PINS_KEY = 'hubs:route-pins';

const PinsSchema = z.record(z.string(), RouteKindSchema);

export interface RoutePins {
  get(hubId: string): RouteKind | null;
  /** Null removes the pin (automatic choice). */
  set(hubId: string, kind: RouteKind | null): void;
}

export function createRoutePins(store: KeyValueStore): RoutePins {
  const read = (): Record<string, RouteKind> => {
    const parsed = PinsSchema.safeParse(store.get(ROUTE_PINS_KEY));
    return parsed.success ? parsed.data : {};
  };
  return {
    get(hubId) {
      const pins = read();
      return Object.hasOwn(pins, hubId) ? pins[hubId]! : null;
    },
    set(hubId, kind) {
      const pins = read();
      if (kind === null) delete pins[hubId];
      else pins[hubId] = kind;
      store.set(ROUTE_PINS_KEY, pins);
    },
  };
}
