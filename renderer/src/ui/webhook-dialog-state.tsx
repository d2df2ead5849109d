/** What the add and the edit dialogs of a webhook share: the hubs to choose from, and main's answer once the dialog has asked. */
import { useState } from 'react';
import { useStore } from 'zustand';
import type { WebhooksState } from '../stores/webhooks-state';
import { useStores } from './stores-context';

export function useWebhookDialog() {
  const { webhooks, hubs } = useStores();
  const pending = useStore(webhooks, (s) => s.pending);
  const actionError = useStore(webhooks, (s) => s.actionError);
  const hubList = useStore(hubs, (s) => s.list);
  const hubOptions = hubList.status === 'loaded' ? hubList.hubs : [];
  /** Main's answer is shown only once this dialog has asked (not an earlier action's error). */
  const [asked, setAsked] = useState(false);
  /** Asks main; `onDone` (closing the dialog) when it took it. */
  const ask = async (call: (state: WebhooksState) => Promise<boolean>, onDone: () => void) => {
    setAsked(true);
    if (await call(webhooks.getState())) onDone();
  };
  const answer = asked && actionError && (
    <p className="error-text" role="alert">
      {actionError.message}
    </p>
  );
  /** The hub a routing would name: the one chosen, else the first of the list. */
  const chosenHubOf = (fields: { hubId: string }) => fields.hubId || hubOptions[0]?.id || '';
  return { pending, hubOptions, ask, answer, chosenHubOf };
}
