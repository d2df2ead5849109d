/** Screens shown before the session is known: waiting, or main could not be reached. */
import type { UiError } from '../stores/settle';
import { useStores } from './stores-context';

export function RestoringScreen({ message }: { message: string }) {
  return (
    <main className="centered" aria-busy="true">
      <div className="card">
        <h1>Hubdesk</h1>
        <p role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> {message}
        </p>
      </div>
    </main>
  );
}

export function StartupFailedScreen({ error }: { error: UiError }) {
  const { session } = useStores();
  return (
    <main className="centered">
      <div className="card">
        <h1>Hubdesk</h1>
        <p role="alert">Hubdesk could not start its session. {error.message}</p>
        <button type="button" className="primary" onClick={() => void session.getState().load()}>
          Try again
        </button>
      </div>
    </main>
  );
}
