/**
 * One socket of the forwarder's listener channel (common/webhook-protocol.ts), kept open for as long
 * as the channel is not stopped: it answers the challenge with an HMAC of the secret (the secret
 * itself never leaves the app), registers, acknowledges every message, and after any drop
 * reconnects with backoff, resuming after the last acknowledged id. A refusal (wrong secret, unknown
 * webhook, or a newer connection with the same listenerId) stops it: retrying cannot help.
 */
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import {
  CLOSE_BAD_SECRET,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_REPLACED,
  CLOSE_UNKNOWN_WEBHOOK,
  LISTEN_PATH,
  type ListenerClientMessage,
  type ListenerServerMessage,
  ListenerServerMessageSchema,
  type RegistrationData,
  type TapEvent,
  type WebhookMessage,
} from '../../common/webhook-protocol';
import type { WebhookConnection } from '../../common/ipc-contract';
import { type Backoff, createBackoff } from './backoff';
import { parseJsonMessage } from './json-message';
import type { Clock, Logger } from './ports';

/** The forwarder pings every 15 s by default; a peer silent for two intervals is taken for dead. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** A message carries the body twice (parsed and raw base64); this bounds what one frame may cost. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export type Schedule = (run: () => void, ms: number) => () => void;

export const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

export interface WebhookChannelOptions {
  /** The forwarder's base URL (http or https); the channel is at `{webhookUrl}/listen`. */
  webhookUrl: string;
  webhookId: string;
  secret: string;
  role: 'listener' | 'tap';
  listenerId: string;
  hubId?: string;
  data?: RegistrationData;
  /** Read on every (re)connect: the id of the last message acknowledged, if any. */
  resumeAfter(): string | undefined;
  /** Listener: a message arrived; it is acknowledged after this returns. */
  onMessage?(message: WebhookMessage): void;
  /** Listener: the message was acknowledged (persist it as the resume point). */
  onAcknowledged?(id: string): void;
  onTap?(event: TapEvent): void;
  onConnection(connection: WebhookConnection): void;
  logger: Logger;
  clock: Clock;
  heartbeatMs?: number;
  schedule?: Schedule;
  backoff?: Backoff;
}

export interface WebhookChannel {
  stop(): void;
}

export function listenUrl(webhookUrl: string): string {
  const url = new URL(webhookUrl.replace(/\/+$/, '') + LISTEN_PATH);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

export function proofFor(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(nonce).digest('hex');
}

const REFUSALS: Record<number, string> = {
  [CLOSE_BAD_SECRET]: 'The forwarder refused the webhook secret.',
  [CLOSE_UNKNOWN_WEBHOOK]: 'The forwarder does not know this webhook id.',
  [CLOSE_REPLACED]: 'Another connection registered with the same listener; this one stopped.',
};

export function openWebhookChannel(options: WebhookChannelOptions): WebhookChannel {
  const { logger, clock } = options;
  const schedule = options.schedule ?? realSchedule;
  const backoff = options.backoff ?? createBackoff();
  const deadAfterMs = 2 * (options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  const url = listenUrl(options.webhookUrl);
  const log = { webhookId: options.webhookId, role: options.role };

  let stopped = false;
  let socket: WebSocket | undefined;
  let cancelRetry = () => {};
  let cancelWatchdog = () => {};

  /** Any sign of life (ping or frame) restarts the watchdog; silence for two heartbeats drops the socket. */
  const alive = (ws: WebSocket) => {
    cancelWatchdog();
    cancelWatchdog = schedule(() => {
      logger.warn('webhooks: the forwarder went silent; reconnecting', log);
      ws.terminate();
    }, deadAfterMs);
  };

  const send = (ws: WebSocket, message: ListenerClientMessage) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };

  const handle = (ws: WebSocket, message: ListenerServerMessage) => {
    switch (message.type) {
      case 'challenge': {
        const resumeAfter = options.role === 'listener' ? options.resumeAfter() : undefined;
        send(ws, {
          type: 'register',
          webhookId: options.webhookId,
          proof: proofFor(options.secret, message.nonce),
          role: options.role,
          listenerId: options.listenerId,
          ...(options.hubId !== undefined && { hubId: options.hubId }),
          ...(options.data !== undefined && { data: options.data }),
          ...(resumeAfter !== undefined && { resumeAfter }),
        });
        return;
      }
      case 'registered':
        backoff.reset();
        options.onConnection({ state: 'connected' });
        return;
      case 'message':
        options.onMessage?.(message.message);
        send(ws, { type: 'ack', id: message.message.id });
        options.onAcknowledged?.(message.message.id);
        return;
      case 'tap':
        options.onTap?.(message.event);
        return;
    }
  };

  const connect = () => {
    if (stopped) return;
    const ws = new WebSocket(url, { maxPayload: MAX_FRAME_BYTES, handshakeTimeout: deadAfterMs });
    socket = ws;
    alive(ws);
    ws.on('ping', () => alive(ws));
    ws.on('message', (data, isBinary) => {
      alive(ws);
      const parsed = isBinary ? undefined : parseJsonMessage(ListenerServerMessageSchema, data.toString());
      if (!parsed) {
        logger.warn('webhooks: malformed frame from the forwarder; reconnecting', log);
        ws.close(CLOSE_PROTOCOL_ERROR, 'malformed frame');
        return;
      }
      try {
        handle(ws, parsed);
      } catch (error) {
        // A failing consumer must not take the channel down; the message stays unacknowledged.
        logger.error('webhooks: handling a frame failed', { ...log, error: error instanceof Error ? error.message : String(error) });
      }
    });
    ws.on('error', (error) => logger.warn('webhooks: socket error', { ...log, error: error.message }));
    ws.on('close', (code) => {
      cancelWatchdog();
      if (socket !== ws || stopped) return;
      socket = undefined;
      const refusal = REFUSALS[code];
      if (refusal) {
        stopped = true;
        logger.warn('webhooks: the forwarder refused the registration', { ...log, code });
        options.onConnection({ state: 'refused', reason: refusal });
        return;
      }
      const delay = backoff.next();
      options.onConnection({ state: 'reconnecting', attempt: backoff.attempts(), nextRetryAt: clock.now() + delay });
      cancelRetry = schedule(connect, delay);
    });
  };

  options.onConnection({ state: 'connecting' });
  connect();

  return {
    stop() {
      stopped = true;
      cancelRetry();
      cancelWatchdog();
      socket?.terminate();
      socket = undefined;
    },
  };
}
