/** One inspector entry in full: the routing decision, headers, query, body as a tree, and the raw body. */
import type { WebhookEntry } from '../../../common/ipc-contract';
import { formatSize, formatTime, rawBodyText } from '../format/webhook-labels';
import { JsonTree } from './json-tree';

export function MessageDetails({ entry }: { entry: WebhookEntry | undefined }) {
  return (
    <section role="region" aria-label="Message details" className="message-details">
      {!entry ? <p className="muted">Choose a message to see its details.</p> : <Details entry={entry} />}
    </section>
  );
}

function Details({ entry }: { entry: WebhookEntry }) {
  const raw = rawBodyText(entry.rawBody);
  return (
    <>
      <h2>
        {entry.method ?? 'Message'} {formatTime(entry.receivedAt)} · {formatSize(entry.size)}
      </h2>
      <p className="muted">
        Webhook {entry.webhookId} · message {entry.id}
      </p>
      <h3>Routing</h3>
      <RoutingDecision entry={entry} />
      <h3>Headers</h3>
      <PairsTable pairs={entry.headers} caption="Headers" />
      <h3>Query</h3>
      <PairsTable pairs={entry.query} caption="Query" />
      <h3>Body</h3>
      <JsonTree value={entry.body} label="Body" />
      <h3>Raw{raw.kind === 'base64' ? ' (base64: not UTF-8 text)' : ''}</h3>
      <pre className="raw-body" aria-label="Raw body">
        {raw.text}
      </pre>
    </>
  );
}

function RoutingDecision({ entry }: { entry: WebhookEntry }) {
  const { routing } = entry;
  return (
    <dl className="routing-decision">
      <dt>Delivered to this app</dt>
      <dd>{entry.delivered ? 'Yes' : 'No'}</dd>
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
