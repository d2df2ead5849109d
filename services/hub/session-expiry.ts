/**
 * When a realtime socket's session ends (docs/hub-realtime.md, "Realtime protocol": close code 4001): at
 * its expiresAt, or, for a session ended early (expireSessions), at the check that finds it gone.
 * Shared by the hub's realtime channel and the official client's (official-realtime.ts).
 */
import type { HubSession, HubSessionStore } from './hub-sessions';

/** setTimeout's largest delay; a later expiry is re-checked when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `onEnded` once `session` (behind `token`) has ended; returns the function that stops watching. */
export function watchSessionExpiry(sessions: HubSessionStore, token: string, session: HubSession, now: () => number, onEnded: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = (current: HubSession) => {
    timer = setTimeout(
      () => {
        const still = sessions.find(token);
        if (still) arm(still);
        else onEnded();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, current.expiresAt - now())),
    );
    timer.unref();
  };
  arm(session);
  return () => clearTimeout(timer);
}
