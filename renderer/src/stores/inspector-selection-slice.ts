/**
 * The selected message part of the webhooks store (webhooks-store.ts): its full message, fetched from
 * main on selection (and again when its delivery or a new signing secret changes it), and its replay.
 * An answer for an earlier selection is dropped.
 */
import { REPLAY_TIMEOUT_MS } from '../../../common/ipc-contract';
import { settle } from './settle';
import { entryKey, keyParts } from './webhook-entry-list';
import type { WebhooksContext, WebhooksState } from './webhooks-state';

type SelectionPart = Pick<WebhooksState, 'selectedKey' | 'details' | 'replay' | 'select' | 'replaySelected'>;

export interface SelectionSlice {
  state: SelectionPart;
  /** Selects `key` and fetches its full message (again, when it is already selected). */
  fetchDetails(key: string | null): void;
  /** Fetches the selected message again when it is one of `webhookId`'s. */
  refetchIfOf(webhookId: string): void;
  /** Nothing selected, and an answer on its way dropped: the fields to set. */
  forget(): Pick<WebhooksState, 'selectedKey' | 'details' | 'replay'>;
}

const NOTHING_SELECTED = { selectedKey: null, details: { status: 'idle' }, replay: { status: 'idle' } } as const;

export function selectionSlice({ bridge, get, set }: WebhooksContext): SelectionSlice {
  let detailsRequest = 0;

  const fetchDetails = (key: string | null) => {
    const request = ++detailsRequest;
    if (key === null) return set(NOTHING_SELECTED);
    set({ selectedKey: key, details: { status: 'loading', key }, ...(key !== get().selectedKey && { replay: { status: 'idle' } }) });
    const entry = [...get().entries, ...get().held].find((candidate) => entryKey(candidate) === key);
    const { webhookId, id } = entry ?? keyParts(key);
    void settle(() => bridge.inspector.message(webhookId, id)).then((result) => {
      if (request !== detailsRequest) return; // another selection since
      if (!result.ok) return set({ details: { status: 'error', key, error: result.error } });
      const answer = result.value;
      if (answer.status === 'kept') return set({ details: { status: 'kept', key, message: answer.message, signature: answer.signature } });
      set({ details: { status: 'gone', key, reason: answer.reason } });
    });
  };

  const state: SelectionPart = {
    ...NOTHING_SELECTED,

    select(key) {
      if (key === get().selectedKey && get().details.status !== 'error') return;
      fetchDetails(key);
    },

    async replaySelected(options) {
      const key = get().selectedKey;
      if (key === null) return;
      const { webhookId, id } = keyParts(key);
      set({ replay: { status: 'sending', key } });
      // Main gives the target REPLAY_TIMEOUT_MS to answer, and then answers itself.
      const result = await settle(() => bridge.inspector.replay({ webhookId, id, ...options }), { deadlineMs: REPLAY_TIMEOUT_MS + 5_000 });
      if (get().selectedKey !== key) return; // another selection since: its replay pane is empty
      set({ replay: result.ok ? { status: 'done', key, result: result.value } : { status: 'error', key, error: result.error } });
    },
  };

  return {
    state,
    fetchDetails,
    refetchIfOf(webhookId) {
      const selected = get().selectedKey;
      if (selected !== null && keyParts(selected).webhookId === webhookId) fetchDetails(selected);
    },
    forget() {
      detailsRequest++;
      return NOTHING_SELECTED;
    },
  };
}
