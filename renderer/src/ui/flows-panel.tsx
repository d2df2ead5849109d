/**
 * The open hub's flows as one compact strip beside the devices (docs/device-controls.md, "Controls"): a start button per flow
 * and, next to it, the result of its last start and when. Hidden when the session may not see flows; in
 * a narrow window, one "Flows (n)" summary that opens over the devices.
 */
import { useContext } from 'react';
import { useStore } from 'zustand';
import type { Flow } from '../../../common/ipc-contract';
import { flowResultLabel, flowStartedAtLabel } from '../format/flow-labels';
import { NotLiveContext } from './not-live-context';
import { useLinked, useStores } from './stores-context';

export function FlowsPanel({ compact = false }: { compact?: boolean }) {
  const { openHub } = useStores();
  const permissions = useStore(openHub, (s) => s.permissions);
  const state = useStore(openHub, (s) => s.flows);
  if (permissions.flows === 'none' || state.status === 'none') return null;

  const flowCount = state.status === 'loaded' ? ` (${state.list.flows.length})` : '';
  // A narrow window folds the strip into one summary, so the devices start near the top (docs/device-controls.md, "App shell").
  if (compact) {
    return (
      <details className="flows-strip compact">
        <summary>Flows{flowCount}</summary>
        <section className="flows-popover" aria-label="Flows">
          <FlowsContent />
        </section>
      </details>
    );
  }
  return (
    <section className="flows-strip" aria-label="Flows">
      <h2 className="flows-title">Flows</h2>
      <FlowsContent />
    </section>
  );
}

function FlowsContent() {
  const { openHub } = useStores();
  const permissions = useStore(openHub, (s) => s.permissions);
  const state = useStore(openHub, (s) => s.flows);
  const cannotStart =
    state.status === 'loaded' && !state.list.canStart ? (permissions.reason ?? 'You may see flows on this hub but not start them.') : undefined;
  return (
    <>
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
      {state.status === 'loaded' && state.list.flows.length > 0 && (
        <ul className="flow-list">
          {state.list.flows.map((flow) => (
            <FlowRow key={flow.id} flow={flow} canStart={state.list.canStart} />
          ))}
        </ul>
      )}
      {cannotStart && <p className="muted flows-note">{cannotStart}</p>}
    </>
  );
}

function FlowRow({ flow, canStart }: { flow: Flow; canStart: boolean }) {
  const { openHub } = useStores();
  const trigger = useStore(openHub, (s) => s.triggers[flow.id]);
  const linked = useLinked();
  // While the hub is not live a start could not reach it: disabled, saying why (not-live-context.ts).
  const blocked = useContext(NotLiveContext)?.blocked ?? null;
  const starting = trigger?.status === 'starting';
  const startedAt = flowStartedAtLabel(trigger);
  return (
    <li className="flow-chip" data-result={trigger?.status}>
      <button
        type="button"
        className="flow-start"
        aria-label={`Trigger ${flow.name}`}
        title={blocked?.reason ?? (flow.enabled ? `Start ${flow.name}` : `${flow.name} is turned off on the hub`)}
        aria-describedby={blocked?.id}
        disabled={!canStart || !flow.enabled || starting || !linked || blocked !== null}
        onClick={() => void openHub.getState().triggerFlow(flow.id)}
      >
        <span className="flow-start-mark" aria-hidden="true">
          ▶
        </span>
        <span className="flow-name">{flow.name}</span>
      </button>
      {!flow.enabled && <span className="muted flow-off">Turned off on the hub</span>}
      <span role="status" className={trigger?.status === 'failed' ? 'error-text flow-result' : 'muted flow-result'}>
        {trigger && flowResultLabel(trigger)}
      </span>
      {startedAt && trigger?.status === 'started' && (
        <time className="muted flow-time" dateTime={trigger.at}>
          {startedAt}
        </time>
      )}
    </li>
  );
}
