/**
 * A scriptable bridge for the webhooks store: the `webhooks` and `inspector` verbs stay pending until
 * the test answers them, and events are delivered per name. It is the real `createBridge` over a fake
 * transport, so events are checked against the contract's schemas exactly as in the app: a malformed
 * payload never reaches the store.
 */
import type { Envelope } from '../../../common/app-error';
import { createBridge, type Transport } from '../../../common/contract-bridge';
import type { Bridge, WebhookEntry, WebhookView } from '../../../common/ipc-contract';

export interface PendingWebhookCall {
  channel: string;
  args: unknown[];
  resolve(envelope: Envelope<unknown>): void;
}

export function fakeWebhooksBridge() {
  const calls: PendingWebhookCall[] = [];
  const settled = new Set<PendingWebhookCall>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const transport: Transport = {
    invoke: (channel, args) =>
      new Promise<Envelope<unknown>>((resolve) => {
        const call: PendingWebhookCall = { channel, args, resolve: (envelope) => (settled.add(call), resolve(envelope)) };
        calls.push(call);
      }),
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  const bridge: Pick<Bridge, 'webhooks' | 'inspector' | 'on'> = createBridge(transport);
  return {
    bridge,
    calls,
    emit: (event: string, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload)),
    listenerCount: () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0),
    waiting: (channel: string) => calls.filter((call) => call.channel === channel && !settled.has(call)),
  };
}

export function entry(id: string, overrides: Partial<WebhookEntry> = {}): WebhookEntry {
  return {
    webhookId: 'wh1',
    id,
    receivedAt: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    size: 2,
    headers: {},
    query: {},
    pairsCut: false,
    bodyBytes: 2,
    preview: '{}',
    previewKind: 'text',
    truncated: false,
    routing: { option: 'key-path', keyPath: 'body.device.id', value: 'lamp-1', matched: [] },
    delivered: false,
    awaitingDelivery: false,
    ...overrides,
  };
}

export function webhookView(id: string, overrides: Partial<WebhookView> = {}): WebhookView {
  return {
    id,
    routing: { kind: 'keys', values: ['lamp-1'] },
    hasTapCredential: false,
    hasSigningSecret: false,
    intakeUrl: `http://127.0.0.1:9/webhook/${id}`,
    connection: { state: 'connecting' },
    ...overrides,
  };
}
