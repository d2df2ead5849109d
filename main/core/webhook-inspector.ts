/**
 * The inspector's memory in main: the most recent entries (a bounded ring, oldest dropped first), so a
 * renderer that reloads is not empty. An entry starts from whichever arrives first, the tap's event
 * (routing, method, size) or this app's own delivery of the same message, and the other is merged in.
 */
import type { WebhookEntry } from '../../common/ipc-contract';
import type { TapEvent, WebhookMessage } from '../../common/webhook-protocol';

export const MAIN_INSPECTOR_CAPACITY = 1000;

export interface WebhookInspector {
  /** Returns the entry as it now stands. */
  tapped(webhookId: string, event: TapEvent): WebhookEntry;
  delivered(webhookId: string, message: WebhookMessage): WebhookEntry;
  /** Newest first. */
  snapshot(): WebhookEntry[];
  clear(): void;
  /** Forgets the entries of a removed registration. */
  forget(webhookId: string): void;
}

export function createWebhookInspector(capacity = MAIN_INSPECTOR_CAPACITY): WebhookInspector {
  // A Map keeps insertion order, so its first key is the oldest entry: an O(1) ring with lookup by id.
  const entries = new Map<string, WebhookEntry>();
  const keyOf = (webhookId: string, id: string) => `${webhookId}\n${id}`;

  const put = (key: string, entry: WebhookEntry): WebhookEntry => {
    if (!entries.has(key) && entries.size >= capacity) entries.delete(entries.keys().next().value as string);
    entries.set(key, entry);
    return entry;
  };

  return {
    tapped(webhookId, event) {
      const key = keyOf(webhookId, event.message.id);
      const { message } = event;
      return put(key, {
        webhookId,
        id: message.id,
        receivedAt: message.receivedAt,
        method: event.method,
        size: event.size,
        headers: message.headers,
        query: message.query,
        body: message.body,
        rawBody: message.rawBody,
        routing: event.routing,
        delivered: entries.get(key)?.delivered ?? false,
      });
    },
    delivered(webhookId, message) {
      const key = keyOf(webhookId, message.id);
      const known = entries.get(key);
      if (known) return put(key, { ...known, delivered: true });
      return put(key, {
        webhookId,
        id: message.id,
        receivedAt: message.receivedAt,
        method: null,
        size: Buffer.byteLength(message.rawBody, 'base64'),
        headers: message.headers,
        query: message.query,
        body: message.body,
        rawBody: message.rawBody,
        routing: null,
        delivered: true,
      });
    },
    snapshot: () => [...entries.values()].reverse(),
    clear: () => entries.clear(),
    forget(webhookId) {
      for (const [key, entry] of entries) if (entry.webhookId === webhookId) entries.delete(key);
    },
  };
}
