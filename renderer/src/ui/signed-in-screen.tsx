/** Signed in: who, how the sign-in is kept, and the hub list beside the selected hub's devices. */
import { useStore } from 'zustand';
import type { SessionView, UserView } from '../../../common/ipc-contract';
import { ActionError } from './action-error';
import { DevicesPanel } from './devices-panel';
import { HubList } from './hub-list';
import { Notices } from './notices';
import { useStores } from './stores-context';

const STORAGE_HINT: Partial<Record<SessionView['tokenStorage'], string>> = {
  'memory-only': 'Sign-in kept until Hubdesk quits',
  'plaintext-opt-in': 'Sign-in saved without encryption',
};

export function SignedInScreen({ user }: { user: UserView }) {
  const { session } = useStores();
  const pending = useStore(session, (s) => s.pending);
  const tokenStorage = useStore(session, (s) => s.session?.tokenStorage);
  const fullName = `${user.firstname} ${user.lastname}`.trim();
  const hint = tokenStorage ? STORAGE_HINT[tokenStorage] : undefined;

  return (
    <div className="signed-in">
      <header className="app-header">
        <h1>Hubdesk</h1>
        <div className="account">
          <p className="user">
            {fullName && <span className="user-name">{fullName}</span>}
            {user.email && <span className="user-email">{user.email}</span>}
            {hint && <span className="storage-hint">{hint}</span>}
          </p>
          <button type="button" disabled={pending === 'signOut'} onClick={() => void session.getState().signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <ActionError />
      <Notices />
      <main className="columns">
        <HubList />
        <DevicesPanel />
      </main>
    </div>
  );
}
