/**
 * The command palette (Ctrl/⌘+K; docs/architecture.md, "The desktop"): type to find a hub, view, device capability or flow
 * (format/command-search.ts), ↑/↓ to choose, Enter to act. Setting a number or choosing an option is a
 * second step in the same box; Escape goes back a step, then closes. Actions go through the stores as
 * a click would (the card shows the pending value, the hub's answer or the reason it was refused).
 */
import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { CapabilityState } from '../../../common/wire';
import { buildCommands, choiceCommands, entryUnits, type PaletteCommand, type PaletteView, parseNumberEntry, searchCommands } from '../format/command-search';
import { capabilityWords } from '../format/device-presentation';
import { formatCapabilityValue } from '../format/format-capability';
import { ModalDialog } from './modal-dialog';
import { useLinked, useStores } from './stores-context';

/** Rows drawn at most: enough to choose from, cheap with a thousand devices. */
const MAX_ROWS = 50;

type Step =
  | { kind: 'search' }
  | { kind: 'number'; deviceId: string; deviceName: string; capability: CapabilityState }
  | { kind: 'choose'; deviceId: string; deviceName: string; capability: CapabilityState };

export function PaletteDialog({ open, onClose, onView }: { open: boolean; onClose(): void; onView(view: PaletteView): void }) {
  return (
    <ModalDialog open={open} labelledBy="palette-title" className="palette-dialog" onClose={onClose}>
      <PaletteBody onClose={onClose} onView={onView} />
    </ModalDialog>
  );
}

