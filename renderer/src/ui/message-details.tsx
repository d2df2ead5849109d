/**
 * One inspector entry in full: the routing decision, headers, query, body as a tree, and the raw body.
 * The list carries only a summary (with a short preview); the full message is fetched from main when
 * the entry is selected (`details`), with a loading state, and main may no longer keep it (its byte
 * budget evicts the oldest bodies): then the preview is what is shown, and why.
 */
import { DROPPED_BY_FORWARDER, type SignatureVerdict, type WebhookEntry, type WebhookFullMessage } from '../../../common/ipc-contract';
import { type Ref, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import { base64ByteLength, base64Bytes } from '../../../common/base64';
import { formatFullTime } from '../format/date-time';
import { decisionSentence, matchedWords, type RoutingNames } from '../format/routing-words';
import { formatSize, hexDump, jsonErrorExcerpt, prettyJson, rawBodyText, refusedBodyNote, requestPath, signatureLabel } from '../format/webhook-labels';
import type { MessageDetailsState } from '../stores/webhooks-state';
import { JsonTree } from './json-tree';
import { KeyPathPlayground } from './key-path-playground';
import { MessageActions } from './message-actions';
import { ForwardLine } from './forward-status';
import { useRoutingNames, useWebhookTitles } from './use-webhook-titles';

export interface MessageDetailsProps {
  entry: WebhookEntry | undefined;
  details: MessageDetailsState;
  intakeUrl: string | null;
  /** In a narrow window the details replace the list: the way back to it. */
  onBack?: () => void;
  /** The pane itself, which Enter focuses. */
  ref?: Ref<HTMLElement>;
}

export function MessageDetails({ entry, details, intakeUrl, onBack, ref }: MessageDetailsProps) {
  const pane = useRef<HTMLElement>(null);
  useImperativeHandle(ref, () => pane.current!, []); // the section is always rendered
  const key = entry ? `${entry.webhookId}/${entry.id}` : null;
  // Another message starts at its top, not where the last one was scrolled to.
  useLayoutEffect(() => {
    if (pane.current) pane.current.scrollTop = 0;
  }, [key]);
  return (
    <section ref={pane} role="region" aria-label="Message details" className="message-details" tabIndex={-1}>
      {onBack && (
        <button type="button" className="back-button" onClick={onBack}>
          <span aria-hidden="true">← </span>Back to messages
        </button>
      )}
      {!entry ? <p className="muted">Choose a message to see its details.</p> : <Details entry={entry} details={details} intakeUrl={intakeUrl} />}
    </section>
  );
}

function Details({ entry, details, intakeUrl }: { entry: WebhookEntry; details: MessageDetailsState; intakeUrl: string | null }) {
  const full = details.status === 'kept' ? details.message : undefined;
  const title = useWebhookTitles()(entry.webhookId);
  return (
    <>
      <h2 className="details-title">
        {entry.method ?? 'Message'} <span className="details-path">{requestPath(entry)}</span>
      </h2>
      <p className="muted">
        {formatFullTime(entry.receivedAt)} · {formatSize(entry.size)} · {title} · message {entry.id}
      </p>
      {details.status === 'kept' && (
        <>
          <SignatureLine verdict={details.signature} archivedAt={entry.imported ? entry.receivedAt : undefined} claimed={details.message.archivedSignature} />
          <ForwardLine webhookId={entry.webhookId} id={entry.id} />
          <MessageActions message={details.message} intakeUrl={intakeUrl} />
        </>
      )}
      <h3>Routing</h3>
      {/* The full message has the decision uncut; a tap event that came after it was fetched patched only the entry. */}
      <RoutingDecision entry={{ ...entry, routing: full?.routing ?? entry.routing }} />
      {entry.droppedByForwarder && !full ? (
        <p className="muted" role="status">
          {DROPPED_BY_FORWARDER} Only what the inspector saw of it is left: its routing, size and time.
        </p>
      ) : entry.awaitingDelivery && !full ? (
        <p className="muted" role="status">
          This message was routed to this app and has not been received yet: its headers, query and body come with it.
        </p>
      ) : (
        <Request entry={entry} full={full} details={details} />
      )}
    </>
  );
}

function Request({ entry, full, details }: { entry: WebhookEntry; full: WebhookFullMessage | undefined; details: MessageDetailsState }) {
  return (
    <>
      <h3>Headers</h3>
      <PairsTable pairs={full?.headers ?? entry.headers} caption="Headers" />
      <h3>Query</h3>
      <PairsTable pairs={full?.query ?? entry.query} caption="Query" />
      {!full && entry.pairsCut && <p className="muted">Long headers or query values are cut here; the full message has them whole.</p>}
      {full ? <FullBody message={full} /> : <BodyPreview entry={entry} details={details} />}
      {full && !full.bodyOmitted && <KeyPathPlayground key={`${full.webhookId}/${full.id}`} message={full} />}
    </>
  );
}

function FullBody({ message }: { message: WebhookFullMessage }) {
  const raw = rawBodyText(message.rawBody);
  const views = rawViews(raw);
  const [chosen, setChosen] = useState<RawView>(views[0]!);
  const view = views.includes(chosen) ? chosen : views[0]!;
  return (
    <>
      <h3>Body</h3>
      {message.rejected ? (
        <RefusedBody message={message} rejected={message.rejected} text={raw.kind === 'text' ? raw.text : undefined} />
      ) : message.bodyOmitted ? (
        <p className="muted">The parsed body is too large to show here; the raw body is below.</p>
      ) : (
        <JsonTree value={message.body} label="Body" />
      )}
      <div className="raw-heading">
        <h3>Raw{raw.kind === 'base64' ? ' (not UTF-8 text)' : ''}</h3>
        {views.length > 1 && (
          <div role="group" aria-label="Show the raw body as" className="segmented">
            {views.map((option) => (
              <button key={option} type="button" aria-pressed={option === view} onClick={() => setChosen(option)}>
                {RAW_VIEW_LABELS[option]}
              </button>
            ))}
          </div>
        )}
      </div>
      {message.rawTruncated && <p className="muted">Only the beginning of the raw body is shown: the whole of it is too large to send to this window.</p>}
      <pre className="raw-body" aria-label="Raw body">
        {rawBodyAs(view, raw, message.rawBody)}
      </pre>
    </>
  );
}

/** A refused intake's body is not parsed: what the forwarder kept of it, and where its JSON stops. */
function RefusedBody({
  message,
  rejected,
  text,
}: {
  message: WebhookFullMessage;
  rejected: NonNullable<WebhookFullMessage['rejected']>;
  text: string | undefined;
}) {
  const at = rejected.jsonError;
  return (
    <>
      <p className="muted">{refusedBodyNote(rejected, base64ByteLength(message.rawBody), message.size)}</p>
      {at && (
        <>
          <p role="note">
            The JSON stops parsing at line {at.line}, column {at.column} (byte {at.offset}).
          </p>
          {text !== undefined && (
            <pre className="raw-body" aria-label="Where the JSON stops">
              {jsonErrorExcerpt(text, at)}
            </pre>
          )}
        </>
      )}
    </>
  );
}

type RawView = 'text' | 'pretty' | 'base64' | 'hex';
const RAW_VIEW_LABELS: Record<RawView, string> = { text: 'As received', pretty: 'Pretty JSON', base64: 'Base64', hex: 'Hex' };

/** The ways a raw body can be shown: text (and pretty-printed when it is JSON), or base64 and hex. */
function rawViews(raw: ReturnType<typeof rawBodyText>): RawView[] {
  if (raw.kind === 'base64') return ['hex', 'base64'];
  return prettyJson(raw.text) === undefined ? ['text'] : ['text', 'pretty'];
}

function rawBodyAs(view: RawView, raw: ReturnType<typeof rawBodyText>, base64: string): string {
  if (view === 'pretty') return prettyJson(raw.text) ?? raw.text;
  if (view === 'hex') return hexDump(base64Bytes(base64));
  return raw.text;
}

/** `archivedAt`: an imported message's arrival as its file says; main checked its signature against now instead. */
function SignatureLine({ verdict, archivedAt, claimed }: { verdict: SignatureVerdict; archivedAt?: string; claimed?: SignatureVerdict }) {
  const { label, detail } = signatureLabel(verdict);
  return (
    <p className="signature" data-status={verdict.status}>
      <span className="signature-chip">{label}</span> <span className="muted">{detail}</span>
      {archivedAt !== undefined && verdict.status !== 'unsigned' && (
        <span className="muted"> Checked now; the file says it arrived {formatFullTime(archivedAt)}.</span>
      )}
      {claimed !== undefined && <span className="muted"> The exporting app’s check, as the file says: {signatureLabel(claimed).label}.</span>}
    </p>
  );
}

function BodyPreview({ entry, details }: { entry: WebhookEntry; details: MessageDetailsState }) {
  return (
    <>
      <h3>Body</h3>
      {details.status === 'loading' && (
        <p className="muted" role="status">
          Loading the full message…
        </p>
      )}
      {details.status === 'gone' && (
        <p className="muted" role="status">
          {details.reason}
        </p>
      )}
      {details.status === 'error' && (
        <p className="error-text" role="alert">
          {details.error.message}
        </p>
      )}
      <p className="muted">
        Preview{entry.previewKind === 'base64' ? ' (base64: not UTF-8 text)' : ''}
        {entry.truncated ? `: the first bytes of ${formatSize(entry.bodyBytes)}` : ''}
      </p>
      <pre className="raw-body" aria-label="Body preview">
        {entry.preview}
        {entry.truncated ? '…' : ''}
      </pre>
    </>
  );
}

function RoutingDecision({
  entry,
}: {
  entry: Pick<WebhookEntry, 'webhookId' | 'routing' | 'delivered' | 'awaitingDelivery' | 'droppedByForwarder' | 'rejected'>;
}) {
  const { routing } = entry;
  const names: RoutingNames = useRoutingNames()(entry.webhookId);
  return (
    <>
      <p className="decision-sentence" data-rejected={entry.rejected !== undefined}>
        {decisionSentence(entry, names)}
      </p>
      <dl className="routing-decision">
        <dt>Delivered to this app</dt>
        <dd>
          {entry.delivered
            ? 'Yes'
            : entry.droppedByForwarder
              ? 'No: routed here, then dropped by the forwarder'
              : entry.awaitingDelivery
                ? 'Not yet: routed here, on its way'
                : 'No'}
        </dd>
        {!routing && (
          <>
            <dt>Decision</dt>
            <dd>Not seen: the inspector was not connected when this arrived.</dd>
          </>
        )}
        {routing && (
          <>
            <dt>Option</dt>
            <dd>{routing.option}</dd>
            {routing.keyPath !== undefined && (
              <>
                <dt>Key path</dt>
                <dd>
                  <code>{routing.keyPath}</code>
                </dd>
              </>
            )}
            {routing.option === 'key-path' && (
              <>
                <dt>Extracted value</dt>
                <dd>{routing.value === undefined ? 'nothing' : <code>{JSON.stringify(routing.value)}</code>}</dd>
              </>
            )}
            <dt>Matched</dt>
            <dd>{matchedWords(entry, names) ?? 'no one'}</dd>
            {routing.reason && (
              <>
                <dt>Why</dt>
                <dd>{routing.reason}</dd>
              </>
            )}
          </>
        )}
      </dl>
    </>
  );
}

function PairsTable({ pairs, caption }: { pairs: Record<string, string>; caption: string }) {
  const rows = Object.entries(pairs);
  if (rows.length === 0) return <p className="muted">None</p>;
  return (
    <table className="pairs">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
