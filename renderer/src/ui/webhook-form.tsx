/**
 * Adds a webhook registration. The secret, the optional tap credential and the optional signing secret go straight to main (which
 * encrypts them) and the fields are emptied after a successful add; the renderer never gets them back. Hubs can be chosen only while
 * signed in (the hub list comes from the cloud); key values work either way.
 */
import { type FormEvent, useState } from 'react';
import { useStore } from 'zustand';
import { TAP_CREDENTIAL_MAX_LENGTH, WEBHOOK_MAX_KEY_VALUES, type WebhookRouting } from '../../../common/ipc-contract';
import { TAP_CREDENTIAL_PATTERN } from '../../../common/webhook-protocol';
import { parseKeyValues } from '../format/webhook-labels';
import { useStores } from './stores-context';

export function WebhookForm() {
  const { webhooks, hubs } = useStores();
  const pending = useStore(webhooks, (s) => s.pending);
  const hubList = useStore(hubs, (s) => s.list);
  const [id, setId] = useState('');
  const [secret, setSecret] = useState('');
  const [tapCredential, setTapCredential] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
  const [kind, setKind] = useState<WebhookRouting['kind']>('keys');
  const [hubId, setHubId] = useState('');
  const [keyValues, setKeyValues] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const hubOptions = hubList.status === 'loaded' ? hubList.hubs : [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const routing = routingFrom(kind, hubId || hubOptions[0]?.id || '', keyValues);
    const tap = tapCredential.trim();
    const issue = routing.ok ? validate(id.trim(), secret, tap) : routing.issue;
    setProblem(issue);
    if (issue !== null || !routing.ok) return;
    const signing = signingSecret.trim();
    if (await webhooks.getState().add({ id: id.trim(), secret, routing: routing.value, ...(tap !== '' && { tapCredential: tap }), ...(signing !== '' && { signingSecret: signing }) })) {
      setId('');
      setSecret('');
      setTapCredential('');
      setSigningSecret('');
    }
  };

  return (
    <form className="webhook-form" aria-label="Add a webhook" onSubmit={(event) => void submit(event)} noValidate>
      <h2>Add a webhook</h2>
      <label>
        Webhook ID
        <input value={id} onChange={(e) => setId(e.target.value)} autoComplete="off" spellCheck={false} maxLength={200} />
      </label>
      <label>
        Webhook secret
        <input type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="off" maxLength={512} />
      </label>
      <label>
        Tap credential (optional)
        <input
          type="password"
          value={tapCredential}
          onChange={(e) => setTapCredential(e.target.value)}
          autoComplete="off"
          maxLength={TAP_CREDENTIAL_MAX_LENGTH}
          aria-describedby="tap-credential-hint"
        />
      </label>
      <span id="tap-credential-hint" className="hint">
        The webhook owner&apos;s, from the developer portal: shows the routing decisions and other hubs&apos; requests.
      </span>
      <label>
        Signing secret (optional)
        <input type="password" value={signingSecret} onChange={(e) => setSigningSecret(e.target.value)} autoComplete="off" maxLength={512} aria-describedby="signing-secret-hint" />
      </label>
      <span id="signing-secret-hint" className="hint">
        The secret the sending service signs with (Standard Webhooks whsec_…, GitHub, Stripe or Slack): each message&apos;s signature is then checked.
      </span>
      <fieldset>
        <legend>Deliver to this app</legend>
        <label className="inline">
          <input type="radio" name="routing" checked={kind === 'hub'} onChange={() => setKind('hub')} />
          Selected hub
        </label>
        <label className="inline">
          <input type="radio" name="routing" checked={kind === 'keys'} onChange={() => setKind('keys')} />
          Key values
        </label>
        {kind === 'hub' && (
          <>
            <label>
              Hub
              <select value={hubId || hubOptions[0]?.id || ''} onChange={(e) => setHubId(e.target.value)} disabled={hubOptions.length === 0}>
                {hubOptions.map((hub) => (
                  <option key={hub.id} value={hub.id}>
                    {hub.name}
                  </option>
                ))}
              </select>
            </label>
            {hubOptions.length === 0 && <span className="hint">Sign in to choose one of your hubs.</span>}
          </>
        )}
        {kind === 'keys' && (
          <>
            <label>
              Values
              <input value={keyValues} onChange={(e) => setKeyValues(e.target.value)} placeholder="lamp-1, 42" autoComplete="off" spellCheck={false} aria-describedby="key-values-hint" />
            </label>
            <span id="key-values-hint" className="hint">
              Comma-separated; values that look like plain numbers (42, -2.5) are sent as numbers.
            </span>
          </>
        )}
      </fieldset>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="primary" disabled={pending === 'add'}>
        Add webhook
      </button>
    </form>
  );
}

function routingFrom(kind: WebhookRouting['kind'], hubId: string, keyValues: string): { ok: true; value: WebhookRouting } | { ok: false; issue: string } {
  if (kind === 'hub') return hubId ? { ok: true, value: { kind: 'hub', hubId } } : { ok: false, issue: 'Choose a hub (sign in to see your hubs).' };
  const values = parseKeyValues(keyValues);
  if (values.length === 0) return { ok: false, issue: 'Enter at least one key value.' };
  if (values.length > WEBHOOK_MAX_KEY_VALUES) return { ok: false, issue: `Enter at most ${WEBHOOK_MAX_KEY_VALUES} key values.` };
  return { ok: true, value: { kind: 'keys', values } };
}

function validate(id: string, secret: string, tapCredential: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(id)) return 'The webhook ID is 1–200 letters, digits, "-" or "_".';
  if (secret.length < 8) return 'The webhook secret is at least 8 characters.';
  if (tapCredential !== '' && !TAP_CREDENTIAL_PATTERN.test(tapCredential)) return 'The tap credential is "tc_…", a dot and its secret, as the developer portal shows it.';
  return null;
}
