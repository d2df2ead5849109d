/**
 * Adds a webhook registration, in a dialog (issue 14 §1). Every field is checked on Add, in the order
 * shown, and each problem is said under its own field (`aria-invalid`, `aria-describedby`); the focus
 * goes to the first field to fix, and a field is checked again as it is edited. The secret, the
 * optional tap credential and the optional signing secret go straight to main (which encrypts them),
 * and the renderer never gets them back. Hubs can be chosen only while signed in (the hub list comes
 * from the cloud); key values work either way.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { TAP_CREDENTIAL_MAX_LENGTH, WEBHOOK_MAX_KEY_VALUES, type WebhookRegistrationInput, type WebhookRouting } from '../../../common/ipc-contract';
import { TAP_CREDENTIAL_PATTERN } from '../../../common/webhook-protocol';
import { parseKeyValues } from '../format/webhook-labels';
import { FormDialog } from './form-dialog';
import { useStores } from './stores-context';

interface Fields {
  id: string;
  secret: string;
  tapCredential: string;
  signingSecret: string;
  kind: WebhookRouting['kind'];
  hubId: string;
  keyValues: string;
}

const FIELD_ORDER = ['id', 'secret', 'tapCredential', 'signingSecret', 'routing'] as const;
type FieldName = (typeof FIELD_ORDER)[number];
type Problems = Partial<Record<FieldName, string>>;

export function AddWebhookButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        Add a webhook…
      </button>
      {open && <AddWebhookDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function AddWebhookDialog({ onClose }: { onClose(): void }) {
  const { webhooks, hubs } = useStores();
  const pending = useStore(webhooks, (s) => s.pending);
  const actionError = useStore(webhooks, (s) => s.actionError);
  const hubList = useStore(hubs, (s) => s.list);
  const hubOptions = hubList.status === 'loaded' ? hubList.hubs : [];
  const [fields, setFields] = useState<Fields>({ id: '', secret: '', tapCredential: '', signingSecret: '', kind: 'keys', hubId: '', keyValues: '' });
  const [problems, setProblems] = useState<Problems>({});
  /** Main's answer is shown only once this dialog has asked (not an earlier action's error). */
  const [asked, setAsked] = useState(false);
  const chosenHub = fields.hubId || hubOptions[0]?.id || '';

  const change = (patch: Partial<Fields>) => {
    const next = { ...fields, ...patch };
    setFields(next);
    // A field already said to be wrong is checked again as it is edited.
    if (Object.keys(problems).length > 0) setProblems(check(next, chosenHub).problems);
  };

  const submit = async () => {
    const { problems: found, input } = check(fields, chosenHub);
    setProblems(found);
    const first = FIELD_ORDER.find((name) => found[name] !== undefined);
    if (first !== undefined) return document.getElementById(`add-webhook-${first}`)?.focus();
    if (!input) return;
    setAsked(true);
    if (await webhooks.getState().add(input)) onClose();
  };

  const described = (name: FieldName, hint?: string) => ({
    'aria-invalid': problems[name] !== undefined,
    'aria-describedby': [problems[name] !== undefined ? `add-webhook-${name}-problem` : undefined, hint].filter(Boolean).join(' ') || undefined,
    id: `add-webhook-${name}`,
  });
  const problem = (name: FieldName) =>
    problems[name] !== undefined && (
      <span id={`add-webhook-${name}-problem`} className="error-text field-problem">
        {problems[name]}
      </span>
    );

  return (
    <FormDialog title="Add a webhook" submitLabel="Add webhook" submitDisabled={pending === 'add'} onClose={onClose} onSubmit={() => void submit()}>
      <label>
        Webhook ID
        <input type="text" value={fields.id} onChange={(e) => change({ id: e.target.value })} autoComplete="off" spellCheck={false} maxLength={200} {...described('id')} />
      </label>
      {problem('id')}
      <label>
        Webhook secret
        <input type="password" value={fields.secret} onChange={(e) => change({ secret: e.target.value })} autoComplete="off" maxLength={512} {...described('secret')} />
      </label>
      {problem('secret')}
      <label>
        Tap credential (optional)
        <input
          type="password"
          value={fields.tapCredential}
          onChange={(e) => change({ tapCredential: e.target.value })}
          autoComplete="off"
          maxLength={TAP_CREDENTIAL_MAX_LENGTH}
          {...described('tapCredential', 'tap-credential-hint')}
        />
      </label>
      {problem('tapCredential')}
      <span id="tap-credential-hint" className="hint">
        The webhook owner&apos;s, from the developer portal: shows the routing decisions and other hubs&apos; requests.
      </span>
      <label>
        Signing secret (optional)
        <input type="password" value={fields.signingSecret} onChange={(e) => change({ signingSecret: e.target.value })} autoComplete="off" maxLength={512} {...described('signingSecret', 'signing-secret-hint')} />
      </label>
      {problem('signingSecret')}
      <span id="signing-secret-hint" className="hint">
        The secret the sending service signs with (Standard Webhooks whsec_…, GitHub, Stripe or Slack): each message&apos;s signature is then checked.
      </span>
      <fieldset>
        <legend>Deliver to this app</legend>
        <label className="inline">
          <input type="radio" name="routing" checked={fields.kind === 'hub'} onChange={() => change({ kind: 'hub' })} />
          Selected hub
        </label>
        <label className="inline">
          <input type="radio" name="routing" checked={fields.kind === 'keys'} onChange={() => change({ kind: 'keys' })} />
          Key values
        </label>
        {fields.kind === 'hub' && (
          <>
            <label>
              Hub
              <select value={chosenHub} onChange={(e) => change({ hubId: e.target.value })} disabled={hubOptions.length === 0} {...described('routing')}>
                {hubOptions.map((hub) => (
                  <option key={hub.id} value={hub.id}>
                    {hub.name}
                  </option>
                ))}
              </select>
            </label>
            {hubOptions.length === 0 ? (
              <span className="hint">Sign in to choose one of your hubs.</span>
            ) : (
              <span className="hint">Each time it connects, Hubdesk proves to the forwarder with your sign-in that it acts for this hub.</span>
            )}
          </>
        )}
        {fields.kind === 'keys' && (
          <>
            <label>
              Values
              <input type="text" value={fields.keyValues} onChange={(e) => change({ keyValues: e.target.value })} placeholder="lamp-1, 42" autoComplete="off" spellCheck={false} {...described('routing', 'key-values-hint')} />
            </label>
            <span id="key-values-hint" className="hint">
              Comma-separated; values that look like plain numbers (42, -2.5) are sent as numbers.
            </span>
          </>
        )}
        {problem('routing')}
      </fieldset>
      {asked && actionError && (
        <p className="error-text" role="alert">
          {actionError.message}
        </p>
      )}
    </FormDialog>
  );
}

