/**
 * The floor of "page start → first rows" on this machine (inspector-history.ts; docs/benchmarks.md, "The
 * inspector on a large history"): React 19 alone, as the app uses it, drawing four tabs and the first
 * 25 rows of a list of 200 messages, each row as the inspector words it (a time by `Intl`, method, path,
 * size, routing), from data already in the page: no link to main, no store, no schema.
 */
import { createRoot } from 'react-dom/client';

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const VIEWS = ['Hubs', 'Energy', 'Webhooks', 'Settings'];
const MESSAGES = Array.from({ length: 200 }, (_, n) => ({
  id: `m${n}`,
  at: Date.now() - n * 1000,
  method: n % 10 === 0 ? 'PUT' : 'POST',
  path: `/webhook/demo?hub=home-${n % 3}`,
  size: 300 + (n % 7) * 100,
  routing: n % 3 === 0 ? '1 other hub' : 'nothing: body.device.id matches no registration',
}));

function Row({ message }: { message: (typeof MESSAGES)[number] }) {
  return (
    <div role="listitem" className="inspector-row">
      <button type="button">
        <span>{TIME.format(message.at)}</span> <b>{message.method}</b> <span>{message.path}</span>
        <br />
        <small>
          {message.size} B · {message.routing}
        </small>
      </button>
    </div>
  );
}

function Page() {
  return (
    <main>
      <div role="tablist">
        {VIEWS.map((view) => (
          <button key={view} type="button" role="tab" aria-selected={view === 'Webhooks'}>
            {view}
          </button>
        ))}
      </div>
      <div role="list" aria-label="Webhook messages">
        {MESSAGES.slice(0, 25).map((message) => (
          <Row key={message.id} message={message} />
        ))}
      </div>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
