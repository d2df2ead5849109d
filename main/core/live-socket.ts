/**
 * The socket port of the hub's realtime channel: text frames in and out, and one `onClose` however the
 * socket ended (closed by the hub with a code, dropped, or refused with an HTTP status instead of an
 * upgrade). The core gets a `ws` WebSocket from the host (which knows which CAs to trust) and adapts
 * it here; unit tests give open-hub a fake.
 */
import WebSocket from 'ws';
import { REALTIME_PATH } from '../../common/hub-control';
import { realSchedule, type Schedule } from './ports';

/** Bounds one hub frame: a device with all its capabilities fits many times over. */
export const MAX_REALTIME_FRAME_BYTES = 4 * 1024 * 1024;
export const REALTIME_HANDSHAKE_TIMEOUT_MS = 10_000;
/** The app pings the hub this often and drops a socket whose previous ping went unanswered (a dead route, e.g. after sleep). */
export const REALTIME_CLIENT_PING_MS = 30_000;
export const REALTIME_SILENT_AFTER_MS = 4_000;

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

/** `openerFor` gives the host's opener for an address (checking the certificate names `namedHub` when set). */
export function wsLiveSocket(openerFor: (namedHub: string | undefined) => OpenWebSocket = () => plainWebSocket, schedule: Schedule = realSchedule): OpenLiveSocket {
  return (url, handlers, namedHub) => {
    // Never follow a redirect: the token goes only to the hub that was asked.
    const ws = openerFor(namedHub)(url, { maxPayload: MAX_REALTIME_FRAME_BYTES, handshakeTimeout: REALTIME_HANDSHAKE_TIMEOUT_MS, followRedirects: false });
    let closedByUs = false;
    let httpStatus: number | undefined;
    let answered = true;
    // A ping every REALTIME_CLIENT_PING_MS; a hub that did not answer the last one is gone.
    let stopHeartbeat = () => {};
    const heartbeat = () => {
      stopHeartbeat = schedule(() => {
        if (ws.readyState === WebSocket.OPEN) {
          if (!answered) return void ws.terminate();
          answered = false;
          ws.ping();
        }
        heartbeat();
      }, REALTIME_CLIENT_PING_MS);
    };
    heartbeat();
    ws.on('pong', () => void (answered = true));
    ws.on('open', () => handlers.onOpen());
    ws.on('message', (data, isBinary) => {
      if (!closedByUs) handlers.onMessage(isBinary ? '' : data.toString());
    });
    ws.on('unexpected-response', (_request, response) => {
      httpStatus = response.statusCode;
      response.resume();
      ws.terminate();
    });
    ws.on('error', () => {}); // every error is followed by 'close', which is what the channel acts on
    ws.on('close', (code, reason) => {
      stopHeartbeat();
      if (closedByUs) return;
      handlers.onClose({ code, reason: reason.toString(), ...(httpStatus !== undefined && { httpStatus }) });
    });
    return {
      send(text) {
        if (ws.readyState === WebSocket.OPEN) ws.send(text);
      },
      close() {
        closedByUs = true;
        stopHeartbeat();
        ws.terminate();
      },
    };
  };
}
