/** The last session action that failed (sign in, sign out, …), in words the user can act on. */
import { useStore } from 'zustand';
import { useStores } from './stores-context';

export function ActionError() {
  const { session } = useStores();
  const error = useStore(session, (s) => s.actionError);
  return (
    <div role="status" aria-live="polite" className="action-error">
      {error && <p className="error-text">{error.message}</p>}
    </div>
  );
}
