import { useStore } from 'zustand';
import { AuthCard } from './auth-card';
import { useStores } from './stores-context';

export function SigningInScreen({ authorizationOrigin }: { authorizationOrigin: string }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  return (
    <AuthCard>
      <p role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" /> Hubdesk opened your browser at <strong>{authorizationOrigin}</strong> and is
        waiting for you to finish signing in there.
      </p>
      <p className="muted">If no browser window appeared, cancel and sign in again.</p>
      <button type="button" disabled={pending === 'cancel'} onClick={() => void session.getState().cancel()}>
        Cancel
      </button>
    </AuthCard>
  );
}
