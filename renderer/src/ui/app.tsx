/** Chooses the screen for the current session state. */
import { useStore } from 'zustand';
import { RestoringScreen, StartupFailedScreen } from './restoring-screen';
import { SignedInScreen } from './signed-in-screen';
import { SignedOutScreen } from './signed-out-screen';
import { SigningInScreen } from './signing-in-screen';
import { useStores } from './stores-context';

export function App() {
  const { session: sessionStore } = useStores();
  const session = useStore(sessionStore, (s) => s.session);
  const loadError = useStore(sessionStore, (s) => s.loadError);

  if (!session) return loadError ? <StartupFailedScreen error={loadError} /> : <RestoringScreen message="Starting Hubdesk…" />;
  const { auth } = session;
  switch (auth.status) {
    case 'restoring':
      return <RestoringScreen message="Checking your sign-in…" />;
    case 'signing-in':
      return <SigningInScreen authorizationOrigin={auth.authorizationOrigin} />;
    case 'signed-in':
      return <SignedInScreen user={auth.user} />;
    case 'signed-out':
      return <SignedOutScreen reason={auth.reason} backend={session.backend} />;
  }
}
