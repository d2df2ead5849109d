/**
 * "Deliver to this app": a hub of the signed-in account, or key values. Shared by the add and the edit
 * dialogs (webhook-form.tsx, webhook-edit-form.tsx); the dialog keeps the values and says the problem.
 */
import type { ReactNode } from 'react';
import { WEBHOOK_MAX_KEY_VALUES, type WebhookRouting } from '../../../common/ipc-contract';
import { parseKeyValues } from '../format/webhook-labels';

export interface RoutingValues {
  kind: WebhookRouting['kind'];
  hubId: string;
  keyValues: string;
}

/** The aria attributes and id of the routing control, given the id of its hint (when it has one). */
type Described = (hint?: string) => Record<string, unknown>;

export function RoutingFields({
  values,
  hubOptions,
  chosenHub,
  onChange,
  described,
  problem,
  prefix,
}: {
  values: RoutingValues;
  hubOptions: readonly { id: string; name: string }[];
  chosenHub: string;
  onChange(patch: Partial<RoutingValues>): void;
  described: Described;
  problem: ReactNode;
  /** Makes the radio group's name and the hint's id unique to the dialog. */
  prefix: string;
}) {
  return (
    <fieldset>
      <legend>Deliver to this app</legend>
      <label className="inline">
        <input type="radio" name={`${prefix}-routing`} checked={values.kind === 'hub'} onChange={() => onChange({ kind: 'hub' })} />
        Selected hub
      </label>
      <label className="inline">
        <input type="radio" name={`${prefix}-routing`} checked={values.kind === 'keys'} onChange={() => onChange({ kind: 'keys' })} />
        Key values
      </label>
      {values.kind === 'hub' && (
        <>
          <label>
            Hub
            <select value={chosenHub} onChange={(e) => onChange({ hubId: e.target.value })} disabled={hubOptions.length === 0} {...described()}>
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
      {values.kind === 'keys' && (
        <>
          <label>
            Values
            <input
              type="text"
              value={values.keyValues}
              onChange={(e) => onChange({ keyValues: e.target.value })}
              placeholder="lamp-1, 42"
              autoComplete="off"
              spellCheck={false}
              {...described(`${prefix}-key-values-hint`)}
            />
          </label>
          <span id={`${prefix}-key-values-hint`} className="hint">
            Comma-separated; values that look like plain numbers (42, -2.5) are sent as numbers.
          </span>
        </>
      )}
      {problem}
    </fieldset>
  );
}

export function routingFrom(
  kind: WebhookRouting['kind'],
  hubId: string,
  keyValues: string,
): { ok: true; value: WebhookRouting } | { ok: false; issue: string } {
  if (kind === 'hub') return hubId ? { ok: true, value: { kind: 'hub', hubId } } : { ok: false, issue: 'Choose a hub (sign in to see your hubs).' };
  const values = parseKeyValues(keyValues);
  if (values.length === 0) return { ok: false, issue: 'Enter at least one key value.' };
  if (values.length > WEBHOOK_MAX_KEY_VALUES) return { ok: false, issue: `Enter at most ${WEBHOOK_MAX_KEY_VALUES} key values.` };
  return { ok: true, value: { kind: 'keys', values } };
}
