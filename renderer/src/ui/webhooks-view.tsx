/**
 * The Webhooks view (docs/webhooks-app.md, "Layout"): three panes as in a mail client, the
 * registrations, the message list and the selected message's details beside it, each scrolling on its
 * own. In a window narrower than WIDE_LAYOUT, choosing a message shows its details in place of the list,
 * with Back (and Escape) to return, and the view scrolls as one.
 */
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { WebhookConnection } from '../../../common/ipc-contract';
import { connectionOf } from '../stores/webhook-registrations-slice';
import { entryKey } from '../stores/webhook-entry-list';
import type { WebhooksState } from '../stores/webhooks-state';
import { ArchiveControls } from './archive-controls';
import { ClearHistoryButton, HistoryBound } from './history-settings';
import { InspectorFilters } from './inspector-filters';
import { InspectorList, type InspectorListHandle } from './inspector-list';
import { MessageDetails } from './message-details';
import { FirstWebhookPanel, NewWebhookButtons } from './new-webhook';
import { scrollToTop } from './scroll-parent';
import { SplitSeparator } from './split-separator';
import { useStores } from './stores-context';
import { useInspectorKeys } from './use-inspector-keys';
import { useMediaQuery } from './use-media-query';
import { AddWebhookButton } from './webhook-form';
import { WebhookRegistrations } from './webhook-registrations';

/** Details beside the list from this width on; the stylesheet's `@media (min-width: 1100px)` rules say the same. */
export const WIDE_LAYOUT = '(min-width: 1100px)';

export function WebhooksView() {
  const { webhooks } = useStores();
  const actionError = useStore(webhooks, (s) => s.actionError);
  const wide = useMediaQuery(WIDE_LAYOUT);
  return (
    <div className="webhooks-view" data-layout={wide ? 'split' : 'single'}>
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
      <Inspector wide={wide} />
    </div>
  );
}

/** How many registrations' connections are in `state`. */
function countInState(s: WebhooksState, state: WebhookConnection['state']): number {
  return s.registrations.status === 'loaded' ? s.registrations.views.filter((view) => connectionOf(s, view).state === state).length : 0;
}

/** Where the focus goes once the view has drawn what an action changed. */
type FocusTarget = 'details' | 'list' | 'search';

function Inspector({ wide }: { wide: boolean }) {
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
  const intakeUrl = useStore(webhooks, (s) =>
    s.registrations.status === 'loaded' && selected ? (s.registrations.views.find((view) => view.id === selected.webhookId)?.intakeUrl ?? null) : null,
  );
  const state = webhooks.getState();

  // Narrow: the details are read in place of the list, until Back.
  const [reading, setReading] = useState(false);
  const showingDetails = !wide && reading && selected !== undefined;
  const listRef = useRef<InspectorListHandle>(null);
  const detailsRef = useRef<HTMLElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  // A new object each time, so asking twice for the same place still moves the focus there.
  const [focusRequest, requestFocus] = useState<{ target: FocusTarget } | null>(null);
  useEffect(() => {
    const target = focusRequest?.target;
    if (target === 'details' && detailsRef.current) {
      detailsRef.current.focus({ preventScroll: true });
      // Narrow, the view scrolls as one: to the details' top. Beside the list they are in view already.
      if (!detailsRef.current.closest('.webhooks-view[data-layout="split"]')) scrollToTop(detailsRef.current);
    } else if (target === 'list') listRef.current?.focusSelected();
    else if (target === 'search') searchRef.current?.focus();
  }, [focusRequest]);

  /** A click shows the message; Enter (`byKey`) or a narrow window also takes the focus to its details. */
  const open = (key: string, byKey: boolean) => {
    state.select(key);
    if (!wide) setReading(true);
    if (byKey || !wide) requestFocus({ target: 'details' });
  };
  const back = () => {
    setReading(false);
    requestFocus({ target: 'list' });
  };
  useInspectorKeys({
    next: () => listRef.current?.move(1, false),
    previous: () => listRef.current?.move(-1, false),
    ...(selectedKey !== null && { open: () => open(selectedKey, true) }),
    search: () => {
      setReading(false);
      requestFocus({ target: 'search' });
    },
    ...(showingDetails && { back }),
  });

  return (
    <section className="inspector" aria-labelledby="inspector-title" data-showing={showingDetails ? 'details' : 'list'}>
      <div className="inspector-toolbar">
        <h2 id="inspector-title">Inspector</h2>
        <p
          className="connection"
          data-state={total === 0 ? 'none' : connected === total ? 'connected' : connected + notResponding === total ? 'not-responding' : 'reconnecting'}
          role="status"
        >
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
      <InspectorFilters searchRef={searchRef} />
      <div className="inspector-body" style={{ '--split': `${split * 100}%` } as CSSProperties}>
        <InspectorList
          ref={listRef}
          entries={entries}
          listed={listed}
          selectedKey={selectedKey}
          onSelect={(key) => state.select(key)}
          onOpen={open}
          pageScroll={!wide}
        />
        {wide && (
          <SplitSeparator fraction={split} onChange={(fraction) => preferences.getState().setInspectorSplit(fraction)} label="Resize the message list" />
        )}
        <MessageDetails
          ref={detailsRef}
          entry={selected}
          details={details.status !== 'idle' && details.key === selectedKey ? details : { status: 'idle' }}
          intakeUrl={intakeUrl}
          onBack={showingDetails ? back : undefined}
        />
      </div>
    </section>
  );
}
