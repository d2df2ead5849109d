/**
 * One socket of the forwarder's listener channel (common/webhook-protocol.ts), kept open for as long
 * as the channel is not stopped: it answers the challenge with an HMAC of the secret (the webhook
 * secret for a listener, the tap credential's secret for a tap; neither ever leaves the app),
 * registers, acknowledges every message, and after any drop reconnects with backoff, resuming after
 * the last acknowledged id. A refusal (wrong secret or tap credential, a revoked tap credential, the
 * wrong kind of credential, an unknown webhook, a hub id the forwarder does not take, or a newer connection
 * with the same listenerId) stops it: retrying cannot help until the registration changes.
 *
 * A listener that names a hub proves it acts for it (docs/webhooks-app.md, "Proving the hub"): before each
 * connection, a reconnect too, it asks `hubToken` for a fresh delegation token, sends it in that one
 * registration and forgets it (tokens are single-use and live a minute; never logged). Without one it
 * waits (signed out: `unavailable` until `retryIfWaiting`) or retries with backoff (cloud unreachable),
 * saying why.
 *
 * Liveness (heartbeat.ts; docs/hub-realtime.md, "Liveness"): the app pings the forwarder every
 * WEBHOOK_PING_MS; nothing from it for WEBHOOK_SILENT_AFTER_MS reports `not-responding` while the socket
 * is kept, the first frame or pong after that `connected` again, and silence for
 * WEBHOOK_GIVE_UP_AFTER_MS gives the socket up and reconnects.
 */
import WebSocket from 'ws';
import { type OpenWebSocket, plainWebSocket } from '../shared';
import {
  CLOSE_BAD_SECRET,
  CLOSE_CREDENTIAL_KIND,
  CLOSE_CREDENTIAL_REVOKED,
  CLOSE_HUB_CHECK_UNAVAILABLE,
  CLOSE_HUB_NOT_PROVEN,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_REPLACED,
  CLOSE_TOO_MANY_LISTENERS,
  CLOSE_UNKNOWN_WEBHOOK,
  type DroppedNotice,
  LISTEN_PATH,
  LISTENER_SERVER_MESSAGE_TYPES,
  type ListenerClientMessage,
  type ListenerServerMessage,
  ListenerServerMessageSchema,
  type RawWebhookMessage,
  type RegistrationData,
  type TapEvent,
} from '../../../common/webhook-protocol';
import { proofFor } from '../../../common/webhook-proof';
import { oneLine } from '../../../common/one-line';
import type { WebhookConnection } from '../../../common/ipc-contract';
import { type Backoff, createBackoff } from '../shared';
import { parseJson } from '../../../common/json-message';
import { type Heartbeat, startHeartbeat } from '../shared';
import { type Clock, type Logger, realSchedule, type Schedule } from '../shared';
import { errorMessage } from '../../../common/error-message';

/** The app pings the forwarder this often (a WebSocket ping, which the forwarder's process answers itself). */
export const WEBHOOK_PING_MS = 2_000;
/** Nothing heard from the forwarder for this long (two pings unanswered): it is not responding. */
export const WEBHOOK_SILENT_AFTER_MS = 4_000;
/** Nothing heard for this long: the socket is given up and the channel reconnects; also the handshake's limit. */
export const WEBHOOK_GIVE_UP_AFTER_MS = 30_000;
/**
 * What one frame may cost. The app's frames carry an intake's body once, as base64 (the listener
 * registers `rawBodyOnly`; a tap event of an intake routed to this app carries no body), plus headers,
 * query and the routing decision, whose extracted value may be a part of the body; a forwarder that
 * ignores `rawBodyOnly` adds the parsed body. 16 MiB leaves room for all of it.
 */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** A JSON object whose string `type` this app does not know: a frame a newer forwarder added. */
export function isNewerFrame(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || !('type' in json)) return false;
  return typeof json.type === 'string' && !LISTENER_SERVER_MESSAGE_TYPES.has(json.type);
}

/**
 * A delegation token for the one registration about to be made, or why there is none: `wait` when only
 * a change of sign-in can help (then the channel waits for `retryIfWaiting`), else it retries with backoff.
 */
export type HubTokenResult = { ok: true; token: string } | { ok: false; reason: string; wait: boolean };

