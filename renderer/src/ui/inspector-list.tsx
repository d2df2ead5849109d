/**
 * The inspector's messages, newest first, virtualised: only the rows in view (plus a few) are in the
 * DOM, so 10,000 entries scroll as smoothly as ten. Rows are buttons, but the list is one tab stop
 * (issue 13 §6, a roving tabindex): Tab reaches the selected row, or the first one in view when the
 * selected one is scrolled away; ↑/↓, Page Up/Down, Home and End move the selection and keep it in view.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useRef } from 'react';
import type { WebhookEntry } from '../../../common/ipc-contract';
import { formatSize, formatTime, outcomeOf, routingSummary } from '../format/webhook-labels';
import { entryKey } from '../stores/webhooks-store';
import { useWebhookTitles } from './use-webhook-titles';
import { ForwardChip } from './forward-status';

const ROW_HEIGHT = 40;
/** Rows Page Up / Page Down move by. */
const PAGE_ROWS = 10;

export function InspectorList({ entries, listed, selectedKey, onSelect }: { entries: readonly WebhookEntry[]; listed: boolean; selectedKey: string | null; onSelect(key: string): void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const titleOf = useWebhookTitles();
  // The virtualizer is mutable by design (it re-renders us on scroll); nothing here memoises its results.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: entries.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const selectedIndex = selectedKey === null ? -1 : entries.findIndex((entry) => entryKey(entry) === selectedKey);

  const moveTo = (index: number) => {
    const entry = entries[index];
    if (!entry) return;
    onSelect(entryKey(entry));
    virtualizer.scrollToIndex(index);
    // The row may only now be rendered: focus it once it is.
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLButtonElement>(`[data-index="${index}"] button`)?.focus());
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const last = entries.length - 1;
    const from = Math.max(selectedIndex, 0);
    const next = {
      ArrowDown: Math.min(from + 1, last),
      ArrowUp: Math.max(from - 1, 0),
      PageDown: Math.min(from + PAGE_ROWS, last),
      PageUp: Math.max(from - PAGE_ROWS, 0),
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined || last < 0) return;
    event.preventDefault();
    moveTo(next);
  };

  const rendered = virtualizer.getVirtualItems();
  const tabStop = rendered.some((item) => item.index === selectedIndex) ? selectedIndex : rendered[0]?.index;

  return (
    <div ref={scrollRef} className="inspector-scroll">
      {entries.length === 0 && (
        <p className="muted inspector-empty">
          {listed ? 'No messages yet. POST to a webhook to see it here.' : 'Reading the saved history…'}
        </p>
      )}
      <div role="list" aria-label="Webhook messages" className="inspector-list" style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
        {rendered.map((item) => {
          const entry = entries[item.index]!;
          const key = entryKey(entry);
          return (
            <div
              role="listitem"
              key={key}
              data-index={item.index}
              aria-setsize={entries.length}
              aria-posinset={item.index + 1}
              className="inspector-row"
              style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <button type="button" tabIndex={item.index === tabStop ? 0 : -1} aria-current={key === selectedKey ? 'true' : undefined} onClick={() => onSelect(key)}>
                <span className="cell-time">{formatTime(entry.receivedAt)}</span>
                <span className="cell-method">{entry.method ?? '—'}</span>
                <span className="cell-size">{formatSize(entry.size)}</span>
                <span className="cell-webhook">{titleOf(entry.webhookId)}</span>
                <OutcomeChip entry={entry} />
                <span className="cell-routing">
                  <ForwardChip entryKey={key} />
                  {entry.imported ? 'imported · ' : ''}
                  {routingSummary(entry)}
                </span>
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function OutcomeChip({ entry }: { entry: WebhookEntry }) {
  const { kind, label } = outcomeOf(entry);
  return (
    <span className="outcome-chip" data-outcome={kind}>
      {label}
    </span>
  );
}
