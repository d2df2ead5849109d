/**
 * The session as main reports it: loaded once with `session.get`, then kept current by
 * `session.changed`. Actions only ask main to act; their effect arrives as the next session view, so
 * the store never guesses a state main has not confirmed. The last failed action is kept for display.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Envelope } from '../../../common/app-error';
import type { Bridge, SessionView } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';

export type SessionAction = 'signIn' | 'reopenBrowser' | 'cancel' | 'signOut' | 'dismissNotice' | 'allowPlaintextStorage';

export interface SessionState {
  /** null until the first view arrives. */
  session: SessionView | null;
  /** Why the first view could not be loaded (shown with a way to try again). */
  loadError: UiError | null;
  actionError: UiError | null;
  /** The action waiting for main's answer, so its button is not pressed twice. */
  pending: SessionAction | null;
  load(): Promise<void>;
  signIn(): Promise<void>;
  /** Opens the waiting sign-in's page in the browser again. */
  reopenBrowser(): Promise<void>;
  cancel(): Promise<void>;
  signOut(): Promise<void>;
  dismissNotice(id: string): Promise<void>;
  allowPlaintextStorage(): Promise<void>;
}

export type SessionStore = StoreApi<SessionState> & { dispose(): void };

export function createSessionStore(bridge: Bridge): SessionStore {
  const store = createStore<SessionState>()((set, get) => {
    const run = async (action: SessionAction, call: () => Promise<Envelope<void>>) => {
      set({ pending: action, actionError: null });
      const result = await settle(call);
      set({ actionError: result.ok ? null : result.error });
      if (get().pending === action) set({ pending: null });
    };

    return {
      session: null,
      loadError: null,
      actionError: null,
      pending: null,
      async load() {
        set({ loadError: null });
        const result = await settle(() => bridge.session.get());
        // Both transports are ordered, so the answer that arrives last is the newest view.
        set(result.ok ? { session: result.value } : { loadError: result.error });
      },
      signIn: () => run('signIn', () => bridge.auth.signIn()),
      reopenBrowser: () => run('reopenBrowser', () => bridge.auth.reopenBrowser()),
      cancel: () => run('cancel', () => bridge.auth.cancel()),
      signOut: () => run('signOut', () => bridge.auth.signOut()),
      dismissNotice: (id) => run('dismissNotice', () => bridge.notices.dismiss(id)),
      allowPlaintextStorage: () => run('allowPlaintextStorage', () => bridge.vault.allowPlaintextStorage(true)),
    };
  });

  // The bridge checked the view against the contract.
  const unsubscribe = bridge.on('session.changed', (view) => store.setState({ session: view, loadError: null }));
  void store.getState().load();

  return { ...store, dispose: unsubscribe };
}
