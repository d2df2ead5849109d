/**
 * The hubs store follows the session store rather than the bridge event directly: the session store
 * is the one place that knows the current auth state, including the first `session.get` answer. (The
 * open-hub store follows the hubs store itself.)
 */
import type { HubsStore } from './hubs-store';
import type { SessionState, SessionStore } from './session-store';

const isSignedIn = (state: SessionState) => state.session?.auth.status === 'signed-in';

/** Keeps `hubs` active exactly while `session` is signed in; returns the function that disconnects. */
export function connectStores(session: Pick<SessionStore, 'getState' | 'subscribe'>, hubs: HubsStore): () => void {
  hubs.getState().setActive(isSignedIn(session.getState()));
  return session.subscribe((state) => hubs.getState().setActive(isSignedIn(state)));
}
