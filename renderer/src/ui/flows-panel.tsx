/** The open hub's flows with a Trigger button each, and what happened on the last trigger. Hidden when the session may not see flows. */
import { useStore } from 'zustand';
import type { Flow } from '../../../common/ipc-contract';
import type { TriggerState } from '../stores/open-hub-store';
import { useStores } from './stores-context';

export function FlowsPanel() {
  const { openHub } = useStores();
  const permissions = useStore(openHub, (s) => s.permissions);
  const state = useStore(openHub, (s) => s.flows);
  if (permissions.flows === 'none' || state.status === 'none') return null;
  const cannotStart = state.status === 'loaded' && !state.list.canStart ? (permissions.reason ?? 'You may see flows on this hub but not start them.') : undefined;

  return (
    <details className="flows" open>
      <summary>Flows</summary>
      {state.status === 'loading' && <p className="muted">Loading flows…</p>}
      {state.status === 'error' && (
        <p className="error-text">
          The flows could not be loaded: {state.error.message}{' '}
          <button type="button" onClick={() => openHub.getState().retryFlows()}>
            Try again
          </button>
        </p>
      )}
      {state.status === 'loaded' && state.list.flows.length === 0 && <p className="muted">There are no flows on this hub.</p>}
      {cannotStart && <p className="muted">{cannotStart}</p>}
      {state.status === 'loaded' && state.list.flows.length > 0 && (
        <ul className="flow-list">
          {state.list.flows.map((flow) => (
            <FlowRow key={flow.id} flow={flow} canStart={state.list.canStart} />
          ))}
        </ul>
      )}
    </details>
  );
}

function FlowRow({ flow, canStart }: { flow: Flow; canStart: boolean }) {
  const { openHub } = useStores();
  const trigger = useStore(openHub, (s) => s.triggers[flow.id]);
  const starting = trigger?.status === 'starting';
  return (
    <li>
      <span className="flow-name">{flow.name}</span>
      {!flow.enabled && <span className="muted">Turned off on the hub</span>}
      <button type="button" aria-label={`Trigger ${flow.name}`} disabled={!canStart || !flow.enabled || starting} onClick={() => void openHub.getState().triggerFlow(flow.id)}>
        Trigger
      </button>
      <span role="status" className={trigger?.status === 'failed' ? 'error-text' : 'muted'}>
        {trigger && triggerText(trigger)}
      </span>
    </li>
  );
}

function triggerText(trigger: TriggerState): string {
  switch (trigger.status) {
    case 'starting':
      return 'Starting…';
    case 'started':
      return 'Started';
    case 'failed':
      return `Not started: ${trigger.message}`;
  }
}