function PaletteBody({ onClose, onView }: { onClose(): void; onView(view: PaletteView): void }) {
  const { hubs, openHub } = useStores();
  const linked = useLinked();
  const list = useStore(hubs, (s) => s.list);
  const hubId = useStore(openHub, (s) => s.hubId);
  const devices = useStore(openHub, (s) => s.devices);
  const permissions = useStore(openHub, (s) => s.permissions);
  const flows = useStore(openHub, (s) => s.flows);
  const [step, setStep] = useState<Step>({ kind: 'search' });
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [entryError, setEntryError] = useState<string | null>(null);

  const commands = useMemo(
    () =>
      buildCommands({
        hubs: list.status === 'loaded' ? list.hubs : [],
        openHubId: hubId,
        devices: Object.values(devices),
        permissions,
        flows: flows.status === 'loaded' && flows.list.canStart ? flows.list.flows : [],
      }),
    [list, hubId, devices, permissions, flows],
  );
  const candidates = step.kind === 'choose' ? choiceCommands(step.deviceId, step.capability) : commands;
  const results = step.kind === 'number' ? [] : searchCommands(candidates, query, MAX_ROWS);
  const current = results[Math.min(active, results.length - 1)];

  const go = (next: Step) => {
    setStep(next);
    setQuery('');
    setActive(0);
    setEntryError(null);
  };
  const run = (command: PaletteCommand) => {
    const { action } = command;
    if (!linked && action.kind !== 'view') return; // the notice below says why
    const deviceName = (id: string) => devices[id]?.name ?? id;
    switch (action.kind) {
      case 'view':
        onView(action.view);
        return onClose();
      case 'open-hub':
        if (openHub.getState().hubId !== action.hubId) openHub.getState().open(action.hubId);
        onView('hubs');
        return onClose();
      case 'set':
        void openHub.getState().setCapability(action.deviceId, action.capabilityId, action.value);
        onView('hubs');
        return onClose();
      case 'set-many':
        for (const change of action.changes) void openHub.getState().setCapability(change.deviceId, change.capabilityId, change.value);
        onView('hubs');
        return onClose();
      case 'start-flow':
        void openHub.getState().triggerFlow(action.flowId);
        onView('hubs');
        return onClose();
      case 'enter-number':
        return go({ kind: 'number', deviceId: action.deviceId, deviceName: deviceName(action.deviceId), capability: action.capability });
      case 'choose':
        return go({ kind: 'choose', deviceId: action.deviceId, deviceName: deviceName(action.deviceId), capability: action.capability });
    }
  };
  const submitNumber = (target: Extract<Step, { kind: 'number' }>) => {
    const parsed = parseNumberEntry(query, target.capability);
    if (!parsed.ok) return setEntryError(parsed.message);
    run({
      id: 'entry',
      title: '',
      detail: '',
      verb: '',
      action: { kind: 'set', deviceId: target.deviceId, capabilityId: target.capability.id, value: parsed.value },
    });
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && step.kind !== 'search') {
      event.preventDefault();
      event.stopPropagation(); // back a step; the dialog stays open
      return go({ kind: 'search' });
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      if (step.kind === 'number') submitNumber(step);
      else if (current) run(current);
      return;
    }
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      Home: 0,
      End: results.length - 1,
      PageDown: active + 10,
      PageUp: active - 10,
    };
    if (step.kind !== 'number' && event.key in moves && results.length > 0) {
      event.preventDefault();
      setActive(Math.max(0, Math.min(results.length - 1, moves[event.key]!)));
    }
  };

  const subject = step.kind === 'search' ? null : `${step.deviceName}: ${capabilityWords(devices[step.deviceId]?.class ?? '', step.capability).label}`;
  const label =
    step.kind === 'number'
      ? `New value for ${subject} (now ${formatCapabilityValue(step.capability, step.capability.value)})`
      : step.kind === 'choose'
        ? `Choose ${subject}`
        : 'Find a hub, device, view or flow';
  const activeId = current ? optionId(results.indexOf(current)) : undefined;
  const units = step.kind === 'number' ? entryUnits(step.capability) : '';

  return (
    <div className="palette">
      <h2 id="palette-title" className="visually-hidden">
        Command palette
      </h2>
      <label className="palette-label" htmlFor="palette-input">
        {label}
      </label>
      <div className="palette-field">
        <input
          id="palette-input"
          autoFocus // as the dialog opens, and at every step
          key={step.kind + (subject ?? '')}
          type="text"
          inputMode={step.kind === 'number' ? 'decimal' : undefined}
          role={step.kind === 'number' ? undefined : 'combobox'}
          aria-expanded={step.kind === 'number' ? undefined : results.length > 0}
          aria-controls={step.kind === 'number' ? undefined : 'palette-results'}
          aria-autocomplete={step.kind === 'number' ? undefined : 'list'}
          aria-activedescendant={step.kind === 'number' ? undefined : activeId}
          aria-invalid={entryError !== null}
          aria-describedby={entryError ? 'palette-error' : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setEntryError(null);
          }}
          onKeyDown={onKeyDown}
        />
        {units && <span className="palette-units">{units}</span>}
      </div>
      {entryError && (
        <p id="palette-error" className="palette-error" role="alert">
          {entryError}
        </p>
      )}
      {!linked && <p className="palette-note">Hubdesk cannot reach its main process; only views can be opened until it is back.</p>}
      {step.kind !== 'number' && (
        <ul id="palette-results" role="listbox" aria-label="Results" className="palette-results">
          {results.map((command, index) => (
            <li
              key={command.id}
              id={optionId(index)}
              role="option"
              aria-selected={command === current}
              className="palette-option"
              onMouseMove={() => setActive(index)}
              onClick={() => run(command)}
            >
              <span className="palette-option-title">{command.title}</span>
              {command.detail && <span className="palette-option-detail">{command.detail}</span>}
              <span className="palette-option-verb">{command.verb}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="palette-status" role="status">
        {step.kind === 'number'
          ? 'Enter sets it; Escape goes back.'
          : results.length === 0
            ? `No matches for “${query.trim()}”`
            : `${results.length === MAX_ROWS ? `The first ${MAX_ROWS}` : results.length} result${results.length === 1 ? '' : 's'}`}
      </p>
    </div>
  );
}

const optionId = (index: number) => `palette-option-${index}`;