/** Every field's problem, in the order shown, and the input when there is none. */
function check(fields: Fields, hubId: string): { problems: Problems; input?: WebhookRegistrationInput } {
  const problems: Problems = {};
  const id = fields.id.trim();
  const tap = fields.tapCredential.trim();
  const signing = fields.signingSecret.trim();
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(id)) problems.id = id === '' ? 'Enter the webhook ID the developer portal shows.' : 'The webhook ID is 1–200 letters, digits, "-" or "_".';
  if (fields.secret.length < 8) problems.secret = fields.secret === '' ? 'Enter the webhook secret.' : 'The webhook secret is at least 8 characters.';
  if (tap !== '' && !TAP_CREDENTIAL_PATTERN.test(tap)) problems.tapCredential = 'The tap credential is "tc_…", a dot and its secret, as the developer portal shows it.';
  if (signing.length > 512) problems.signingSecret = 'The signing secret is at most 512 characters.';
  const routing = routingFrom(fields.kind, hubId, fields.keyValues);
  if (!routing.ok) problems.routing = routing.issue;
  if (Object.keys(problems).length > 0 || !routing.ok) return { problems };
  return { problems, input: { id, secret: fields.secret, routing: routing.value, ...(tap !== '' && { tapCredential: tap }), ...(signing !== '' && { signingSecret: signing }) } };
}

function routingFrom(kind: WebhookRouting['kind'], hubId: string, keyValues: string): { ok: true; value: WebhookRouting } | { ok: false; issue: string } {
  if (kind === 'hub') return hubId ? { ok: true, value: { kind: 'hub', hubId } } : { ok: false, issue: 'Choose a hub (sign in to see your hubs).' };
  const values = parseKeyValues(keyValues);
  if (values.length === 0) return { ok: false, issue: 'Enter at least one key value.' };
  if (values.length > WEBHOOK_MAX_KEY_VALUES) return { ok: false, issue: `Enter at most ${WEBHOOK_MAX_KEY_VALUES} key values.` };
  return { ok: true, value: { kind: 'keys', values } };
}
