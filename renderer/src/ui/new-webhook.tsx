/**
 * The first webhook in one step (docs/webhooks-app.md, "The first webhook"): "Use the demo webhook" (the
 * embedded demo's ready one) or "New webhook…" (made in the developer portal for the signed-in user); main
 * creates and registers it, the secrets never come here. Then the panel shows where to send requests (with
 * `?hub=` for a hub) and a `curl` command to paste, and a registration the forwarder no longer knows offers
 * "Create it again".
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import type { NewWebhookInput, WebhookConnection, WebhookRouting, WebhookView } from '../../../common/ipc-contract';
import { parseKeyValues } from '../format/webhook-labels';
import { CopyButton } from './copy-button';
import { FormDialog } from './form-dialog';
import { useLinked, useStores } from './stores-context';

/** The key value a first webhook is routed by, unless the user types another. */
export const FIRST_KEY_VALUE = 'my-device';
const DEMO_ROUTING: WebhookRouting = { kind: 'keys', values: [FIRST_KEY_VALUE] };

export function NewWebhookButtons() {
  const { session, webhooks } = useStores();
  const demo = useStore(session, (s) => s.session?.backend.demoWebhook === true);
  const portal = useStore(session, (s) => s.session?.backend.portalUrl != null);
  const signedIn = useStore(session, (s) => s.session?.auth.status === 'signed-in');
  const pending = useStore(webhooks, (s) => s.pending);
  const linked = useLinked();
  const [open, setOpen] = useState(false);
  return (
    <div className="new-webhook-buttons">
      {demo && (
        <button
          type="button"
          className="primary"
          disabled={pending === 'create' || !linked}
          onClick={() => void webhooks.getState().create({ demo: DEMO_ROUTING })}
        >
          Use the demo webhook
        </button>
      )}
      {portal && (
        <button
          type="button"
          className={demo ? undefined : 'primary'}
          disabled={!signedIn || !linked}
          aria-describedby={signedIn ? undefined : 'new-webhook-sign-in'}
          onClick={() => setOpen(true)}
        >
          New webhook…
        </button>
      )}
      {portal && !signedIn && (
        <span id="new-webhook-sign-in" className="hint">
          Sign in to create a webhook in the developer portal with your account.
        </span>
      )}
      {open && <NewWebhookDialog onClose={() => setOpen(false)} />}
    </div>
  );
}

interface Fields {
  name: string;
  kind: WebhookRouting['kind'];
  keyValues: string;
  keyPath: string;
  hubId: string;
}

