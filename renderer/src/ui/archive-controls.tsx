/**
 * The inspector's Export… and Import… (issue 14 §3). Export: every shown message or the selected one,
 * as HAR 1.2 or NDJSON, saved as a download. Import: a HAR or NDJSON file from anywhere, checked, its
 * messages added to the list (marked "imported") to inspect and replay. What happened is said in a
 * status line: how many, and what was skipped and why.
 */
import { type ChangeEvent, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { ARCHIVE_MAX_FILE_BYTES } from '../../../common/webhook-archive';
import type { ArchiveFormat, ImportResult } from '../stores/webhook-archive-io';
import { downloadText } from './download-text';
import { FormDialog } from './form-dialog';
import { useStores } from './stores-context';

export function ArchiveControls() {
  const { webhooks } = useStores();
  const [exporting, setExporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!file) return;
    if (file.size > ARCHIVE_MAX_FILE_BYTES) return setStatus({ text: `${file.name} is larger than ${ARCHIVE_MAX_FILE_BYTES / 1024 / 1024} MiB: not imported.`, error: true });
    setBusy(true);
    const result = await webhooks.getState().importArchive(await file.text());
    setBusy(false);
    setStatus(result.ok ? { text: importSentence(file.name, result.value), error: false } : { text: result.error.message, error: true });
  };

  return (
    <>
      <button type="button" onClick={() => setExporting(true)} disabled={busy}>
        Export…
      </button>
      <button type="button" onClick={() => fileInput.current?.click()} disabled={busy}>
        Import…
      </button>
      <input ref={fileInput} type="file" accept=".har,.json,.ndjson,.jsonl,application/json" hidden onChange={(event) => void importFile(event)} aria-label="HAR or NDJSON file to import" />
      <span className={status?.error ? 'error-text' : 'muted'} role="status">
        {busy ? 'Working…' : (status?.text ?? '')}
      </span>
      {exporting && (
        <ExportDialog
          onClose={() => setExporting(false)}
          onExport={async (format, onlySelected) => {
            setExporting(false);
            setBusy(true);
            const result = await webhooks.getState().exportArchive(format, onlySelected);
            setBusy(false);
            if (!result.ok) return setStatus({ text: result.error.message, error: true });
            downloadText(result.value.fileName, result.value.text, result.value.mimeType);
            const { exported, gone } = result.value;
            setStatus({ text: `Exported ${exported} ${exported === 1 ? 'message' : 'messages'} to ${result.value.fileName}${gone > 0 ? `; ${gone} left out (their bodies are no longer kept)` : ''}.`, error: false });
          }}
        />
      )}
    </>
  );
}

function ExportDialog({ onClose, onExport }: { onClose(): void; onExport(format: ArchiveFormat, onlySelected: boolean): Promise<void> }) {
  const { webhooks } = useStores();
  const count = useStore(webhooks, (s) => s.entries.length);
  const hasSelection = useStore(webhooks, (s) => s.selectedKey !== null);
  const [format, setFormat] = useState<ArchiveFormat>('har');
  const [onlySelected, setOnlySelected] = useState(false);
  return (
    <FormDialog title="Export messages" submitLabel="Export" submitDisabled={count === 0} onClose={onClose} onSubmit={() => void onExport(format, onlySelected && hasSelection)}>
      <fieldset>
        <legend>Which</legend>
        <label className="inline">
          <input type="radio" name="scope" checked={!onlySelected} onChange={() => setOnlySelected(false)} />
          All {count} shown
        </label>
        <label className="inline">
          <input type="radio" name="scope" checked={onlySelected} onChange={() => setOnlySelected(true)} disabled={!hasSelection} />
          The selected message
        </label>
      </fieldset>
      <fieldset>
        <legend>Format</legend>
        <label className="inline">
          <input type="radio" name="format" checked={format === 'har'} onChange={() => setFormat('har')} />
          HAR 1.2 (browsers, proxies)
        </label>
        <label className="inline">
          <input type="radio" name="format" checked={format === 'ndjson'} onChange={() => setFormat('ndjson')} />
          NDJSON (one message a line)
        </label>
      </fieldset>
    </FormDialog>
  );
}

function importSentence(fileName: string, result: ImportResult): string {
  const parts = [`Imported ${result.added} ${result.added === 1 ? 'message' : 'messages'} from ${fileName} (${result.format === 'har' ? 'HAR' : 'NDJSON'})`];
  if (result.duplicates > 0) parts.push(`${result.duplicates} already here`);
  if (result.skippedCount > 0) parts.push(`${result.skippedCount} skipped (${result.skipped.slice(0, 3).map((skip) => `${skip.at}: ${skip.reason}`).join('; ')}${result.skippedCount > 3 ? '; …' : ''})`);
  return `${parts.join('; ')}.`;
}

