/**
 * The webhook history (docs/webhooks-app.md, "History"): its bound shown beside the inspector, its settings (how much,
 * how long), and Clear, which asks first. Main keeps the history; these only show and ask.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { HISTORY_AGES, HISTORY_BOUNDS, type HistorySettings, type HistoryView } from '../../../common/ipc-contract';
import { formatSize } from '../format/webhook-labels';
import { FormDialog } from './form-dialog';
import { useLinked, useStores } from './stores-context';

/** How often the figures beside the inspector are read again while it is shown. */
const REFRESH_MS = 5_000;

const STORAGE_SENTENCES: Record<HistoryView['storage'], string> = {
  encrypted: 'Kept across restarts, encrypted like your sign-in.',
  obfuscated: 'Kept across restarts with the weaker, obfuscated storage you allowed for your sign-in.',
  'memory-only': 'Kept only until Hubdesk quits: this system offers no secure storage for it, as for your sign-in.',
};

const boundLabel = (bytes: number) => (bytes >= 1024 * 1024 * 1024 ? `${bytes / (1024 * 1024 * 1024)} GB` : `${bytes / (1024 * 1024)} MB`);
const ageLabel = (days: number) => (days === 1 ? '1 day' : `${days} days`);

function useHistory(refreshMs?: number): HistoryView | null {
  const { webhooks } = useStores();
  const history = useStore(webhooks, (s) => s.history);
  useEffect(() => {
    const load = () => void webhooks.getState().loadHistory();
    load();
    if (refreshMs === undefined) return;
    const timer = setInterval(load, refreshMs);
    return () => clearInterval(timer);
  }, [webhooks, refreshMs]);
  return history;
}

/** One line beside the inspector: how full the history is, and for how long it keeps messages. */
export function HistoryBound() {
  const history = useHistory(REFRESH_MS);
  if (!history) return null;
  return (
    <p className="muted history-bound" title={STORAGE_SENTENCES[history.storage]}>
      History {formatSize(history.bytes)} of {boundLabel(history.boundBytes)} · {ageLabel(history.maxAgeDays)}
      {history.storage === 'memory-only' && ' · until Hubdesk quits'}
    </p>
  );
}

/** Clear, after asking: it deletes every message, here and on disk. */
export function ClearHistoryButton() {
  const { webhooks } = useStores();
  const pending = useStore(webhooks, (s) => s.pending);
  const messages = useStore(webhooks, (s) => s.history?.messages ?? null);
  const linked = useLinked();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" disabled={!linked || pending === 'clear'} onClick={() => setAsking(true)}>
        Clear…
      </button>
      {asking && (
        <FormDialog
          title="Clear the webhook history?"
          submitLabel="Clear history"
          onClose={() => setAsking(false)}
          onSubmit={() => {
            setAsking(false);
            void webhooks.getState().clear();
          }}
        >
          <p>
            {messages === null ? 'Every message' : `All ${messages} ${messages === 1 ? 'message' : 'messages'}`} kept by Hubdesk will be deleted, from this
            window and from the disk. This cannot be undone.
          </p>
        </FormDialog>
      )}
    </>
  );
}

/** The Settings view's part: where the history is kept, how much and how long, and Clear. */
export function HistorySettingsGroup() {
  const { webhooks } = useStores();
  const history = useHistory();
  const pending = useStore(webhooks, (s) => s.pending);
  const linked = useLinked();
  if (!history) return null;
  const disabled = pending === 'setHistory' || !linked;
  const change = (patch: Partial<HistorySettings>) =>
    void webhooks.getState().setHistory({ boundBytes: history.boundBytes, maxAgeDays: history.maxAgeDays, ...patch });
  return (
    <fieldset className="settings-group">
      <legend>Webhook history</legend>
      <p>{STORAGE_SENTENCES[history.storage]}</p>
      {history.error && (
        <p className="error-text" role="alert">
          {history.error}
        </p>
      )}
      <p role="status">
        {history.messages} {history.messages === 1 ? 'message' : 'messages'}, {formatSize(history.bytes)} of {boundLabel(history.boundBytes)}.
      </p>
      <Choices<HistorySettings['boundBytes']>
        label="Keep at most"
        name="history-bound"
        choices={HISTORY_BOUNDS}
        chosen={history.boundBytes}
        describe={boundLabel}
        disabled={disabled}
        onChoose={(boundBytes) => change({ boundBytes })}
      />
      <Choices<HistorySettings['maxAgeDays']>
        label="Keep messages for"
        name="history-age"
        choices={HISTORY_AGES}
        chosen={history.maxAgeDays}
        describe={ageLabel}
        disabled={disabled}
        onChoose={(maxAgeDays) => change({ maxAgeDays })}
      />
      <p className="hint">When the history is full, the oldest messages go first. A smaller bound or a shorter time deletes what no longer fits at once.</p>
      <ClearHistoryButton />
    </fieldset>
  );
}

/** A labelled row of radio choices, shown as chosen once main has it. */
function Choices<T extends number>(props: {
  label: string;
  name: string;
  choices: readonly T[];
  chosen: T;
  describe(value: T): string;
  disabled: boolean;
  onChoose(value: T): void;
}) {
  return (
    <div role="radiogroup" aria-label={props.label} className="choice-row">
      <span>{props.label}</span>
      {props.choices.map((value) => (
        <label key={value} className="inline">
          <input type="radio" name={props.name} checked={props.chosen === value} disabled={props.disabled} onChange={() => props.onChoose(value)} />{' '}
          {props.describe(value)}
        </label>
      ))}
    </div>
  );
}
