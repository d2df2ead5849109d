/** What each webhook is called (webhookTitle), by id: one lookup per row, rebuilt only when the registrations change. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { webhookTitle } from '../format/webhook-labels';
import { registrationViews } from '../stores/webhooks-store';
import { useStores } from './stores-context';

export function useWebhookTitles(): (webhookId: string) => string {
  const { webhooks } = useStores();
  const views = useStore(webhooks, registrationViews);
  return useMemo(() => {
    const titles = new Map(views.map((view) => [view.id, webhookTitle(view)]));
    return (webhookId: string) => titles.get(webhookId) ?? webhookId;
  }, [views]);
}
