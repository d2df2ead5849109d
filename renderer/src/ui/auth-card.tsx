/** The centred card of the sign-in screens (signed out, signing in): title, their content, the last action's error, notices. */
import type { ReactNode } from 'react';
import { ActionError } from './action-error';
import { Notices } from './notices';

export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <main className="centered">
      <div className="card">
        <h1>Hubdesk</h1>
        {children}
        <ActionError />
      </div>
      <Notices />
    </main>
  );
}
