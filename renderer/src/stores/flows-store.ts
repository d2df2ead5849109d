/**
 * The flows of the watched hub and what happened when the user triggered one. Loaded when a hub is
 * watched whose permissions allow reading flows; answers of a previously watched hub are dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, FlowList } from '../../../common/ipc-contract';
import { settle, type UiError } from './settle';

export type FlowsListState = { status: 'idle' } | { status: 'loading' } | { status: 'loaded'; list: FlowList } | { status: 'error'; error: UiError };

/** The outcome of the last trigger of one flow. */
export type TriggerState = { status: 'starting' } | { status: 'started'; at: string } | { status: 'failed'; message: string };

export interface FlowsState {
  hubId: string | null;
  flows: FlowsListState;
  triggers: Readonly<Record<string, TriggerState>>;
  /** Shows the flows of a hub (loading them), or none. */
  show(hubId: string | null): void;
  reload(): Promise<void>;
  trigger(flowId: string): Promise<void>;
}

export type FlowsStore = StoreApi<FlowsState>;

export function createFlowsStore(bridge: Pick<Bridge, 'hubs'>): FlowsStore {
  // Bumped when the hub changes (drops everything of the previous hub); the list's own counter drops overtaken loads.
  let generation = 0;
  let listRequest = 0;

  return createStore<FlowsState>()((set, get) => {
    const setTrigger = (flowId: string, state: TriggerState) => set({ triggers: { ...get().triggers, [flowId]: state } });

    return {
      hubId: null,
      flows: { status: 'idle' },
      triggers: {},

      show(hubId) {
        if (hubId === get().hubId) return;
        generation++;
        set({ hubId, flows: { status: 'idle' }, triggers: {} });
        if (hubId !== null) void get().reload();
      },

      async reload() {
        const hubId = get().hubId;
        if (hubId === null) return;
        const request = ++listRequest;
        const startedIn = generation;
        set({ flows: { status: 'loading' } });
        const result = await settle(() => bridge.hubs.flows(hubId));
        if (startedIn !== generation || request !== listRequest) return;
        if (!result.ok) return set({ flows: { status: 'error', error: result.error } });
        set({ flows: { status: 'loaded', list: result.value } });
      },

      async trigger(flowId) {
        const hubId = get().hubId;
        if (hubId === null || get().triggers[flowId]?.status === 'starting') return;
        const startedIn = generation;
        setTrigger(flowId, { status: 'starting' });
        const result = await settle(() => bridge.hubs.triggerFlow(hubId, flowId));
        if (startedIn !== generation) return;
        setTrigger(flowId, result.ok ? { status: 'started', at: result.value.triggeredAt } : { status: 'failed', message: result.error.message });
      },
    };
  });
}
