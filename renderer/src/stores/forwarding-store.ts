/**
 * Forward to in the window (docs/webhooks-app.md, "Forward to"): how each message's forwarding to its
 * registration's local server went (`webhooks.forward` events, checked by the bridge), by inspector key,
 * and each registration's queue (waiting, dropped). Main does the forwarding; this only shows it and
 * asks for "Forward again". At most RENDERER_FORWARD_STATES messages are remembered, the oldest
 * reported forgotten first (the list holds at most as many entries).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ForwardQueue, ForwardState } from '../../../common/forward-target';
import type { Bridge } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';
import { entryKey, RENDERER_INSPECTOR_CAPACITY } from './webhook-entry-list';

export const RENDERER_FORWARD_STATES = RENDERER_INSPECTOR_CAPACITY;

export interface ForwardingState {
  /** By inspector key (`webhookId/id`). */
  states: ReadonlyMap<string, ForwardState>;
  /** By webhook id: the latest queue figures main reported. */
  queues: Readonly<Record<string, ForwardQueue>>;
  /** Why the last "Forward again" was refused, by inspector key. */
  errors: Readonly<Record<string, UiError>>;
  forwardAgain(webhookId: string, id: string): Promise<void>;
}

export type ForwardingStore = StoreApi<ForwardingState> & { dispose(): void };

export function createForwardingStore(bridge: Pick<Bridge, 'webhooks' | 'on'>, capacity = RENDERER_FORWARD_STATES): ForwardingStore {
  const store = createStore<ForwardingState>()((set, get) => ({
    states: new Map(),
    queues: {},
    errors: {},
    async forwardAgain(webhookId, id) {
      const key = entryKey({ webhookId, id });
      const { [key]: _old, ...errors } = get().errors;
      set({ errors });
      const result = await settle(() => bridge.webhooks.forwardAgain(webhookId, id));
      if (!result.ok) set({ errors: { ...get().errors, [key]: result.error } });
    },
  }));
  const stop = bridge.on('webhooks.forward', (report) => {
    const key = entryKey(report);
    const states = new Map(store.getState().states);
    states.delete(key); // re-inserted: the newest report is the last to be forgotten
    states.set(key, report.forward);
    if (states.size > capacity) states.delete(states.keys().next().value as string);
    store.setState({ states, queues: { ...store.getState().queues, [report.webhookId]: report.queue } });
  });
  return { ...store, dispose: stop };
}
