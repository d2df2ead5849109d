/** Signed in: who, how the sign-in is kept, and either the hubs (list beside devices) or the webhooks view. */
import { useStore } from 'zustand';
import type { SessionView, UserView } from '../../../common/ipc-contract';
import { ActionError } from './action-error';
import { DevicesPanel } from './devices-panel';
import { HubList } from './hub-list';
import { Notices } from './notices';
import { useStores } from './stores-context';
import { type AppView, ViewPanel, ViewTabs } from './view-tabs';
import { WebhooksView } from './webhooks-view';

const STORAGE_HINT: Partial<Record<SessionView['tokenStorage'], string>> = {
  'memory-only': 'Sign-in kept until Hubdesk quits',
  'plaintext-opt-in': 'Sign-in saved without encryption',
};

export function SignedInScreen({ user, view, onView }: { user: UserView; view: AppView; onView(view: AppView): void }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  const tokenStorage = useStore(session, (s) => s.session?.tokenStorage);
  const fullName = `${user.firstname} ${user.lastname}`.trim();
  const hint = tokenStorage ? STORAGE_HINT[tokenStorage] : undefined;

  return (
    <div className="signed-in">
      <header className="app-header">
        <h1>Hubdesk</h1>
        <div className="account">
          <p className="user">
            {fullName && <span className="user-name">{fullName}</span>}
            {user.email && <span className="user-email">{user.email}</span>}
            {hint && <span className="storage-hint">{hint}</span>}
          </p>
          <button type="button" disabled={pending === 'signOut'} onClick={() => void session.getState().signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <ActionError />
      <Notices />
      <ViewTabs current={view} onChange={onView} />
      <main>
        {view === 'hubs' ? (
          <ViewPanel view="hubs" className="columns">
            <HubList />
            <DevicesPanel />
          </ViewPanel>
        ) : (
          <ViewPanel view="webhooks">
            <WebhooksView />
          </ViewPanel>
        )}
      </main>
    </div>
  );
}
