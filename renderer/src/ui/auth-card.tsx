/**
 * The centred card of the sign-in screens (signed out, signing in): title, their content, the last
 * action's error, notices. On its own (signing in) it is the page's main landmark with its first-level
 * heading; `embedded` inside the signed-out screen, whose header and main hold those, it is a section
 * titled at the second level (every screen has one main and one h1: docs/device-controls.md, "Every
 * screen accessible").
 */
import type { ReactNode } from 'react';
import { ActionError } from './action-error';
import { Notices } from './notices';

export function AuthCard({ children, embedded = false }: { children: ReactNode; embedded?: boolean }) {
  const Outer = embedded ? 'div' : 'main';
  const Title = embedded ? 'h2' : 'h1';
  return (
    <Outer className="centered">
      <div className="card">
        <Title>Hubdesk</Title>
        {children}
        <ActionError />
      </div>
      <Notices />
    </Outer>
  );
}
