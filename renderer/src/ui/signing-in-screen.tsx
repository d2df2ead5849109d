import { useStore } from 'zustand';
import { ActionError } from './action-error';
import { Notices } from './notices';
import { useStores } from './stores-context';

export function SigningInScreen({ authorizationOrigin }: { authorizationOrigin: string }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  return (
    <main className="centered">
      <div className="card">
        <h1>Hubdesk</h1>
        <p role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Hubdesk opened your browser at <strong>{authorizationOrigin}</strong> and is
          waiting for you to finish signing in there.
        </p>
        <p className="muted">If no browser window appeared, cancel and sign in again.</p>
        <button type="button" disabled={pending === 'cancel'} onClick={() => void session.getState().cancel()}>
          Cancel
        </button>
        <ActionError />
      </div>
      <Notices />
    </main>
  );
}
