/**
 * The filter part of the webhooks store (webhooks-store.ts; docs/webhooks-app.md, "Finding messages"):
 * while a filter is set, the list is main's matches, page by page, asked again at most every REQUERY_MS
 * as messages arrive (the text and key path need their bodies, which only main has).
 */
import type { WebhookEntry } from '../../../common/ipc-contract';
import type { MessageFilter } from '../../../common/message-filter';
import { settle } from './settle';
import { clampPreview, entryKey, SNAPSHOT_PAGE_ENTRIES } from './webhook-entry-list';
import type { WebhooksContext, WebhooksState } from './webhooks-state';

/** How often, at most, a filtered list asks main again while messages arrive. */
export const REQUERY_MS = 500;

type SearchPart = Pick<WebhooksState, 'filter' | 'searching' | 'filterError' | 'setFilter'>;

export interface SearchSlice {
  state: SearchPart;
  /** Messages arrived while filtered: main is asked again (once for a burst). */
  requery(): void;
  dispose(): void;
}

/**
 * `lists`: the generation of the list's contents, bumped by whatever replaces them (a new filter, a
 * clear), so pages still on their way for the old contents are dropped; `showEverything`: main's pages
 * again, then live, once the filter is emptied; `dropQueuedEntries`: new entries waiting to be drawn
 * are not the filter's.
 */
export function searchSlice(
  { bridge, get, set, schedule, capacity, withBounds }: WebhooksContext,
  lists: { generation: number },
  hooks: { showEverything(): Promise<void>; dropQueuedEntries(): void },
): SearchSlice {
  let cancelRequery: (() => void) | undefined;

  /**
   * Replaces the list by main's matches of the filter, page by page (within the list's bounds). `live`:
   * asked again because messages arrived; while paused, the matches not shown yet are held instead
   * ("paused, N new"), and the shown list stays as it is.
   */
  const searchFiltered = async (live = false): Promise<void> => {
    const started = ++lists.generation;
    const filter = get().filter;
    set({ searching: true });
    const found: WebhookEntry[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await settle(() => bridge.inspector.snapshot({ limit: SNAPSHOT_PAGE_ENTRIES, filter, ...(before !== undefined && { before }) }));
      if (lists.generation !== started) return; // another filter, or cleared, since
      if (!page.ok) return set({ searching: false, filterError: page.error.message });
      found.push(...page.value.entries.map(clampPreview));
      if (page.value.nextCursor === null || found.length >= capacity) break;
      before = page.value.nextCursor;
    }
    const state = get();
    if (live && state.paused) {
      const shown = new Set(state.entries.map(entryKey));
      return set({
        ...withBounds(
          found.filter((entry) => !shown.has(entryKey(entry))),
          [...state.entries],
        ),
        searching: false,
        filterError: null,
      });
    }
    set({ ...withBounds([], found), searching: false, filterError: null });
  };

  const stopRequery = () => {
    cancelRequery?.();
    cancelRequery = undefined;
  };

  return {
    state: {
      filter: {},
      searching: false,
      filterError: null,
      async setFilter(filter) {
        const next = withoutEmpty(filter);
        stopRequery();
        hooks.dropQueuedEntries();
        set({ filter: next, filterError: null });
        if (isFiltering(next)) return searchFiltered();
        lists.generation++;
        set({ entries: [], held: [], bytes: 0, searching: false });
        await hooks.showEverything();
      },
    },
    requery() {
      cancelRequery ??= schedule(() => {
        cancelRequery = undefined;
        void searchFiltered(true);
      }, REQUERY_MS);
    },
    dispose: stopRequery,
  };
}

/** A filter without its empty parts (an empty list or text filters nothing). */
function withoutEmpty(filter: MessageFilter): MessageFilter {
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)),
  ) as MessageFilter;
}

export const isFiltering = (filter: MessageFilter) => Object.keys(filter).length > 0;
