/** The Webhooks view: registrations on one side, the live inspector with its detail pane on the other. */
import type { CSSProperties } from 'react';
import { useStore } from 'zustand';
import type { WebhookConnection } from '../../../common/ipc-contract';
import { connectionOf, entryKey, type WebhooksState } from '../stores/webhooks-store';
import { ArchiveControls } from './archive-controls';
import { ClearHistoryButton, HistoryBound } from './history-settings';
import { InspectorFilters } from './inspector-filters';
import { InspectorList } from './inspector-list';
import { MessageDetails } from './message-details';
import { FirstWebhookPanel, NewWebhookButtons } from './new-webhook';
import { SplitSeparator } from './split-separator';
import { useStores } from './stores-context';
import { AddWebhookButton } from './webhook-form';
import { WebhookRegistrations } from './webhook-registrations';

export function WebhooksView() {
  const { webhooks } = useStores();
  const actionError = useStore(webhooks, (s) => s.actionError);
  return (
    <div className="webhooks-view">
      <div className="webhooks-side">
        <AddWebhookButton />
        <NewWebhookButtons />
        {actionError && (
          <p className="error-text" role="alert">
            {actionError.message}
          </p>
        )}
        <FirstWebhookPanel />
        <WebhookRegistrations />
      </div>
      <Inspector />
    </div>
  );
}

/** How many registrations' connections are in `state`. */
function countInState(s: WebhooksState, state: WebhookConnection['state']): number {
  return s.registrations.status === 'loaded' ? s.registrations.views.filter((view) => connectionOf(s, view).state === state).length : 0;
}

function Inspector() {
  const { webhooks, preferences } = useStores();
  const split = useStore(preferences, (s) => s.inspectorSplit);
  const entries = useStore(webhooks, (s) => s.entries);
  const held = useStore(webhooks, (s) => s.held.length);
  const paused = useStore(webhooks, (s) => s.paused);
  const selectedKey = useStore(webhooks, (s) => s.selectedKey);
  const listed = useStore(webhooks, (s) => s.listed);
  const details = useStore(webhooks, (s) => s.details);
  const total = useStore(webhooks, (s) => (s.registrations.status === 'loaded' ? s.registrations.views.length : 0));
  const connected = useStore(webhooks, (s) => countInState(s, 'connected'));
  const notResponding = useStore(webhooks, (s) => countInState(s, 'not-responding'));
  const selected = selectedKey === null ? undefined : entries.find((entry) => entryKey(entry) === selectedKey);
  const intakeUrl = useStore(webhooks, (s) => (s.registrations.status === 'loaded' && selected ? (s.registrations.views.find((view) => view.id === selected.webhookId)?.intakeUrl ?? null) : null));
  const state = webhooks.getState();

  return (
    <section className="inspector" aria-labelledby="inspector-title">
      <div className="inspector-toolbar">
        <h2 id="inspector-title">Inspector</h2>
        <p className="connection" data-state={total === 0 ? 'none' : connected === total ? 'connected' : connected + notResponding === total ? 'not-responding' : 'reconnecting'} role="status">
          <span className="connection-dot" aria-hidden="true" />
          {total === 0 ? 'No webhooks' : `${connected} of ${total} connected${notResponding > 0 ? `, ${notResponding} not responding` : ''}`}
        </p>
        <p className="muted" aria-live="polite">
          {listed ? `${entries.length} ${entries.length === 1 ? 'message' : 'messages'}` : 'Reading the saved history…'}
          {paused && ` · paused, ${held} new`}
        </p>
        {paused ? (
          <button type="button" onClick={() => state.resume()}>
            Resume
          </button>
        ) : (
          <button type="button" onClick={() => state.pause()}>
            Pause
          </button>
        )}
        <ClearHistoryButton />
        <ArchiveControls />
        <HistoryBound />
      </div>
      <InspectorFilters />
      <div className="inspector-body" style={{ '--split': `${split * 100}%` } as CSSProperties}>
        <InspectorList entries={entries} listed={listed} selectedKey={selectedKey} onSelect={(key) => state.select(key)} />
        <SplitSeparator fraction={split} onChange={(fraction) => preferences.getState().setInspectorSplit(fraction)} label="Resize the message list" />
        <MessageDetails entry={selected} details={details.status !== 'idle' && details.key === selectedKey ? details : { status: 'idle' }} intakeUrl={intakeUrl} />
      </div>
    </section>
  );
}
