/**
 * Waiting for the sign-in in the browser. The page's link is shown with Copy and Open again, so a
 * browser that did not open (or a tab closed by mistake) does not strand the user (docs/device-controls.md, "Connection state and deadlines").
 */
import { useStore } from 'zustand';
import { AuthCard } from './auth-card';
import { CopyButton } from './copy-button';
import { useStores } from './stores-context';

export function SigningInScreen({ authorizationOrigin }: { authorizationOrigin: string }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  const auth = useStore(session, (s) => s.session?.auth);
  const url = auth?.status === 'signing-in' ? auth.authorizationUrl : undefined;
  const browserFailed = auth?.status === 'signing-in' && auth.browserOpened === false;
  return (
    <AuthCard>
      {browserFailed ? (
        <p role="status" aria-live="polite">
          Hubdesk could not open your browser. Open the link below in your browser to sign in at <strong>{authorizationOrigin}</strong>; Hubdesk is waiting for
          you to finish there.
        </p>
      ) : (
        <p role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Hubdesk opened your browser at <strong>{authorizationOrigin}</strong> and is waiting for you to finish
          signing in there.
        </p>
      )}
      {url ? <AuthorisationLink url={url} /> : <p className="muted">If no browser window appeared, cancel and sign in again.</p>}
      <button type="button" disabled={pending === 'cancel'} onClick={() => void session.getState().cancel()}>
        Cancel
      </button>
    </AuthCard>
  );
}

function AuthorisationLink({ url }: { url: string }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  return (
    <div className="auth-link">
      <p className="muted">If no browser window appeared, or you closed it, open this link in your browser:</p>
      <code>{url}</code>
      <CopyButton text={url} copied="Link copied." failed="Could not copy; select the link and copy it." />
      <button type="button" disabled={pending === 'reopenBrowser'} onClick={() => void session.getState().reopenBrowser()}>
        Open again
      </button>
    </div>
  );
}
