import type { SessionView } from '../../../common/ipc-contract';
import { AuthCard } from './auth-card';
import { SettingsView } from './settings-view';
import { useStores } from './stores-context';
import { useStore } from 'zustand';
import { type AppView, ViewPanel, ViewTabs } from './view-tabs';
import { WebhooksView } from './webhooks-view';

interface SignedOutProps {
  reason: string | undefined;
  backend: SessionView['backend'];
  view: AppView;
  onView(view: AppView): void;
}

/** Signed out: the sign-in card under "Hubs" and "Energy" (both need the cloud account); "Webhooks" works as well. */
export function SignedOutScreen({ reason, backend, view, onView }: SignedOutProps) {
  return (
    <div className="signed-out">
      <ViewTabs current={view} onChange={onView} />
      {view === 'hubs' || view === 'energy' ? (
        <ViewPanel view={view}>
          <SignInCard reason={reason} backend={backend} />
        </ViewPanel>
      ) : view === 'settings' ? (
        <ViewPanel view="settings">
          <main>
            <SettingsView />
          </main>
        </ViewPanel>
      ) : (
        <ViewPanel view="webhooks">
          <main>
            <WebhooksView />
          </main>
        </ViewPanel>
      )}
    </div>
  );
}

function SignInCard({ reason, backend }: Pick<SignedOutProps, 'reason' | 'backend'>) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  return (
    <AuthCard>
      <p>See the devices on your hubs at home and in the cloud. Sign in with your cloud account to start.</p>
      {reason && (
        <p className="reason" role="alert">
          {reason}
        </p>
      )}
      <p className="muted">Cloud: {backend.embedded ? 'built-in demo cloud' : backend.authUrl}</p>
      <button type="button" className="primary" disabled={pending === 'signIn'} onClick={() => void session.getState().signIn()}>
        Sign in
      </button>
    </AuthCard>
  );
}
