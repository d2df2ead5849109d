/**
 * The session as the renderer sees it, and the `session.changed` event. The view is recomputed from
 * its sources (auth status, token storage, notices) and emitted only when it really changed.
 */
import type { AuthView, SessionView } from '../../common/ipc-contract';
import type { NoticeBoard } from './notices';
import type { BackendConfig, Logger } from './ports';
import type { TokenStorage } from './token-vault';

export type SessionListener = (view: SessionView) => void;

export interface SessionState {
  view(): SessionView;
  auth(): AuthView;
  setAuth(auth: AuthView): void;
  /** Re-evaluates the view after a change outside the auth status (storage policy, notices, route settings). */
  refresh(): void;
  subscribe(listener: SessionListener): () => void;
  dispose(): void;
}

export interface SessionStateDeps {
  backend: BackendConfig;
  notices: NoticeBoard;
  tokenStorage: () => TokenStorage;
  allowUnencryptedRoutes: () => boolean;
  logger: Logger;
  initialAuth: AuthView;
}

export function createSessionState({ backend, notices, tokenStorage, allowUnencryptedRoutes, logger, initialAuth }: SessionStateDeps): SessionState {
  let auth = initialAuth;
  const listeners = new Set<SessionListener>();

  const view = (): SessionView => ({
    auth,
    notices: notices.current(),
    backend: { authUrl: backend.authUrl, embedded: backend.embedded },
    tokenStorage: tokenStorage(),
    allowUnencryptedRoutes: allowUnencryptedRoutes(),
  });
  let lastEmitted = JSON.stringify(view());

  const refresh = () => {
    const next = view();
    const serialized = JSON.stringify(next);
    if (serialized === lastEmitted) return;
    lastEmitted = serialized;
    for (const listener of listeners) {
      try {
        listener(next);
      } catch (error) {
        // A failing subscriber (e.g. a closed window) must not break the core or the other subscribers.
        logger.error('session: a session.changed listener failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  };

  return {
    view,
    auth: () => auth,
    setAuth(next) {
      auth = next;
      refresh();
    },
    refresh,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => listeners.clear(),
  };
}
