/** What each webhook is called, and what routing words may name, by webhook id: one lookup per row, rebuilt only when the registrations or hub names change. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { webhookTitle } from '../format/webhook-labels';
import type { RoutingNames } from '../format/routing-words';
import { registrationViews } from '../stores/webhook-registrations-slice';
import { useStores } from './stores-context';

export function useWebhookTitles(): (webhookId: string) => string {
  const { webhooks } = useStores();
  const views = useStore(webhooks, registrationViews);
  return useMemo(() => {
    const titles = new Map(views.map((view) => [view.id, webhookTitle(view)]));
    return (webhookId: string) => titles.get(webhookId) ?? webhookId;
  }, [views]);
}

/** The names `routingWords` may use for a message of `webhookId`: this app's registration of it, and the hub list's names. */
export function useRoutingNames(): (webhookId: string) => RoutingNames {
  const { webhooks, hubs } = useStores();
  const views = useStore(webhooks, registrationViews);
  const hubNames = useStore(hubs, (s) => s.names);
  return useMemo(() => {
    const hubName = (hubId: string) => hubNames.get(hubId);
    const byWebhook = new Map(views.map((view) => [view.id, { ownRouting: view.routing, hubName }]));
    const unregistered: RoutingNames = { ownRouting: undefined, hubName };
    return (webhookId: string) => byWebhook.get(webhookId) ?? unregistered;
  }, [views, hubNames]);
}
