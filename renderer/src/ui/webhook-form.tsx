/**
 * Adds a webhook registration, in a dialog (docs/webhooks-app.md, "Registrations"). Every field is checked on Add, in the order
 * shown, and each problem is said under its own field (`aria-invalid`, `aria-describedby`); the focus
 * goes to the first field to fix, and a field is checked again as it is edited. The secret, the
 * optional tap credential and the optional signing secret go straight to main (which encrypts them),
 * and the renderer never gets them back. Hubs can be chosen only while signed in (the hub list comes
 * from the cloud); key values work either way.
 */
import { useState } from 'react';
import { TAP_CREDENTIAL_MAX_LENGTH, type WebhookRegistrationInput, type WebhookRouting } from '../../../common/ipc-contract';
import { TAP_CREDENTIAL_PATTERN } from '../../../common/webhook-protocol';
import { type Problems, useCheckedForm } from './checked-form';
import { FormDialog } from './form-dialog';
import { RoutingFields, routingFrom } from './routing-fields';
import { useWebhookDialog } from './webhook-dialog-state';

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
  const { pending, hubOptions, ask, answer, chosenHubOf } = useWebhookDialog();
  const { fields, change, checked, described, problem } = useCheckedForm<Fields, FieldName, WebhookRegistrationInput>(
    'add-webhook',
    FIELD_ORDER,
    { id: '', secret: '', tapCredential: '', signingSecret: '', kind: 'keys', hubId: '', keyValues: '' },
    (next) => check(next, chosenHubOf(next)),
  );
  const chosenHub = chosenHubOf(fields);

  const submit = async () => {
    const input = checked();
    if (!input) return;
    await ask((state) => state.add(input), onClose);
  };

  return (
    <FormDialog title="Add a webhook" submitLabel="Add webhook" submitDisabled={pending === 'add'} onClose={onClose} onSubmit={() => void submit()}>
      <label>
        Webhook ID
        <input
          type="text"
          value={fields.id}
          onChange={(e) => change({ id: e.target.value })}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          {...described('id')}
        />
      </label>
      {problem('id')}
      <label>
        Webhook secret
        <input
          type="password"
          value={fields.secret}
          onChange={(e) => change({ secret: e.target.value })}
          autoComplete="off"
          maxLength={512}
          {...described('secret')}
        />
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
        <input
          type="password"
          value={fields.signingSecret}
          onChange={(e) => change({ signingSecret: e.target.value })}
          autoComplete="off"
          maxLength={512}
          {...described('signingSecret', 'signing-secret-hint')}
        />
      </label>
      {problem('signingSecret')}
      <span id="signing-secret-hint" className="hint">
        The secret the sending service signs with (Standard Webhooks whsec_…, GitHub, Stripe or Slack): each message&apos;s signature is then checked.
      </span>
      <RoutingFields
        values={fields}
        hubOptions={hubOptions}
        chosenHub={chosenHub}
        onChange={change}
        described={(hint) => described('routing', hint)}
        problem={problem('routing')}
        prefix="add-webhook"
      />
      {answer}
    </FormDialog>
  );
}

/** Every field's problem, in the order shown, and the input when there is none. */
function check(fields: Fields, hubId: string): { problems: Problems<FieldName>; result?: WebhookRegistrationInput } {
  const problems: Problems<FieldName> = {};
  const id = fields.id.trim();
  const tap = fields.tapCredential.trim();
  const signing = fields.signingSecret.trim();
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(id))
    problems.id = id === '' ? 'Enter the webhook ID the developer portal shows.' : 'The webhook ID is 1–200 letters, digits, "-" or "_".';
  if (fields.secret.length < 8) problems.secret = fields.secret === '' ? 'Enter the webhook secret.' : 'The webhook secret is at least 8 characters.';
  if (tap !== '' && !TAP_CREDENTIAL_PATTERN.test(tap))
    problems.tapCredential = 'The tap credential is "tc_…", a dot and its secret, as the developer portal shows it.';
  if (signing.length > 512) problems.signingSecret = 'The signing secret is at most 512 characters.';
  const routing = routingFrom(fields.kind, hubId, fields.keyValues);
  if (!routing.ok) problems.routing = routing.issue;
  if (Object.keys(problems).length > 0 || !routing.ok) return { problems };
  return {
    problems,
    result: { id, secret: fields.secret, routing: routing.value, ...(tap !== '' && { tapCredential: tap }), ...(signing !== '' && { signingSecret: signing }) },
  };
}
