/** The registrations with their connection indicator, and a way to remove each. */
import { useStore } from 'zustand';
import type { WebhookConnection } from '../../../common/ipc-contract';
import { connectionLabel, routingLabel } from '../format/webhook-labels';
import { connectionOf } from '../stores/webhooks-store';
import { CopyButton } from './copy-button';
import { useLinked, useStores } from './stores-context';
import { useNow } from './use-now';

export function WebhookRegistrations() {
  const { webhooks, hubs } = useStores();
  const registrations = useStore(webhooks, (s) => s.registrations);
  const connections = useStore(webhooks, (s) => s.connections);
  const pending = useStore(webhooks, (s) => s.pending);
  const hubList = useStore(hubs, (s) => s.list);
  const linked = useLinked();
  const hubName = (id: string) => (hubList.status === 'loaded' ? hubList.hubs.find((hub) => hub.id === id)?.name : undefined);

  return (
    <section className="webhook-registrations" aria-labelledby="webhook-registrations-title">
      <h2 id="webhook-registrations-title">Your webhooks</h2>
      {registrations.status === 'loading' && <p>Loading webhooks…</p>}
      {registrations.status === 'error' && <p className="error-text">{registrations.error.message}</p>}
      {registrations.status === 'loaded' && registrations.views.length === 0 && <p className="muted">No webhooks yet.</p>}
      {registrations.status === 'loaded' && registrations.views.some((view) => !view.hasTapCredential) && <TapCredentialNotice />}
      {registrations.status === 'loaded' && registrations.views.length > 0 && (
        <ul aria-label="Webhooks">
          {registrations.views.map((view) => {
            const connection = connectionOf({ connections }, view);
            return (
              <li key={view.id} className="webhook-registration">
                <div>
                  <p className="webhook-id">{view.label ?? view.id}</p>
                  <p className="muted">{routingLabel(view.routing, view.routing.kind === 'hub' ? hubName(view.routing.hubId) : undefined)}</p>
                  <p className="muted">{view.hasTapCredential ? 'Tap credential set: routing decisions shown' : 'No tap credential: this app’s deliveries only'}</p>
                  <p className="muted">{view.hasSigningSecret ? 'Signing secret set: signatures checked' : 'No signing secret: signatures not checked'}</p>
                  {view.intakeUrl !== null && (
                    <p className="intake-url">
                      <code aria-label={`Intake URL of ${view.label ?? view.id}`}>{view.intakeUrl}</code>{' '}
                      <CopyButton text={view.intakeUrl} label="Copy URL" copied="Intake URL copied." failed="Could not copy; select the URL and copy it." />
                    </p>
                  )}
                  <ConnectionIndicator connection={connection} />
                </div>
                <button type="button" aria-label={`Remove ${view.id}`} disabled={pending === 'remove' || !linked} onClick={() => void webhooks.getState().remove(view.id)}>
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Said once for all registrations without a tap credential: what they miss, and where to get one. */
function TapCredentialNotice() {
  return (
    <p className="hint" role="note" aria-label="About tap credentials">
      Without a tap credential the inspector shows only the messages delivered to this app. The routing decisions and other hubs&apos; traffic need the
      webhook owner&apos;s tap credential: create one in the developer portal (&ldquo;New tap credential&rdquo;) and add the webhook again with it.
    </p>
  );
}

export function ConnectionIndicator({ connection }: { connection: WebhookConnection }) {
  const linked = useLinked();
  const now = useNow(linked && connection.state === 'reconnecting');
  // While the link to the app is down nobody knows (issue 13 §2).
  if (!linked) {
    return (
      <p className="connection" data-state="unknown" role="status">
        <span className="connection-dot" aria-hidden="true" />
        Unknown
      </p>
    );
  }
  return (
    <p className="connection" data-state={connection.state} role="status">
      <span className="connection-dot" aria-hidden="true" />
      {connectionLabel(connection, now)}
    </p>
  );
}
