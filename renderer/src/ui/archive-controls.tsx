/**
 * The inspector's Export… and Import… (docs/webhooks-app.md, "Export and import"). Export: every shown message or the selected one,
 * as HAR 1.2 or NDJSON, saved as a download. Import: a HAR or NDJSON file from anywhere, checked, its
 * messages added to the list (marked "imported") to inspect and replay. What happened is said in a
 * status line: how many, and what was skipped and why.
 */
import { type ChangeEvent, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { ARCHIVE_MAX_FILE_BYTES } from '../../../common/archive-reader';
import { oneLine } from '../../../common/one-line';
import type { ArchiveFormat, ImportResult } from '../stores/webhook-archive-io';
import { downloadText } from './download-text';
import { fileBytes, pageTurn } from './paced-reading';
import { FormDialog } from './form-dialog';
import { useStores } from './stores-context';
import { errorMessage } from '../../../common/error-message';

export function ArchiveControls() {
  const { webhooks } = useStores();
  const [exporting, setExporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState('');
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!file) return;
    const name = oneLine(file.name, 80, 'the file');
    if (file.size > ARCHIVE_MAX_FILE_BYTES)
      return setStatus({ text: `${name} is larger than ${ARCHIVE_MAX_FILE_BYTES / 1024 / 1024} MiB: not imported.`, error: true });
    setBusy(true);
    setProgress('');
    try {
      const pacing = {
        pause: pageTurn,
        progress: ({ bytes, entries }: { bytes: number; entries: number }) =>
          setProgress(` ${entries} entries read, ${Math.floor((bytes / Math.max(file.size, 1)) * 100)} %`),
      };
      const result = await webhooks.getState().importArchive(() => fileBytes(file), pacing);
      setStatus(result.ok ? { text: importSentence(name, result.value), error: false } : { text: result.error.message, error: true });
    } catch (error) {
      // Nothing a file holds should get here; if it does, the import ends with a reason, never "Working…".
      setStatus({ text: `${name} could not be imported: ${oneLine(errorMessage(error), 200)}.`, error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" onClick={() => setExporting(true)} disabled={busy}>
        Export…
      </button>
      <button type="button" onClick={() => fileInput.current?.click()} disabled={busy}>
        Import…
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".har,.json,.ndjson,.jsonl,application/json"
        hidden
        onChange={(event) => void importFile(event)}
        aria-label="HAR or NDJSON file to import"
      />
      <span className={status?.error ? 'error-text' : 'muted'} role="status">
        {busy ? `Working…${progress}` : (status?.text ?? '')}
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
            setStatus({
              text: `Exported ${exported} ${exported === 1 ? 'message' : 'messages'} to ${result.value.fileName}${gone > 0 ? `; ${gone} left out (their bodies are no longer kept)` : ''}.`,
              error: false,
            });
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
    <FormDialog
      title="Export messages"
      submitLabel="Export"
      submitDisabled={count === 0}
      onClose={onClose}
      onSubmit={() => void onExport(format, onlySelected && hasSelection)}
    >
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
  if (result.skippedCount > 0)
    parts.push(
      `${result.skippedCount} skipped (${result.skipped
        .slice(0, 3)
        .map((skip) => `${skip.at}: ${skip.reason}`)
        .join('; ')}${result.skippedCount > 3 ? '; …' : ''})`,
    );
  if (result.stopped) parts.push(`stopped at ${result.stopped.at}: ${result.stopped.reason}`);
  return `${parts.join('; ')}.`;
}