function NewWebhookDialog({ onClose }: { onClose(): void }) {
  const { webhooks, hubs } = useStores();
  const pending = useStore(webhooks, (s) => s.pending);
  const actionError = useStore(webhooks, (s) => s.actionError);
  const hubList = useStore(hubs, (s) => s.list);
  const hubOptions = hubList.status === 'loaded' ? hubList.hubs : [];
  const [fields, setFields] = useState<Fields>({ name: 'My webhook', kind: 'keys', keyValues: FIRST_KEY_VALUE, keyPath: 'body.device.id', hubId: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const change = (patch: Partial<Fields>) => setFields({ ...fields, ...patch });

  const submit = async () => {
    const input = inputFrom(fields, fields.hubId || hubOptions[0]?.id || '');
    setProblem(typeof input === 'string' ? input : null);
    if (typeof input === 'string') return;
    setAsked(true);
    if (await webhooks.getState().create({ portal: input })) onClose();
  };

  return (
    <FormDialog
      title="New webhook"
      submitLabel={pending === 'create' ? 'Creating…' : 'Create webhook'}
      submitDisabled={pending === 'create'}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <p className="hint">Created in the developer portal with your account; Hubdesk keeps its secret and tap credential, encrypted.</p>
      <label>
        Name
        <input value={fields.name} onChange={(e) => change({ name: e.target.value })} maxLength={100} autoComplete="off" />
      </label>
      <fieldset>
        <legend>Deliver to this app</legend>
        <label>
          Route by
          <select value={fields.kind} onChange={(e) => change({ kind: e.target.value === 'hub' ? 'hub' : 'keys' })}>
            <option value="keys">Key values</option>
            <option value="hub">Selected hub</option>
          </select>
        </label>
        {fields.kind === 'keys' ? (
          <>
            <label>
              Key path
              <input value={fields.keyPath} onChange={(e) => change({ keyPath: e.target.value })} maxLength={512} autoComplete="off" spellCheck={false} />
            </label>
            <label>
              Values
              <input value={fields.keyValues} onChange={(e) => change({ keyValues: e.target.value })} autoComplete="off" spellCheck={false} />
            </label>
          </>
        ) : (
          <label>
            Hub
            <select value={fields.hubId || hubOptions[0]?.id || ''} onChange={(e) => change({ hubId: e.target.value })}>
              {hubOptions.map(hubOption)}
            </select>
          </label>
        )}
      </fieldset>
      {(problem ?? (asked && actionError?.message)) && (
        <p className="error-text" role="alert">
          {problem ?? actionError?.message}
        </p>
      )}
    </FormDialog>
  );
}

const hubOption = (hub: { id: string; name: string }) => (
  <option key={hub.id} value={hub.id}>
    {hub.name}
  </option>
);

/** The input main takes, or what is missing. */
function inputFrom(fields: Fields, hubId: string): NewWebhookInput | string {
  const name = fields.name.trim();
  if (name === '') return 'Give the webhook a name.';
  if (fields.kind === 'hub') return hubId ? { name, routing: { kind: 'hub', hubId } } : 'Choose a hub.';
  const values = parseKeyValues(fields.keyValues);
  if (values.length === 0) return 'Enter at least one key value.';
  const keyPath = fields.keyPath.trim();
  if (keyPath === '') return 'Enter the key path the forwarder reads the value at, e.g. body.device.id.';
  return { name, routing: { kind: 'keys', values }, keyPath };
}

/** The webhook just made: where to send requests, and a request to send now. */
export function FirstWebhookPanel() {
  const { webhooks } = useStores();
  const first = useStore(webhooks, (s) => s.first);
  if (!first) return null;
  const { view, example } = first;
  return (
    <section className="first-webhook-panel" aria-labelledby="first-webhook-title">
      <h3 id="first-webhook-title">{view.webhookName ?? view.label ?? 'Your webhook'} is ready</h3>
      {example === null ? (
        <p className="hint">No webhook forwarder is configured, so it has no intake URL.</p>
      ) : (
        <>
          <p>Send requests to</p>
          <p className="intake-url">
            <code aria-label="Intake URL">{example.url}</code>{' '}
            <CopyButton text={example.url} label="Copy URL" copied="Intake URL copied." failed="Could not copy; select the URL and copy it." />
          </p>
          <p>Try it: paste this in a terminal, and the message appears in the inspector.</p>
          <pre className="first-webhook-curl" aria-label="Example curl command">
            {example.curl}
          </pre>
          <CopyButton text={example.curl} label="Copy command" copied="Command copied." failed="Could not copy; select the command and copy it." />
        </>
      )}
      <p>
        <button type="button" onClick={() => webhooks.getState().dismissFirst()}>
          Done
        </button>
      </p>
    </section>
  );
}

/** Under a registration whose webhook the forwarder no longer knows: make it again (a new intake URL). Remove is beside it. */
export function GoneWebhookActions({ view, connection }: { view: WebhookView; connection: WebhookConnection }) {
  const { webhooks } = useStores();
  const pending = useStore(webhooks, (s) => s.pending);
  const linked = useLinked();
  if (connection.state !== 'refused' || connection.gone !== true) return null;
  return (
    <p className="gone-actions">
      <button
        type="button"
        aria-label={`Create ${view.webhookName ?? view.label ?? view.id} again`}
        disabled={pending === 'recreate' || !linked}
        onClick={() => void webhooks.getState().recreate(view.id)}
      >
        Create it again
      </button>{' '}
      <span className="hint">or remove it.</span>
    </p>
  );
}
