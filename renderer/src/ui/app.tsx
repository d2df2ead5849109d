/** Chooses the screen for the current session state; the open view (hubs, webhooks, settings) is a remembered preference. */
import { useDeferredValue } from 'react';
import { useStore } from 'zustand';
import { RestoringScreen, StartupFailedScreen } from './restoring-screen';
import { SignedInScreen } from './signed-in-screen';
import { SignedOutScreen } from './signed-out-screen';
import { SigningInScreen } from './signing-in-screen';
import { useStores } from './stores-context';

export function App() {
  const { session: sessionStore, preferences } = useStores();
  // A new screen (signing in, signed in…) is drawn as a render React may interrupt, not in the task of
  // the message that changed the session: the signed-in shell's first render was a long task.
  const session = useDeferredValue(useStore(sessionStore, (s) => s.session));
  const loadError = useStore(sessionStore, (s) => s.loadError);
  const view = useStore(preferences, (s) => s.lastView);
  const setView = useStore(preferences, (s) => s.setLastView);

  if (!session) return loadError ? <StartupFailedScreen error={loadError} /> : <RestoringScreen message="Starting Hubdesk…" />;
  const { auth } = session;
  switch (auth.status) {
    case 'restoring':
      return <RestoringScreen message="Checking your sign-in…" />;
    case 'signing-in':
      return <SigningInScreen authorizationOrigin={auth.authorizationOrigin} />;
    case 'signed-in':
      return <SignedInScreen user={auth.user} view={view} onView={setView} />;
    case 'signed-out':
      // Webhooks need no sign-in (the forwarder checks their secret), so the view stays reachable.
      return <SignedOutScreen reason={auth.reason} backend={session.backend} view={view} onView={setView} />;
  }
}
