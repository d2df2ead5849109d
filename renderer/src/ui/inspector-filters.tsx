/**
 * The inspector's filters (docs/webhooks-app.md, "Finding messages"): full-text search, a key-path condition checked as it is
 * typed (with the position of what does not parse), outcome, webhook and method toggles, and a time
 * range, those four folded under a "Filters" summary (docs/webhooks-app.md, "Finding messages"). Main runs
 * them over everything it keeps (the text and key path need the bodies); the list then shows its answer.
 * Typing waits a moment before asking; Clear filters shows everything again.
 */
import { type Ref, useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import { type MessageFilter, OUTCOME_KINDS, type OutcomeKind, parseKeyPathCondition } from '../../../common/message-filter';
import { OUTCOME_LABELS } from '../format/webhook-labels';
import { isFiltering } from '../stores/inspector-search-slice';
import { registrationViews } from '../stores/webhook-registrations-slice';
import { useStores } from './stores-context';
import { useWebhookTitles } from './use-webhook-titles';

const TYPING_PAUSE_MS = 250;
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'] as const;

/** `searchRef`: the search field, which `/` focuses. */
export function InspectorFilters({ searchRef }: { searchRef?: Ref<HTMLInputElement> }) {
  const { webhooks } = useStores();
  const filter = useStore(webhooks, (s) => s.filter);
  const filterError = useStore(webhooks, (s) => s.filterError);
  const searching = useStore(webhooks, (s) => s.searching);
  const count = useStore(webhooks, (s) => s.entries.length);
  const views = useStore(webhooks, registrationViews);
  const titleOf = useWebhookTitles();
  const [text, setText] = useState(filter.text ?? '');
  const [keyPath, setKeyPath] = useState(filter.keyPath ?? '');
  const keyPathId = useId();
  const apply = (patch: Partial<MessageFilter>) => void webhooks.getState().setFilter({ ...webhooks.getState().filter, ...patch });

  const parsed = keyPath.trim() === '' ? undefined : parseKeyPathCondition(keyPath.trim());
  const keyPathProblem = parsed && !parsed.ok ? `At ${parsed.position + 1}: ${parsed.message}` : null;

  // Typing settles before main is asked; a key path is asked only once it parses.
  useEffect(() => {
    const timer = setTimeout(() => {
      const current = webhooks.getState().filter;
      const nextText = text.trim() === '' ? undefined : text;
      const nextKeyPath = keyPath.trim() === '' ? undefined : keyPathProblem === null ? keyPath.trim() : current.keyPath;
      if (nextText !== current.text || nextKeyPath !== current.keyPath)
        void webhooks.getState().setFilter({ ...current, text: nextText, keyPath: nextKeyPath });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, keyPath, keyPathProblem, webhooks]);

  const toggle = <T extends string>(list: readonly T[] | undefined, value: T): T[] =>
    list?.includes(value) ? list.filter((item) => item !== value) : [...(list ?? []), value];
  const active = isFiltering(filter);
  // Outcome, webhook, method and time fold under one summary that counts what is chosen there, so the
  // list starts near the top; open from the start when something there is chosen (an import, a reload).
  const chosen =
    (filter.outcomes?.length ?? 0) + (filter.webhookIds?.length ?? 0) + (filter.methods?.length ?? 0) + (filter.from ? 1 : 0) + (filter.to ? 1 : 0);
  const [moreOpen, setMoreOpen] = useState(chosen > 0);

  return (
    <div className="inspector-filters" role="search" aria-label="Find messages">
      <label>
        Search
        <input
          ref={searchRef}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Headers, query and bodies"
          spellCheck={false}
          maxLength={512}
        />
      </label>
      <label>
        Key path
        <input
          type="text"
          value={keyPath}
          onChange={(event) => setKeyPath(event.target.value)}
          placeholder='body.device.id == "lamp-1"'
          spellCheck={false}
          maxLength={512}
          aria-invalid={keyPathProblem !== null}
          aria-describedby={keyPathId}
          className="mono"
        />
      </label>
      <details className="more-filters" open={moreOpen} onToggle={(event) => setMoreOpen(event.currentTarget.open)}>
        <summary>{chosen > 0 ? `Filters (${chosen})` : 'Filters'}</summary>
        <div className="more-filters-body">
          <ToggleGroup
            label="Outcome"
            values={OUTCOME_KINDS}
            chosen={filter.outcomes}
            name={(kind: OutcomeKind) => OUTCOME_LABELS[kind]}
            onToggle={(kind) => apply({ outcomes: toggle(filter.outcomes, kind) })}
          />
          {views.length > 1 && (
            <ToggleGroup
              label="Webhook"
              values={views.map((view) => view.id)}
              chosen={filter.webhookIds}
              name={titleOf}
              onToggle={(id) => apply({ webhookIds: toggle(filter.webhookIds, id) })}
            />
          )}
          <ToggleGroup
            label="Method"
            values={METHODS}
            chosen={filter.methods}
            name={(method) => method}
            onToggle={(method) => apply({ methods: toggle(filter.methods, method) })}
          />
          <label>
            From
            <input type="datetime-local" step={1} value={toLocalInput(filter.from)} onChange={(event) => apply({ from: fromLocalInput(event.target.value) })} />
          </label>
          <label>
            To
            <input type="datetime-local" step={1} value={toLocalInput(filter.to)} onChange={(event) => apply({ to: fromLocalInput(event.target.value) })} />
          </label>
        </div>
      </details>
      <span id={keyPathId} className={keyPathProblem ? 'error-text' : 'hint'}>
        {keyPathProblem ?? 'A key path, then exists, == or != and a value.'}
      </span>
      <p className={filterError ? 'error-text' : 'muted'} role="status">
        {filterError ?? (searching ? 'Searching…' : active ? `${count} matching ${count === 1 ? 'message' : 'messages'}` : '')}
      </p>
      {active && (
        <button
          type="button"
          onClick={() => {
            setText('');
            setKeyPath('');
            void webhooks.getState().setFilter({});
          }}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}

function ToggleGroup<T extends string>({
  label,
  values,
  chosen,
  name,
  onToggle,
}: {
  label: string;
  values: readonly T[];
  chosen: readonly T[] | undefined;
  name(value: T): string;
  onToggle(value: T): void;
}) {
  return (
    <div role="group" aria-label={label} className="filter-toggles">
      <span className="filter-label">{label}</span>
      {values.map((value) => (
        <button key={value} type="button" aria-pressed={chosen?.includes(value) ?? false} onClick={() => onToggle(value)}>
          {name(value)}
        </button>
      ))}
    </div>
  );
}

/** An ISO time as a `datetime-local` value in the user's time zone, and back. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

function fromLocalInput(value: string): string | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
