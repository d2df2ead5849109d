/**
 * The inspector as the window calls it (docs/webhooks-app.md, "Inspector"): the seven `inspector.*` calls
 * on one object, each answered by the part whose job it is. The pages and full messages come from the
 * inspector (webhook-inspector.ts) with each message's signature checked against its registration's
 * signing secret (webhook-signatures.ts); replays go through webhook-replay.ts; imported messages are
 * taken in and announced as new entries; clearing, and how the history is kept, are the history's
 * (webhook-history.ts), which clears its files too.
 */
import type {
  ArchivedMessage,
  HistorySettings,
  HistoryView,
  InspectorPage,
  InspectorPageRequest,
  ReplayRequest,
  ReplayResult,
  SignatureVerdict,
  WebhookMessageResult,
} from '../../../common/ipc-contract';
import type { Clock } from '../shared';
import type { WebhookHistory } from './webhook-history';
import type { InspectorChange, ReceivedMessage } from './webhook-inspector';
import { createReplayer } from './webhook-replay';
import { verifySignature } from './webhook-signatures';

export interface InspectorFace {
  snapshot(request: InspectorPageRequest): InspectorPage;
  /** The full message with its signature checked against the registration's signing secret. */
  message(webhookId: string, id: string): WebhookMessageResult;
  replay(request: ReplayRequest): Promise<ReplayResult>;
  /** Adds messages read from a file; each new one is announced as a new entry. */
  import(messages: readonly ArchivedMessage[]): { added: number; duplicates: number };
  /** Every message, from memory and from disk. */
  clear(): Promise<void>;
  history(): HistoryView;
  setHistory(settings: HistorySettings): Promise<HistoryView>;
}

export interface InspectorFaceDeps {
  history: WebhookHistory;
  /** The forwarder's base URL, for replays to a webhook's intake (null: none configured). */
  webhookUrl: string | null;
  /** The signing secret of a running registration, if it has one. */
  signingSecret(webhookId: string): string | undefined;
  /** Sends a change of the inspector to the window (webhook-listener.ts sends the listener's own the same way). */
  announce(change: InspectorChange): void;
  clock: Clock;
}

export function createInspectorFace(deps: InspectorFaceDeps): InspectorFace {
  const { history, clock } = deps;
  const { inspector } = history;

  /**
   * Checked against the whole raw body as received (never a cut copy), at the time it arrived; an
   * imported message at the time it is checked, since its arrival time is only what its file says
   * (main/core/webhooks/webhook-signatures.ts).
   */
  const signatureOf = (webhookId: string, source: ReceivedMessage | undefined): SignatureVerdict => {
    if (!source) return { status: 'unsigned' };
    const receivedAt = Date.parse(source.receivedAt);
    const at = source.imported || Number.isNaN(receivedAt) ? { receivedAt: clock.now(), reference: 'now' as const } : { receivedAt };
    return verifySignature({ headers: source.headers, rawBody: Buffer.from(source.rawBody, 'base64'), ...at }, deps.signingSecret(webhookId));
  };

  return {
    snapshot: (request) => inspector.snapshot(request),
    message(webhookId, id) {
      const result = inspector.message(webhookId, id);
      if (result.status !== 'kept') return result;
      return { ...result, signature: signatureOf(webhookId, inspector.source(webhookId, id)) };
    },
    replay: createReplayer({ webhookUrl: deps.webhookUrl, source: (webhookId, id) => inspector.source(webhookId, id) }),
    import(messages) {
      let added = 0;
      for (const message of messages) {
        const change = inspector.imported(message);
        if (change) added++;
        deps.announce(change);
      }
      return { added, duplicates: messages.length - added };
    },
    clear: () => history.clear(),
    history: () => history.view(),
    setHistory: (settings) => history.set(settings),
  };
}
