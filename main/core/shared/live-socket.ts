/**
 * The socket port of the hub's realtime channel: text frames in and out, whether the hub still answers,
 * and one `onClose` however the socket ended (closed by the hub with a code, dropped, given up after a
 * long silence, or refused with an HTTP status instead of an upgrade). The core gets a `ws` WebSocket
 * from the host (which knows which CAs to trust) and adapts it here; unit tests give open-hub a fake.
 *
 * Liveness (docs/hub-realtime.md, "Liveness"; heartbeat.ts): a ping every REALTIME_PING_MS — the
 * protocol's own `ping`, which the hub itself answers whatever relays the route, once its `ready` said it
 * answers it; a WebSocket ping before that and to an older hub. Nothing from the hub for
 * REALTIME_SILENT_AFTER_MS: `onResponding(false)`, the socket kept; the first frame or pong after that:
 * `onResponding(true)`. Silent for REALTIME_GIVE_UP_AFTER_MS: the socket is given up (`onClose`).
 */
import WebSocket from 'ws';
import { REALTIME_PATH, REALTIME_PING, REALTIME_PONG, RealtimeServerMessageSchema } from '../../../common/hub-control';
import { parseJsonMessage } from '../../../common/json-message';
import { startHeartbeat, type Heartbeat } from './heartbeat';
import { type Clock, realSchedule, type Schedule, systemClock } from './ports';

/** Bounds one hub frame: a device with all its capabilities fits many times over. */
export const MAX_REALTIME_FRAME_BYTES = 4 * 1024 * 1024;
export const REALTIME_HANDSHAKE_TIMEOUT_MS = 10_000;
/** The app pings the hub this often (docs/hub-realtime.md, "Liveness": the bytes it costs). */
export const REALTIME_PING_MS = 2_000;
/** Nothing heard from the hub for this long: it is not responding (two pings unanswered). */
export const REALTIME_SILENT_AFTER_MS = 4_000;
/** Nothing heard for this long: the socket is given up and the channel reconnects (a dead route, e.g. after sleep). */
export const REALTIME_GIVE_UP_AFTER_MS = 20_000;
/** The reason `onClose` carries when the socket was given up. */
export const GAVE_UP_REASON = `the hub did not answer for ${REALTIME_GIVE_UP_AFTER_MS / 1000} s`;

export interface LiveSocketEnd {
  /** The close code (1006 when the connection dropped without one). */
  code: number;
  reason: string;
  /** Set when the hub answered the upgrade with an HTTP status instead (e.g. 404: no realtime here). */
  httpStatus?: number;
}

export interface LiveSocketHandlers {
  onOpen(): void;
  onMessage(text: string): void;
  /**
   * The hub stopped answering (`false`: nothing from it, not even a pong, for REALTIME_SILENT_AFTER_MS while
   * the socket is open) or answers again (`true`: the first frame or pong after that). Called only between
   * `onOpen` and `onClose`, and only on a change.
   */
  onResponding(responding: boolean): void;
  /** Called once, whatever ended the socket; not called after `close` from our side. */
  onClose(end: LiveSocketEnd): void;
}

export interface LiveSocket {
  send(text: string): void;
  /** Ends the socket from our side; no `onClose` follows. */
  close(): void;
}

/** `namedHub`: the hub the TLS certificate must name (an address heard over mDNS, hub-client.ts `HubAddress`). */
export type OpenLiveSocket = (url: string, handlers: LiveSocketHandlers, namedHub?: string) => LiveSocket;

/** What a host builds a `ws` client with (e.g. with `ca` for a hub's LAN certificate). */
export type OpenWebSocket = (url: string, options: WebSocket.ClientOptions) => WebSocket;

export const plainWebSocket: OpenWebSocket = (url, options) => new WebSocket(url, options);

/** The realtime URL on a hub base URL: same host and path prefix, http→ws and https→wss. */
export function realtimeUrl(baseUrl: string): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + REALTIME_PATH);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** Whether a frame is the hub's `ready` and says it answers pings; undefined for any other frame. */
function readyAnswersPing(text: string): boolean | undefined {
  if (!text.startsWith('{"type":"ready"')) return undefined; // how the reference hub writes it; any other hub gets WebSocket pings
  const message = parseJsonMessage(RealtimeServerMessageSchema, text);
  return message?.type === 'ready' ? message.answersPing === true : undefined;
}

/** `openerFor` gives the host's opener for an address (checking the certificate names `namedHub` when set). */
export function wsLiveSocket(
  openerFor: (namedHub: string | undefined) => OpenWebSocket = () => plainWebSocket,
  schedule: Schedule = realSchedule,
  clock: Clock = systemClock,
): OpenLiveSocket {
  return (url, handlers, namedHub) => {
    // Never follow a redirect: the token goes only to the hub that was asked.
    const ws = openerFor(namedHub)(url, { maxPayload: MAX_REALTIME_FRAME_BYTES, handshakeTimeout: REALTIME_HANDSHAKE_TIMEOUT_MS, followRedirects: false });
    let closedByUs = false;
    let gaveUp = false;
    let httpStatus: number | undefined;
    /** Set by the hub's `ready`: whether it answers the protocol's ping (else WebSocket pings go on). */
    let answersPing: boolean | undefined;
    let heartbeat: Heartbeat | undefined;
    const heard = () => heartbeat?.heard();
    ws.on('open', () => {
      heartbeat = startHeartbeat({
        schedule,
        clock,
        pingMs: REALTIME_PING_MS,
        silentAfterMs: REALTIME_SILENT_AFTER_MS,
        giveUpAfterMs: REALTIME_GIVE_UP_AFTER_MS,
        ping: () => (answersPing ? ws.send(REALTIME_PING) : ws.ping()),
        onResponding: (responding) => handlers.onResponding(responding),
        onGiveUp: () => {
          gaveUp = true;
          ws.terminate();
        },
      });
      handlers.onOpen();
    });
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('message', (data, isBinary) => {
      heard();
      if (closedByUs) return;
      const text = isBinary ? '' : data.toString();
      if (text === REALTIME_PONG) return; // the heartbeat's answer, nothing for the channel
      answersPing ??= readyAnswersPing(text);
      handlers.onMessage(text);
    });
    ws.on('unexpected-response', (_request, response) => {
      httpStatus = response.statusCode;
      response.resume();
      ws.terminate();
    });
    ws.on('error', () => {}); // every error is followed by 'close', which is what the channel acts on
    ws.on('close', (code, reason) => {
      heartbeat?.stop();
      if (closedByUs) return;
      handlers.onClose({ code, reason: gaveUp ? GAVE_UP_REASON : reason.toString(), ...(httpStatus !== undefined && { httpStatus }) });
    });
    return {
      send(text) {
        if (ws.readyState === WebSocket.OPEN) ws.send(text);
      },
      close() {
        closedByUs = true;
        heartbeat?.stop();
        ws.terminate();
      },
    };
  };
}
