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

/**
 * Signed out: the sign-in card under "Hubs" and "Energy" (both need the cloud account); "Webhooks" and "Settings"
 * work as well. Whatever the tab, the page has a header (its first-level heading and the tabs) and one
 * main landmark holding the tab's panel, so nothing sits outside a landmark.
 */
export function SignedOutScreen({ reason, backend, view, onView }: SignedOutProps) {
  return (
    <div className="signed-out">
      <header className="signed-out-header">
        <h1 className="visually-hidden">Hubdesk</h1>
        <ViewTabs current={view} onChange={onView} />
      </header>
      <main className="signed-out-main">
        {view === 'hubs' || view === 'energy' ? (
          <ViewPanel view={view}>
            <SignInCard reason={reason} backend={backend} />
          </ViewPanel>
        ) : view === 'settings' ? (
          <ViewPanel view="settings">
            <SettingsView />
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

function SignInCard({ reason, backend }: Pick<SignedOutProps, 'reason' | 'backend'>) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  return (
    <AuthCard embedded>
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
