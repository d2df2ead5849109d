/**
 * Forward to in the inspector (docs/webhooks-app.md, "Forward to"): a row's chip with the local
 * server's status and time, the detail pane's line with "Forward again", and a registration's queue.
 */
import { useStore } from 'zustand';
import type { WebhookView } from '../../../common/ipc-contract';
import { forwardChip, forwardQueueLabel, forwardSentence } from '../format/forward-labels';
import { entryKey } from '../stores/webhook-entry-list';
import { registrationViews } from '../stores/webhook-registrations-slice';
import { useLinked, useStores } from './stores-context';
import { useNow } from './use-now';

export function ForwardChip({ entryKey: key }: { entryKey: string }) {
  const { forwarding } = useStores();
  const state = useStore(forwarding, (s) => s.states.get(key));
  if (!state) return null;
  return (
    <span className="forward-chip" data-state={state.state === 'answered' && state.statusCode >= 400 ? 'failed' : state.state}>
      {forwardChip(state)}
    </span>
  );
}

/** Under the signature: how its forwarding went, and "Forward again" while the registration has a Forward-to URL. */
export function ForwardLine({ webhookId, id }: { webhookId: string; id: string }) {
  const { forwarding, webhooks } = useStores();
  const key = entryKey({ webhookId, id });
  const state = useStore(forwarding, (s) => s.states.get(key));
  const error = useStore(forwarding, (s) => s.errors[key]);
  const forwardTo = useStore(webhooks, (s) => registrationViews(s).find((view) => view.id === webhookId)?.forwardTo);
  const linked = useLinked();
  const now = useNow(state?.state === 'retrying');
  if (!state && forwardTo === undefined) return null;
  return (
    <div className="forward-line" role="group" aria-label="Forward to">
      <p role="status">
        {state ? forwardSentence(state, now) : 'Not forwarded: it arrived before Forward to was set, or before Hubdesk started.'}
        {forwardTo !== undefined && (
          <>
            {' '}
            <button type="button" disabled={!linked} onClick={() => void forwarding.getState().forwardAgain(webhookId, id)}>
              Forward again
            </button>
          </>
        )}
      </p>
      {error && (
        <p className="error-text" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}

/** A registration's Forward-to URL and its queue. */
export function ForwardToLine({ view }: { view: WebhookView }) {
  const { forwarding } = useStores();
  const queue = useStore(forwarding, (s) => s.queues[view.id]);
  if (view.forwardTo === undefined) return <p className="muted">Not forwarded to a local server</p>;
  const figures = forwardQueueLabel(queue);
  return (
    <p className="forward-to">
      Forward to <code aria-label={`Forward-to URL of ${view.id}`}>{view.forwardTo}</code>
      {figures !== null && <span className="muted"> · {figures}</span>}
    </p>
  );
}