export interface WebhookChannelOptions {
  /** The forwarder's base URL (http or https); the channel is at `{webhookUrl}/listen`. */
  webhookUrl: string;
  webhookId: string;
  /** What the proof is made with: the webhook secret (listener) or the tap credential's secret (tap). */
  secret: string;
  role: 'listener' | 'tap';
  /** Tap: the id of the tap credential whose secret `secret` is. */
  credentialId?: string;
  listenerId: string;
  hubId?: string;
  /** Listener with `hubId`: a fresh delegation token for that hub, asked for before every connection. */
  hubToken?(): Promise<HubTokenResult>;
  data?: RegistrationData;
  /** Tap: the listenerIds of this app for the same webhook; intakes routed to them are tapped without their request. */
  ownListenerIds?: string[];
  /** Read on every (re)connect: the id of the last message acknowledged, if any. */
  resumeAfter(): string | undefined;
  /** Listener: a message arrived (raw body only: the listener registers `rawBodyOnly`); it is acknowledged after this returns. */
  onMessage?(message: RawWebhookMessage): void;
  /** Listener: the message was acknowledged (persist it as the resume point). */
  onAcknowledged?(id: string): void;
  onTap?(event: TapEvent): void;
  /** Listener: messages up to `through` were dropped from the forwarder's buffer for it. Given, the registration asks for these notices. */
  onDropped?(notice: DroppedNotice): void;
  onConnection(connection: WebhookConnection): void;
  /** The forwarder registered us and named the webhook (as its owner did in the developer portal). */
  onWebhookName?(name: string): void;
  logger: Logger;
  clock: Clock;
  schedule?: Schedule;
  backoff?: Backoff;
  /** The host's WebSocket opener, trusting the same CAs as its fetch (an https forwarder behind the configured extra CA); plain `ws` by default. */
  openWebSocket?: OpenWebSocket;
}

export interface WebhookChannel {
  /** The network may have changed under the socket (wake, new interfaces): connect again now, without waiting for a backoff or a silent socket's give-up. */
  reconnect(): void;
  /** The sign-in changed: a channel waiting for a delegation token tries again; any other is left alone. */
  retryIfWaiting(): void;
  stop(): void;
}

