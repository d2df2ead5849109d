/**
 * The session as the renderer sees it, and the `session.changed` event. The view is recomputed from
 * its sources (auth status, token storage, notices) and emitted only when it really changed.
 */
import type { AuthView, SessionView } from '../../../common/ipc-contract';
import { createEventEmitter } from '../shared';
import type { NoticeBoard } from './notices';
import type { BackendConfig, Logger } from '../shared';
import type { SecretStorage } from '../shared';

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
  tokenStorage: () => SecretStorage;
  allowUnencryptedRoutes: () => boolean;
  logger: Logger;
  initialAuth: AuthView;
}

export function createSessionState({ backend, notices, tokenStorage, allowUnencryptedRoutes, logger, initialAuth }: SessionStateDeps): SessionState {
  let auth = initialAuth;
  const events = createEventEmitter<'session.changed'>(logger);

  const view = (): SessionView => ({
    auth,
    notices: notices.current(),
    backend: { authUrl: backend.authUrl, embedded: backend.embedded, portalUrl: backend.portalUrl ?? null, demoWebhook: backend.demoWebhook !== undefined },
    tokenStorage: tokenStorage(),
    allowUnencryptedRoutes: allowUnencryptedRoutes(),
  });
  let lastEmitted = JSON.stringify(view());

  const refresh = () => {
    const next = view();
    const serialized = JSON.stringify(next);
    if (serialized === lastEmitted) return;
    lastEmitted = serialized;
    // A failing subscriber (e.g. a closed window) is logged and breaks neither the core nor the others.
    events.emit('session.changed', next);
  };

  return {
    view,
    auth: () => auth,
    setAuth(next) {
      auth = next;
      refresh();
    },
    refresh,
    subscribe: (listener) => events.on('session.changed', listener),
    dispose: () => events.clear(),
  };
}
