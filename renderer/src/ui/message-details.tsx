/**
 * One inspector entry in full: the routing decision, headers, query, body as a tree, and the raw body.
 * The list carries only a summary (with a short preview); the full message is fetched from main when
 * the entry is selected (`details`), with a loading state, and main may no longer keep it (its byte
 * budget evicts the oldest bodies): then the preview is what is shown, and why.
 */
import type { SignatureVerdict, WebhookEntry, WebhookFullMessage } from '../../../common/ipc-contract';
import { formatSize, formatTime, rawBodyText, signatureLabel } from '../format/webhook-labels';
import type { MessageDetailsState } from '../stores/webhooks-store';
import { JsonTree } from './json-tree';
import { MessageActions } from './message-actions';

export function MessageDetails({ entry, details, intakeUrl }: { entry: WebhookEntry | undefined; details: MessageDetailsState; intakeUrl: string | null }) {
  return (
    <section role="region" aria-label="Message details" className="message-details">
      {!entry ? <p className="muted">Choose a message to see its details.</p> : <Details entry={entry} details={details} intakeUrl={intakeUrl} />}
    </section>
  );
}

function Details({ entry, details, intakeUrl }: { entry: WebhookEntry; details: MessageDetailsState; intakeUrl: string | null }) {
  const full = details.status === 'kept' ? details.message : undefined;
  return (
    <>
      <h2>
        {entry.method ?? 'Message'} {formatTime(entry.receivedAt)} · {formatSize(entry.size)}
      </h2>
      <p className="muted">
        Webhook {entry.webhookId} · message {entry.id}
      </p>
      {details.status === 'kept' && (
        <>
          <SignatureLine verdict={details.signature} />
          <MessageActions message={details.message} intakeUrl={intakeUrl} />
        </>
      )}
      <h3>Routing</h3>
      {/* The full message has the decision uncut; a tap event that came after it was fetched patched only the entry. */}
      <RoutingDecision entry={{ ...entry, routing: full?.routing ?? entry.routing }} />
      {entry.awaitingDelivery && !full ? (
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
    </>
  );
}

function FullBody({ message }: { message: WebhookFullMessage }) {
  const raw = rawBodyText(message.rawBody);
  return (
    <>
      <h3>Body</h3>
      {message.bodyOmitted ? (
        <p className="muted">The parsed body is too large to show here; the raw body is below.</p>
      ) : (
        <JsonTree value={message.body} label="Body" />
      )}
      <h3>Raw{raw.kind === 'base64' ? ' (base64: not UTF-8 text)' : ''}</h3>
      {message.rawTruncated && <p className="muted">Only the beginning of the raw body is shown: the whole of it is too large to send to this window.</p>}
      <pre className="raw-body" aria-label="Raw body">
        {raw.text}
      </pre>
    </>
  );
}

function SignatureLine({ verdict }: { verdict: SignatureVerdict }) {
  const { label, detail } = signatureLabel(verdict);
  return (
    <p className="signature" data-status={verdict.status}>
      <span className="signature-chip">{label}</span> <span className="muted">{detail}</span>
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

function RoutingDecision({ entry }: { entry: Pick<WebhookEntry, 'routing' | 'delivered' | 'awaitingDelivery'> }) {
  const { routing } = entry;
  return (
    <dl className="routing-decision">
      <dt>Delivered to this app</dt>
      <dd>{entry.delivered ? 'Yes' : entry.awaitingDelivery ? 'Not yet: routed here, on its way' : 'No'}</dd>
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
          <dd>{routing.matched.length === 0 ? 'none' : routing.matched.map((m) => (m.hubId ? `${m.hubId} (${m.listenerId})` : m.listenerId)).join(', ')}</dd>
          {routing.reason && (
            <>
              <dt>Why</dt>
              <dd>{routing.reason}</dd>
            </>
          )}
        </>
      )}
    </dl>
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
