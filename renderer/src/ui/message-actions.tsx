/**
 * What a developer does with one message (docs/webhooks-app.md, "Replay"): replay it to the webhook's intake or to a URL
 * (a local development server), edit its headers and body and replay that, or copy it as a curl
 * command. Main sends replays (it holds the bytes); the answer's status, time, headers and body are
 * shown under the buttons. Copy as curl is built here from the full message, byte for byte.
 */
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { ReplayResult, WebhookFullMessage } from '../../../common/ipc-contract';
import { curlCommand } from '../../../common/curl-command';
import { bodyEncoding } from '../../../common/webhook-protocol';
import { base64Bytes, bytesBase64 } from '../../../common/base64';
import { rawBodyText } from '../format/webhook-labels';
import type { ReplayOptions, ReplayState } from '../stores/webhooks-state';
import { httpUrlProblem, jsonProblem, parseHeaderLines } from '../format/replay-input';
import { CopyButton, type CopyHandle } from './copy-button';
import { FormDialog } from './form-dialog';
import { useStores } from './stores-context';
import { useInspectorKeys } from './use-inspector-keys';

export function MessageActions({ message, intakeUrl }: { message: WebhookFullMessage; intakeUrl: string | null }) {
  const { webhooks } = useStores();
  const replay = useStore(webhooks, (s) => s.replay);
  const [targetUrl, setTargetUrl] = useState('');
  const [editing, setEditing] = useState(false);
  const sending = replay.status === 'sending';
  const send = (options: ReplayOptions) => void webhooks.getState().replaySelected(options);
  const urlProblem = targetUrl === '' ? null : httpUrlProblem(targetUrl);

  const fullUrl = useMemo(() => {
    if (intakeUrl === null) return null;
    const query = new URLSearchParams(message.query).toString();
    return `${intakeUrl}${query ? `?${query}` : ''}`;
  }, [intakeUrl, message.query]);
  const curl = useMemo(
    () =>
      fullUrl === null || message.rawTruncated
        ? ''
        : curlCommand({ method: message.method ?? 'POST', url: fullUrl, headers: Object.entries(message.headers), body: base64Bytes(message.rawBody) }),
    [fullUrl, message],
  );

  // r and c: the same as the buttons, while they can be pressed (docs/webhooks-app.md, "Keyboard").
  const curlButton = useRef<CopyHandle>(null);
  const canReplay = !sending && intakeUrl !== null;
  useInspectorKeys({ ...(canReplay && { replay: () => send({ target: 'intake' }) }), ...(curl !== '' && { 'copy-curl': () => curlButton.current?.copy() }) });

  const sendToUrl = (event: FormEvent) => {
    event.preventDefault();
    if (targetUrl !== '' && urlProblem === null) send({ target: targetUrl });
  };

  return (
    <>
      <div className="message-actions" role="group" aria-label="Replay and copy">
        <button
          type="button"
          disabled={!canReplay}
          onClick={() => send({ target: 'intake' })}
          title={intakeUrl === null ? 'No forwarder is configured' : undefined}
        >
          Replay to intake
        </button>
        <button type="button" disabled={sending || message.rawTruncated} onClick={() => setEditing(true)}>
          Edit and replay…
        </button>
        <CopyButton
          ref={curlButton}
          text={curl}
          label="Copy as curl"
          copied="curl command copied."
          failed="Could not copy to the clipboard."
          disabled={curl === ''}
          title={message.rawTruncated ? 'The body is too large to copy here' : undefined}
        />
        <form className="replay-to-url" onSubmit={sendToUrl} aria-label="Replay to a URL" noValidate>
          <label>
            Replay to URL
            <input
              type="url"
              value={targetUrl}
              onChange={(e) => setTargetUrl(e.target.value)}
              placeholder="http://localhost:3000/webhook"
              spellCheck={false}
              aria-invalid={urlProblem !== null}
            />
          </label>
          <button type="submit" disabled={sending || targetUrl === '' || urlProblem !== null}>
            Send
          </button>
          {urlProblem && <span className="error-text">{urlProblem}</span>}
        </form>
      </div>
      <ReplayOutcome replay={replay} />
      {editing && (
        <EditReplayDialog
          message={message}
          defaultTarget={targetUrl !== '' && urlProblem === null ? targetUrl : 'intake'}
          canUseIntake={intakeUrl !== null}
          onClose={() => setEditing(false)}
          onSend={send}
        />
      )}
    </>
  );
}

