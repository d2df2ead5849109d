/**
 * The key-path playground (docs/webhooks-app.md, "Finding messages"): on the selected message, type a key path and see what it
 * extracts, or where it does not parse, and which of this app's registrations that value would
 * match. It runs the forwarder's own code (`parseKeyPath`, `evaluateKeyPath`, `canonicalKeyValue`),
 * so what it says is what routing would do. Registrations of other apps are not known here.
 */
import { useId, useState } from 'react';
import { useStore } from 'zustand';
import type { WebhookFullMessage } from '../../../common/ipc-contract';
import { canonicalKeyValue, evaluateKeyPath, KeyPathError, parseKeyPath } from '../../../common/key-path';
import { registrationViews } from '../stores/webhook-registrations-slice';
import { useStores } from './stores-context';

export function KeyPathPlayground({ message }: { message: WebhookFullMessage }) {
  const { webhooks } = useStores();
  const views = useStore(webhooks, registrationViews);
  const [source, setSource] = useState(message.routing?.keyPath ?? 'body.');
  const resultId = useId();
  const outcome = tryKeyPath(source, message);

  const matching =
    outcome.kind === 'value'
      ? views.filter(
          (view) =>
            view.routing.kind === 'keys' &&
            outcome.canonical !== undefined &&
            view.routing.values.some((value) => canonicalKeyValue(value) === outcome.canonical),
        )
      : [];

  return (
    <section className="key-path-playground" aria-label="Key-path playground">
      <h3>Key-path playground</h3>
      <label>
        Key path
        <input
          value={source}
          onChange={(event) => setSource(event.target.value)}
          spellCheck={false}
          maxLength={512}
          className="mono"
          aria-describedby={resultId}
          aria-invalid={outcome.kind === 'error'}
        />
      </label>
      <div id={resultId} aria-live="polite">
        {outcome.kind === 'error' && (
          <p className="error-text">
            At {outcome.position + 1}: {outcome.message}
          </p>
        )}
        {outcome.kind === 'nothing' && <p className="muted">Extracts nothing from this message: routing by it would match no registration.</p>}
        {outcome.kind === 'value' && (
          <>
            <p>
              Extracts <code>{outcome.json}</code>
              {outcome.canonical === undefined && ' — not a string, number or boolean, so it can match no registration'}
            </p>
            {outcome.canonical !== undefined && (
              <p className="muted">
                {matching.length === 0
                  ? `None of this app's registrations has the value ${outcome.canonical}.`
                  : `Would match this app's ${matching.map((view) => view.label ?? view.id).join(', ')}.`}
              </p>
            )}
          </>
        )}
      </div>
    </section>
  );
}

type Outcome = { kind: 'error'; message: string; position: number } | { kind: 'nothing' } | { kind: 'value'; json: string; canonical: string | undefined };

function tryKeyPath(source: string, message: WebhookFullMessage): Outcome {
  try {
    const path = parseKeyPath(source);
    const value = evaluateKeyPath(path, { body: message.body, headers: message.headers, query: message.query });
    if (value === undefined) return { kind: 'nothing' };
    return { kind: 'value', json: JSON.stringify(value) ?? String(value), canonical: canonicalKeyValue(value) };
  } catch (error) {
    if (error instanceof KeyPathError) return { kind: 'error', message: error.message, position: error.position };
    throw error;
  }
}
