/**
 * What the cards of the open hub need to know while it is not live (docs/hub-realtime.md, "While the
 * open hub is not live"): why changes cannot be sent (null where they can), the element that says so
 * for `aria-describedby`, and when the shown values were last confirmed. Null while live: cards as usual.
 * Given once by the devices panel, so the cards need not know the hub's name or its live state.
 */
import { createContext } from 'react';

/** Why changes cannot be sent, and the id of the banner's element that says it. */
export interface Blocked {
  /** "Home is not responding, so changes can’t be sent now". */
  reason: string;
  id: string;
}

export interface NotLive {
  /** Null where changes go through (`no-realtime`). */
  blocked: Blocked | null;
  /** When the shown values were last known to be the hub's (epoch ms), or null when unknown. */
  confirmedAt: number | null;
}

export const NotLiveContext = createContext<NotLive | null>(null);