function ReplayOutcome({ replay }: { replay: ReplayState }) {
  if (replay.status === 'idle') return null;
  return (
    <section className="replay-outcome" aria-label="Replay answer" aria-live="polite">
      {replay.status === 'sending' && <p className="muted">Sending…</p>}
      {replay.status === 'error' && <p className="error-text">{replay.error.message}</p>}
      {replay.status === 'done' && <ReplayAnswer result={replay.result} />}
    </section>
  );
}

function ReplayAnswer({ result }: { result: ReplayResult }) {
  if (result.status === 'failed') return <p className="error-text">{result.reason}</p>;
  return (
    <>
      <p>
        <strong className="replay-status" data-ok={result.statusCode < 400}>
          {result.statusCode}
        </strong>{' '}
        from <code>{result.url}</code> in {result.durationMs} ms
      </p>
      <details>
        <summary>Answer headers ({result.headers.length})</summary>
        <ul className="replay-headers">
          {result.headers.map(([name, value], index) => (
            <li key={index}>
              <code>
                {name}: {value}
              </code>
            </li>
          ))}
        </ul>
      </details>
      <pre className="raw-body" aria-label="Answer body">
        {result.body}
        {result.truncated ? '…' : ''}
      </pre>
    </>
  );
}

/** The headers ("Name: value" a line) and the body as text, checked before sending. */
function EditReplayDialog({
  message,
  defaultTarget,
  canUseIntake,
  onClose,
  onSend,
}: {
  message: WebhookFullMessage;
  defaultTarget: string;
  canUseIntake: boolean;
  onClose(): void;
  onSend(options: ReplayOptions): void;
}) {
  const hintId = useId();
  const raw = rawBodyText(message.rawBody);
  const [headers, setHeaders] = useState(() =>
    Object.entries(message.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
  );
  const [body, setBody] = useState(raw.kind === 'text' ? raw.text : '');
  const [target, setTarget] = useState(defaultTarget === 'intake' && !canUseIntake ? '' : defaultTarget);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const parsed = parseHeaderLines(headers);
    const contentType = parsed.ok ? parsed.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] : undefined;
    const issue = !parsed.ok ? parsed.issue : target !== 'intake' ? httpUrlProblem(target) : null;
    const bodyIssue = issue === null && raw.kind === 'text' && bodyEncoding(contentType) === 'json' ? jsonProblem(body) : null;
    setProblem(issue ?? bodyIssue);
    if (issue !== null || bodyIssue !== null || !parsed.ok) return;
    onSend({ target, headers: parsed.headers, ...(raw.kind === 'text' && { body: bytesBase64(new TextEncoder().encode(body)) }) });
    onClose();
  };

  return (
    <FormDialog title="Edit and replay" submitLabel="Send" onClose={onClose} onSubmit={submit}>
      <label>
        Send to
        <input
          type="text"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          placeholder={canUseIntake ? 'intake, or http://localhost:3000/webhook' : 'http://localhost:3000/webhook'}
          spellCheck={false}
          aria-describedby={hintId}
        />
      </label>
      <span id={hintId} className="hint">
        {canUseIntake ? '“intake” sends it to this webhook’s intake on the forwarder; or an http(s) URL.' : 'An http(s) URL.'}
      </span>
      <label>
        Headers, one “Name: value” a line
        <textarea value={headers} onChange={(e) => setHeaders(e.target.value)} rows={6} spellCheck={false} />
      </label>
      <label>
        Body
        <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={10} spellCheck={false} disabled={raw.kind !== 'text'} />
      </label>
      {raw.kind !== 'text' && <p className="hint">This body is not text: it is sent as received.</p>}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </FormDialog>
  );
}
