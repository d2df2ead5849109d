/**
 * "Sign out", which asks first and says what it ends (the hubs by name, and that webhooks keep
 * listening: format/sign-out-summary.ts). Cancel comes first in the dialog, so it has the focus when the
 * dialog opens and Enter on it, Escape or a click outside keep the user signed in.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { signOutSummary } from '../format/sign-out-summary';
import { FormDialog } from './form-dialog';
import { useStores } from './stores-context';

export function SignOutButton() {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" disabled={pending === 'signOut'} onClick={() => setAsking(true)}>
        Sign out
      </button>
      {asking && (
        <FormDialog
          title="Sign out of Hubdesk?"
          submitLabel="Sign out"
          onClose={() => setAsking(false)}
          onSubmit={() => {
            setAsking(false);
            void session.getState().signOut();
          }}
        >
          <SignOutSummary />
        </FormDialog>
      )}
    </>
  );
}

function SignOutSummary() {
  const { hubs, webhooks } = useStores();
  const hubNames = useStore(hubs, (s) => (s.list.status === 'loaded' ? s.list.hubs : undefined))?.map((hub) => hub.name);
  const all = useStore(webhooks, (s) => (s.registrations.status === 'loaded' ? s.registrations.views.length : 0));
  const forAHub = useStore(webhooks, (s) =>
    s.registrations.status === 'loaded' ? s.registrations.views.filter((view) => view.routing.kind === 'hub').length : 0,
  );
  return <p>{signOutSummary(hubNames, { all, forAHub })}</p>;
}
