/**
 * Edits a registration in place (docs/webhooks-app.md, "Editing a registration"): where it is delivered
 * (hub or key values), the signing secret (kept, replaced or cleared: the window only knows whether one
 * is set, never the secret) and Forward to. Checked as the add dialog checks, problems said under their
 * fields; main checks again. A new routing makes the app register again under the same listener, so the
 * forwarder resumes it; the messages already received stay.
 */
import { useState } from 'react';
import { forwardTargetProblem } from '../../../common/forward-target';
import type { WebhookEdit, WebhookView } from '../../../common/ipc-contract';
import { webhookTitle } from '../format/webhook-labels';
import { type Problems, useCheckedForm } from './checked-form';
import { FormDialog } from './form-dialog';
import { RoutingFields, routingFrom, type RoutingValues } from './routing-fields';
import { useWebhookDialog } from './webhook-dialog-state';

type SigningChoice = 'keep' | 'replace' | 'clear';
interface Fields extends RoutingValues {
  signing: SigningChoice;
  signingSecret: string;
  forwardTo: string;
}
const FIELD_ORDER = ['routing', 'signingSecret', 'forwardTo'] as const;
type FieldName = (typeof FIELD_ORDER)[number];

export function EditWebhookButton({ view, disabled }: { view: WebhookView; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-label={`Edit ${view.id}`} disabled={disabled} onClick={() => setOpen(true)}>
        Edit…
      </button>
      {open && <EditWebhookDialog view={view} onClose={() => setOpen(false)} />}
    </>
  );
}

function EditWebhookDialog({ view, onClose }: { view: WebhookView; onClose(): void }) {
  const { pending, hubOptions, ask, answer, chosenHubOf } = useWebhookDialog();
  const { fields, change, checked, described, problem } = useCheckedForm<Fields, FieldName, WebhookEdit>(
    'edit-webhook',
    FIELD_ORDER,
    {
      kind: view.routing.kind,
      hubId: view.routing.kind === 'hub' ? view.routing.hubId : '',
      keyValues: view.routing.kind === 'keys' ? view.routing.values.join(', ') : '',
      signing: 'keep',
      signingSecret: '',
      forwardTo: view.forwardTo ?? '',
    },
    (next) => check(next, chosenHubOf(next), view.id),
  );
  const chosenHub = chosenHubOf(fields);
  // The saved hub stays choosable signed out too (the hub list needs a sign-in).
  const savedHub = view.routing.kind === 'hub' ? view.routing.hubId : undefined;
  const hubChoices = savedHub !== undefined && !hubOptions.some((hub) => hub.id === savedHub) ? [{ id: savedHub, name: savedHub }, ...hubOptions] : hubOptions;

  const submit = async () => {
    const edit = checked();
    if (!edit) return;
    await ask((state) => state.edit(edit), onClose);
  };

  return (
    <FormDialog title={`Edit ${webhookTitle(view)}`} submitLabel="Save" submitDisabled={pending === 'edit'} onClose={onClose} onSubmit={() => void submit()}>
      <RoutingFields
        values={fields}
        hubOptions={hubChoices}
        chosenHub={chosenHub}
        onChange={change}
        described={(hint) => described('routing', hint)}
        problem={problem('routing')}
        prefix="edit-webhook"
      />
      <fieldset>
        <legend>Signing secret: {view.hasSigningSecret ? 'set' : 'not set'}</legend>
        <label className="inline">
          <input type="radio" name="edit-webhook-signing" checked={fields.signing === 'keep'} onChange={() => change({ signing: 'keep' })} />
          {view.hasSigningSecret ? 'Keep it' : 'Leave it unset'}
        </label>
        <label className="inline">
          <input type="radio" name="edit-webhook-signing" checked={fields.signing === 'replace'} onChange={() => change({ signing: 'replace' })} />
          {view.hasSigningSecret ? 'Replace it' : 'Set one'}
        </label>
        {view.hasSigningSecret && (
          <label className="inline">
            <input type="radio" name="edit-webhook-signing" checked={fields.signing === 'clear'} onChange={() => change({ signing: 'clear' })} />
            Clear it
          </label>
        )}
        {fields.signing === 'replace' && (
          <label>
            New signing secret
            <input
              type="password"
              value={fields.signingSecret}
              onChange={(e) => change({ signingSecret: e.target.value })}
              autoComplete="off"
              maxLength={512}
              {...described('signingSecret')}
            />
          </label>
        )}
        {problem('signingSecret')}
      </fieldset>
      <label>
        Forward to (optional)
        <input
          value={fields.forwardTo}
          onChange={(e) => change({ forwardTo: e.target.value })}
          placeholder="http://127.0.0.1:3000/hook"
          autoComplete="off"
          spellCheck={false}
          {...described('forwardTo', 'edit-webhook-forward-hint')}
        />
      </label>
      {problem('forwardTo')}
      <span id="edit-webhook-forward-hint" className="hint">
        Each message delivered to this app is also sent to this local server, as received; leave it empty to stop.
      </span>
      {answer}
    </FormDialog>
  );
}

function check(fields: Fields, hubId: string, id: string): { problems: Problems<FieldName>; result?: WebhookEdit } {
  const problems: Problems<FieldName> = {};
  const routing = routingFrom(fields.kind, hubId, fields.keyValues);
  if (!routing.ok) problems.routing = routing.issue;
  const signing = fields.signingSecret.trim();
  if (fields.signing === 'replace' && signing === '') problems.signingSecret = 'Enter the new signing secret, or keep the one set.';
  if (signing.length > 512) problems.signingSecret = 'The signing secret is at most 512 characters.';
  const forwardTo = fields.forwardTo.trim();
  const forwardProblem = forwardTo === '' ? undefined : forwardTargetProblem(forwardTo);
  if (forwardProblem !== undefined) problems.forwardTo = forwardProblem;
  if (Object.keys(problems).length > 0 || !routing.ok) return { problems };
  const signingSecret = fields.signing === 'keep' ? undefined : fields.signing === 'clear' ? null : signing;
  return {
    problems,
    result: { id, routing: routing.value, forwardTo: forwardTo === '' ? null : forwardTo, ...(signingSecret !== undefined && { signingSecret }) },
  };
}
