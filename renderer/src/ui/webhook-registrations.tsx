/** The registrations with their connection indicator, and a way to remove each. */
import { useStore } from 'zustand';
import { useState } from 'react';
import { routedIntakeUrl } from '../../../common/first-message';
import { WEBHOOK_UNDO_MS, type WebhookConnection, type WebhookView } from '../../../common/ipc-contract';
import { connectionLabel, routingLabel, webhookSubtitle, webhookTitle } from '../format/webhook-labels';
import { connectionOf } from '../stores/webhook-registrations-slice';
import { CopyButton } from './copy-button';
import { FormDialog } from './form-dialog';
import { ForwardToLine } from './forward-status';
import { EditWebhookButton } from './webhook-edit-form';
import { GoneWebhookActions } from './new-webhook';
import { useHubName, useLinked, useStores } from './stores-context';
import { useNow } from './use-now';

export function WebhookRegistrations() {
  const { webhooks } = useStores();
  const registrations = useStore(webhooks, (s) => s.registrations);
  const connections = useStore(webhooks, (s) => s.connections);
  const pending = useStore(webhooks, (s) => s.pending);
  const linked = useLinked();
  const hubName = useHubName();
  const [confirming, setConfirming] = useState<WebhookView | null>(null);

  return (
    <section className="webhook-registrations" aria-labelledby="webhook-registrations-title">
      <h2 id="webhook-registrations-title">Your webhooks</h2>
      {registrations.status === 'loading' && <p>Loading webhooks…</p>}
      {registrations.status === 'error' && <p className="error-text">{registrations.error.message}</p>}
      <RemovedNotice />
      {registrations.status === 'loaded' && registrations.views.length === 0 && <FirstWebhook />}
      {registrations.status === 'loaded' && registrations.views.some((view) => !view.hasTapCredential) && <TapCredentialNotice />}
      {registrations.status === 'loaded' && registrations.views.length > 0 && (
        <ul aria-label="Webhooks">
          {registrations.views.map((view) => {
            const connection = connectionOf({ connections }, view);
            const title = webhookTitle(view);
            const subtitle = webhookSubtitle(view);
            return (
              <li key={view.id} className="webhook-registration">
                <div>
                  <p className="webhook-title">{title}</p>
                  {subtitle !== null && <p className="muted webhook-id">{subtitle}</p>}
                  <p className="muted">{routingLabel(view.routing, view.routing.kind === 'hub' ? hubName(view.routing.hubId) : undefined)}</p>
                  <p className="muted">
                    {view.hasTapCredential ? 'Tap credential set: routing decisions shown' : 'No tap credential: this app’s deliveries only'}
                  </p>
                  <p className="muted">{view.hasSigningSecret ? 'Signing secret set: signatures checked' : 'No signing secret: signatures not checked'}</p>
                  {view.intakeUrl !== null && (
                    <p className="intake-url">
                      <code aria-label={`Intake URL of ${title}`}>{routedIntakeUrl(view.intakeUrl, view.routing)}</code>{' '}
                      <CopyButton
                        text={routedIntakeUrl(view.intakeUrl, view.routing)}
                        label="Copy URL"
                        copied="Intake URL copied."
                        failed="Could not copy; select the URL and copy it."
                      />
                    </p>
                  )}
                  <ForwardToLine view={view} />
                  <ConnectionIndicator connection={connection} />
                  <GoneWebhookActions view={view} connection={connection} />
                </div>
                <EditWebhookButton view={view} disabled={pending === 'edit' || !linked} />
                <button type="button" aria-label={`Remove ${view.id}`} disabled={pending === 'remove' || !linked} onClick={() => setConfirming(view)}>
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {confirming && (
        <ConfirmRemove
          view={confirming}
          onClose={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            void webhooks.getState().remove(confirming.id);
          }}
        />
      )}
    </section>
  );
}

function ConfirmRemove({ view, onClose, onConfirm }: { view: WebhookView; onClose(): void; onConfirm(): void }) {
  return (
    <FormDialog title={`Remove ${webhookTitle(view)}?`} submitLabel="Remove" onClose={onClose} onSubmit={onConfirm}>
      <p>Hubdesk stops listening to it and forgets its secrets and its messages in the inspector. You can undo this for {WEBHOOK_UNDO_MS / 1000} seconds.</p>
    </FormDialog>
  );
}

/** After a removal, for as long as it can be undone. */
function RemovedNotice() {
  const { webhooks } = useStores();
  const removed = useStore(webhooks, (s) => s.removed);
  const pending = useStore(webhooks, (s) => s.pending);
  const linked = useLinked();
  return (
    <p className="removed-notice" role="status">
      {removed && (
        <>
          Removed {removed.label}. Its messages leave the inspector in {WEBHOOK_UNDO_MS / 1000} seconds.{' '}
          <button type="button" disabled={pending === 'undoRemove' || !linked} onClick={() => void webhooks.getState().undoRemove()}>
            Undo
          </button>
        </>
      )}
    </p>
  );
}

/** The empty state (docs/webhooks-app.md, "Registrations"): what to do first, with the developer portal's address. */
function FirstWebhook() {
  const { session, webhooks } = useStores();
  const portalUrl = useStore(session, (s) => s.session?.backend.portalUrl ?? null);
  const pending = useStore(webhooks, (s) => s.pending);
  const linked = useLinked();
  return (
    <div className="first-webhook" role="note" aria-label="Getting started with webhooks">
      <p>No webhooks yet. To inspect the webhooks a service sends your hub app:</p>
      <ol>
        <li>Create a webhook in the developer portal{portalUrl === null ? ' of your cloud' : ''}; it shows its ID and secret once.</li>
        <li>Add it here with its ID and secret (and the tap credential to see every routing decision).</li>
        <li>Give the service the webhook&apos;s intake URL, shown here once it is added; each message then appears in the inspector.</li>
      </ol>
      {portalUrl !== null && (
        <p className="portal-link">
          <code>{portalUrl}</code>{' '}
          <button type="button" disabled={pending === 'openPortal' || !linked} onClick={() => void webhooks.getState().openPortal()}>
            Open the portal
          </button>{' '}
          <CopyButton text={portalUrl} label="Copy" copied="Portal address copied." failed="Could not copy; select the address and copy it." />
        </p>
      )}
    </div>
  );
}

/** Said once for all registrations without a tap credential: what they miss, and where to get one. */
function TapCredentialNotice() {
  return (
    <p className="hint" role="note" aria-label="About tap credentials">
      Without a tap credential the inspector shows only the messages delivered to this app. The routing decisions and other hubs&apos; traffic need the webhook
      owner&apos;s tap credential: create one in the developer portal (&ldquo;New tap credential&rdquo;) and add the webhook again with it.
    </p>
  );
}

export function ConnectionIndicator({ connection }: { connection: WebhookConnection }) {
  const linked = useLinked();
  const now = useNow(linked && (connection.state === 'reconnecting' || connection.state === 'not-responding'));
  // While the link to the app is down nobody knows (docs/device-controls.md, "Connection state and deadlines").
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
