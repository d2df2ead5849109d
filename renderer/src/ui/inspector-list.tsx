/**
 * The inspector's messages, newest first, virtualised: only the rows in view (plus a few) are in the
 * DOM, so 10,000 entries scroll as smoothly as ten. Rows are buttons, but the list is one tab stop
 * (a roving tabindex; docs/benchmarks.md, "First render in steps"): Tab reaches the selected row, or the first one in view when the
 * selected one is scrolled away; ↑/↓ (and j/k), Page Up/Down, Home and End move the selection and keep
 * it in view, Enter opens it. Each row (docs/webhooks-app.md, "Rows and routing words"): method, path
 * and query, outcome; then the time (with the date when not today), size, webhook and whom the
 * forwarder sent it to, in full in its tooltip.
 *
 * Beside the details the list scrolls in its own pane; in a narrow window (`pageScroll`) it has no
 * scroll area of its own and rides the content region's, so no scroll area is inside another.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type Ref, type RefObject, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import type { WebhookEntry } from '../../../common/ipc-contract';
import { formatRowTime } from '../format/date-time';
import { routingWords } from '../format/routing-words';
import { formatSize, outcomeOf, requestPath } from '../format/webhook-labels';
import { entryKey } from '../stores/webhook-entry-list';
import { ForwardChip } from './forward-status';
import { scrollParent } from './scroll-parent';
import { useToday } from './use-today';
import { useRoutingNames, useWebhookTitles } from './use-webhook-titles';

/** Two lines of text a row. */
const ROW_HEIGHT = 52;
/** Rows Page Up / Page Down move by. */
const PAGE_ROWS = 10;

/** What the inspector asks of the list from outside it: the j/k keys, and the way back from the details. */
export interface InspectorListHandle {
  /** Selects the next or previous message and scrolls it into view; focuses its row when `focus`. */
  move(step: 1 | -1, focus: boolean): void;
  /** Scrolls the selected row into view and focuses it. */
  focusSelected(): void;
}

export interface InspectorListProps {
  entries: readonly WebhookEntry[];
  listed: boolean;
  selectedKey: string | null;
  /** The keys moved the selection. */
  onSelect(key: string): void;
  /** A row was clicked, or Enter pressed on it (`byKey`). */
  onOpen(key: string, byKey: boolean): void;
  /** Scroll with the content region rather than in a pane of its own (a narrow window). */
  pageScroll: boolean;
  ref?: Ref<InspectorListHandle>;
}

export function InspectorList({ entries, listed, selectedKey, onSelect, onOpen, pageScroll, ref }: InspectorListProps) {
  const paneRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const titleOf = useWebhookTitles();
  const namesOf = useRoutingNames();
  const today = useToday();
  const scrollMargin = usePageScrollMargin(pageScroll, listRef);
  const scroller = () => (pageScroll ? scrollParent(paneRef.current) : paneRef.current);
  // The virtualizer is mutable by design (it re-renders us on scroll); nothing here memoises its results.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: entries.length, getScrollElement: scroller, estimateSize: () => ROW_HEIGHT, overscan: 8, scrollMargin });
  const selectedIndex = selectedKey === null ? -1 : entries.findIndex((entry) => entryKey(entry) === selectedKey);

  const focusRow = (index: number) =>
    // The row may only now be rendered: focus it once it is.
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLButtonElement>(`[data-index="${index}"] button`)?.focus());

  const moveTo = (index: number, focus: boolean) => {
    const entry = entries[index];
    if (!entry) return;
    onSelect(entryKey(entry));
    virtualizer.scrollToIndex(index);
    if (focus) focusRow(index);
  };

  useImperativeHandle(ref, () => ({
    move: (step, focus) => moveTo(selectedIndex < 0 ? 0 : Math.min(Math.max(selectedIndex + step, 0), entries.length - 1), focus),
    focusSelected: () => {
      if (selectedIndex < 0) return;
      virtualizer.scrollToIndex(selectedIndex, { align: 'center' });
      focusRow(selectedIndex);
    },
  }));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const last = entries.length - 1;
    if (last < 0) return;
    if (event.key === 'Enter' && selectedIndex >= 0) {
      event.preventDefault(); // not the row's click too
      onOpen(entryKey(entries[selectedIndex]!), true);
      return;
    }
    const from = Math.max(selectedIndex, 0);
    const next = {
      ArrowDown: Math.min(from + 1, last),
      j: Math.min(from + 1, last),
      ArrowUp: Math.max(from - 1, 0),
      k: Math.max(from - 1, 0),
      PageDown: Math.min(from + PAGE_ROWS, last),
      PageUp: Math.max(from - PAGE_ROWS, 0),
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveTo(next, true);
  };

  const rendered = virtualizer.getVirtualItems();
  const tabStop = rendered.some((item) => item.index === selectedIndex) ? selectedIndex : rendered[0]?.index;

  return (
    <div ref={paneRef} className="inspector-scroll" data-page-scroll={pageScroll}>
      {entries.length === 0 && (
        <p className="muted inspector-empty">{listed ? 'No messages yet. POST to a webhook to see it here.' : 'Reading the saved history…'}</p>
      )}
      <div
        ref={listRef}
        role="list"
        aria-label="Webhook messages"
        className="inspector-list"
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
      >
        {rendered.map((item) => {
          const entry = entries[item.index]!;
          const key = entryKey(entry);
          const routing = `${entry.imported ? 'imported · ' : ''}${routingWords(entry, namesOf(entry.webhookId))}`;
          const path = requestPath(entry);
          return (
            <div
              role="listitem"
              key={key}
              data-index={item.index}
              aria-setsize={entries.length}
              aria-posinset={item.index + 1}
              className="inspector-row"
              style={{ height: ROW_HEIGHT, transform: `translateY(${item.start - scrollMargin}px)` }}
            >
              <button
                type="button"
                tabIndex={item.index === tabStop ? 0 : -1}
                aria-current={key === selectedKey ? 'true' : undefined}
                onClick={() => onOpen(key, false)}
              >
                <span className="row-request">
                  <span className="cell-method">{entry.method ?? '—'}</span>
                  <span className="cell-path" title={path}>
                    {path}
                  </span>
                </span>
                <OutcomeChip entry={entry} />
                <span className="row-meta">
                  <span className="cell-time">{formatRowTime(entry.receivedAt, today)}</span>
                  <span className="cell-size">{formatSize(entry.size)}</span>
                  <span className="cell-webhook">{titleOf(entry.webhookId)}</span>
                  <span className="cell-routing" title={routing}>
                    <ForwardChip entryKey={key} />
                    {routing}
                  </span>
                </span>
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * Where the list starts in the scrolled content of the area that scrolls it (the virtualizer's
 * `scrollMargin`), measured again whenever anything in that area changes size (the filters wrap, a notice comes).
 */
function usePageScrollMargin(pageScroll: boolean, listRef: RefObject<HTMLDivElement | null>): number {
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    const region = pageScroll ? scrollParent(list) : null;
    if (!list || !region) return setMargin(0);
    const measure = () => setMargin(list.getBoundingClientRect().top - region.getBoundingClientRect().top + region.scrollTop);
    measure();
    const observer = new ResizeObserver(measure);
    for (const child of region.children) observer.observe(child);
    return () => observer.disconnect();
  }, [pageScroll, listRef]);
  return margin;
}

function OutcomeChip({ entry }: { entry: WebhookEntry }) {
  const { kind, label } = outcomeOf(entry);
  return (
    <span className="outcome-chip" data-outcome={kind}>
      {label}
    </span>
  );
}