export function listenUrl(webhookUrl: string): string {
  const url = new URL(webhookUrl.replace(/\/+$/, '') + LISTEN_PATH);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

const LISTENER_REFUSALS: Record<number, string> = {
  [CLOSE_BAD_SECRET]: 'The forwarder refused the webhook secret.',
  [CLOSE_CREDENTIAL_KIND]: 'The forwarder refused the credential for this listener.',
  [CLOSE_UNKNOWN_WEBHOOK]: 'This webhook no longer exists on the forwarder.',
  [CLOSE_REPLACED]: 'Another connection registered with the same listener; this one stopped.',
};

const TAP_REFUSALS: Record<number, string> = {
  [CLOSE_BAD_SECRET]: 'wrong or revoked tap credential',
  [CLOSE_CREDENTIAL_KIND]: 'not a tap credential',
  [CLOSE_CREDENTIAL_REVOKED]: 'the tap credential was revoked',
  [CLOSE_UNKNOWN_WEBHOOK]: 'unknown webhook',
  [CLOSE_REPLACED]: 'another connection took over this tap',
};

/** What the forwarder said when it closed, as shown text: a close reason is at most 123 bytes, but it comes from the network. */
const said = (reason: string) => oneLine(reason, 200);

/** Why a close that is retried happened, when the forwarder said something worth showing meanwhile. */
export function retryReason(code: number, reason: string): string | undefined {
  if (code !== CLOSE_HUB_CHECK_UNAVAILABLE) return undefined;
  return `The forwarder cannot check that this app acts for the hub just now (${said(reason) || 'try again later'}).`;
}

/**
 * The reason shown for a close that ends the channel, or undefined when reconnecting may help. A tap's
 * refusal carries the forwarder's own words (they say what to do, e.g. create a tap credential in the
 * portal) and says that this app's deliveries are not affected: only the routing view is.
 */
export function refusalReason(role: 'listener' | 'tap', code: number, reason: string): string | undefined {
  if (code === CLOSE_TOO_MANY_LISTENERS) {
    return `The forwarder refused this ${role === 'tap' ? 'tap' : 'listener'} (${said(reason) || 'too many listeners'}). The forwarder forgets listeners that stay away for 10 minutes: add the webhook again after that.`;
  }
  if (role === 'listener' && code === CLOSE_HUB_NOT_PROVEN) {
    return `The forwarder refused to register this app as the hub (${said(reason) || 'no proof for the hub'}). Add the webhook again to try once more, or register by key values.`;
  }
  if (role === 'listener') return LISTENER_REFUSALS[code];
  const fallback = TAP_REFUSALS[code];
  if (fallback === undefined) return undefined;
  return `The forwarder refused the tap (${said(reason) || fallback}). Messages for this app still arrive; routing decisions need a valid tap credential from the developer portal.`;
}

export function openWebhookChannel(options: WebhookChannelOptions): WebhookChannel {
  const { logger, clock } = options;
  const schedule = options.schedule ?? realSchedule;
  const backoff = options.backoff ?? createBackoff();
  const url = listenUrl(options.webhookUrl);
  const log = { webhookId: options.webhookId, role: options.role };

  let stopped = false;
  /** Waiting for a sign-in before a delegation token can be had (see retryIfWaiting). */
  let waiting = false;
  /** Counts connection attempts: a token that arrives for an older one (stopped, reconnected since) is dropped. */
  let attempt = 0;
  let socket: WebSocket | undefined;
  let cancelRetry = () => {};
  let stopHeartbeat = () => {};
  /** The socket the forwarder registered: it is `connected` again, not `connecting`, once the forwarder answers after a silence. */
  let registeredSocket: WebSocket | undefined;

  const watch = (ws: WebSocket): Heartbeat => {
    const heartbeat = startHeartbeat({
      schedule,
      clock,
      pingMs: WEBHOOK_PING_MS,
      silentAfterMs: WEBHOOK_SILENT_AFTER_MS,
      giveUpAfterMs: WEBHOOK_GIVE_UP_AFTER_MS,
      ping: () => ws.ping(),
      onResponding: (responding) => {
        if (socket !== ws || stopped) return;
        if (!responding) logger.warn('webhooks: the forwarder is not responding', log);
        options.onConnection(
          responding ? { state: registeredSocket === ws ? 'connected' : 'connecting' } : { state: 'not-responding', since: heartbeat.lastHeardAt() },
        );
      },
      onGiveUp: () => {
        logger.warn('webhooks: the forwarder went silent; reconnecting', log);
        ws.terminate();
      },
    });
    stopHeartbeat = () => heartbeat.stop();
    return heartbeat;
  };

  const send = (ws: WebSocket, message: ListenerClientMessage) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };

  /** `take` hands out the socket's delegation token once: one registration per token. */
  const handle = (ws: WebSocket, message: ListenerServerMessage, take: () => string | undefined) => {
    switch (message.type) {
      case 'challenge': {
        const resumeAfter = options.role === 'listener' ? options.resumeAfter() : undefined;
        const delegationToken = take();
        send(ws, {
          type: 'register',
          webhookId: options.webhookId,
          proof: proofFor(options.secret, message.nonce),
          role: options.role,
          listenerId: options.listenerId,
          ...(options.credentialId !== undefined && { credentialId: options.credentialId }),
          ...(options.hubId !== undefined && { hubId: options.hubId }),
          ...(delegationToken !== undefined && { delegationToken }),
          ...(options.data !== undefined && { data: options.data }),
          ...(resumeAfter !== undefined && { resumeAfter }),
          ...(options.role === 'listener' ? { rawBodyOnly: true } : options.ownListenerIds !== undefined && { ownListenerIds: options.ownListenerIds }),
          ...(options.role === 'listener' && options.onDropped !== undefined && { dropNotices: true as const }),
        });
        return;
      }
      case 'registered':
        registeredSocket = ws;
        backoff.reset();
        options.onConnection({ state: 'connected' });
        if (message.webhookName !== undefined) options.onWebhookName?.(message.webhookName);
        return;
      case 'message':
        options.onMessage?.(message.message);
        send(ws, { type: 'ack', id: message.message.id });
        options.onAcknowledged?.(message.message.id);
        return;
      case 'tap':
        options.onTap?.(message.event);
        return;
      case 'dropped':
        options.onDropped?.(message);
        return;
    }
  };

  const retryLater = (reason?: string) => {
    const delay = backoff.next();
    options.onConnection({ state: 'reconnecting', attempt: backoff.attempts(), nextRetryAt: clock.now() + delay, ...(reason !== undefined && { reason }) });
    cancelRetry = schedule(connect, delay);
  };

  const connect = () => {
    if (stopped) return;
    waiting = false;
    const current = ++attempt;
    if (!options.hubToken) return open(undefined);
    options.hubToken().then(
      (result) => {
        if (stopped || current !== attempt) return;
        if (result.ok) return open(result.token);
        logger.warn('webhooks: no delegation token for the hub; the listener waits', { ...log, retrying: !result.wait });
        if (!result.wait) return retryLater(result.reason);
        waiting = true;
        options.onConnection({ state: 'unavailable', reason: result.reason });
      },
      (error: unknown) => {
        if (stopped || current !== attempt) return;
        logger.error('webhooks: asking for a delegation token failed', { ...log, error: errorMessage(error) });
        retryLater();
      },
    );
  };

  const open = (delegationToken: string | undefined) => {
    let token = delegationToken;
    const take = () => {
      const taken = token;
      token = undefined;
      return taken;
    };
    // Never follow a redirect: the proof is for this forwarder only.
    const ws = (options.openWebSocket ?? plainWebSocket)(url, {
      maxPayload: MAX_FRAME_BYTES,
      handshakeTimeout: WEBHOOK_GIVE_UP_AFTER_MS,
      followRedirects: false,
    });
    socket = ws;
    let heartbeat: Heartbeat | undefined;
    const heard = () => heartbeat?.heard();
    ws.on('open', () => void (heartbeat = watch(ws)));
    ws.on('ping', heard);
    ws.on('pong', heard);
    ws.on('message', (data, isBinary) => {
      heard();
      const json = isBinary ? undefined : parseJson(data.toString());
      if (isNewerFrame(json)) return; // docs/webhooks-app.md, "Listener protocol": additions only, ignored by older apps
      const parsed = ListenerServerMessageSchema.safeParse(json).data;
      if (!parsed) {
        logger.warn('webhooks: malformed frame from the forwarder; reconnecting', log);
        ws.close(CLOSE_PROTOCOL_ERROR, 'malformed frame');
        return;
      }
      try {
        handle(ws, parsed, take);
      } catch (error) {
        // A failing consumer must not take the channel down; the message stays unacknowledged.
        logger.error('webhooks: handling a frame failed', { ...log, error: errorMessage(error) });
      }
    });
    ws.on('error', (error) => logger.warn('webhooks: socket error', { ...log, error: error.message }));
    ws.on('close', (code, reason) => {
      heartbeat?.stop();
      if (socket !== ws || stopped) return;
      socket = undefined;
      const closeReason = reason.toString('utf8');
      const refusal = refusalReason(options.role, code, closeReason);
      if (refusal) {
        stopped = true;
        logger.warn('webhooks: the forwarder refused the registration', { ...log, code });
        // The webhook itself is gone (a restarted demo forwarder, or deleted): the view offers to create it again.
        options.onConnection({ state: 'refused', reason: refusal, ...(code === CLOSE_UNKNOWN_WEBHOOK && { gone: true }) });
        return;
      }
      retryLater(retryReason(code, closeReason));
    });
  };

  options.onConnection({ state: 'connecting' });
  connect();

  return {
    reconnect() {
      if (stopped) return;
      waiting = false;
      cancelRetry();
      stopHeartbeat();
      const old = socket;
      socket = undefined; // its close is not a drop to back off from
      old?.terminate();
      backoff.reset();
      options.onConnection({ state: 'connecting' });
      connect();
    },
    retryIfWaiting() {
      if (stopped || !waiting) return;
      options.onConnection({ state: 'connecting' });
      connect();
    },
    stop() {
      stopped = true;
      cancelRetry();
      stopHeartbeat();
      socket?.terminate();
      socket = undefined;
    },
  };
}
