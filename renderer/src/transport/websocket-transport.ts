/**
 * The browser host's side of the bridge: the IPC contract over a loopback WebSocket. The per-run
 * secret arrives in the URL fragment (never sent to a server or in a Referer); it is moved to
 * sessionStorage at once and the fragment removed, so reloads keep working and the secret does not
 * linger in the address bar or history. The connection is re-opened when it drops; every change of
 * the link (`connected`, `reconnecting`, `lost` when the host refused the secret) is reported through
 * `onLinkChange`, so the renderer can say so (stores/link-store.ts).
 */
import type { Envelope } from '../../../common/app-error';
import {
  BRIDGE_PATH,
  CLOSE_UNAUTHORISED,
  type ClientMessage,
  ServerMessageSchema,
  TOKEN_FRAGMENT_KEY,
} from '../../../common/bridge-protocol';
import type { Channel, EventName, Transport } from '../../../common/ipc-contract';
import { parseJsonMessage } from '../../../common/json-message';
import type { LinkState } from '../stores/link-store';

const SECRET_KEY = 'hubdesk.bridge-secret';
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5_000;

const LOST: Envelope<never> = { ok: false, error: { code: 'internal', message: 'The connection to Hubdesk was lost. Please try again.' } };
const REFUSED_MESSAGE = 'This page is not connected to Hubdesk. Open the address Hubdesk printed when it started.';
const REFUSED: Envelope<never> = { ok: false, error: { code: 'internal', message: REFUSED_MESSAGE } };

const CLOSED_REASON = 'The connection to Hubdesk closed.';
/** The link is refused for good (no or an old secret: Hubdesk restarted); the page cannot fix that itself. */
const GAVE_UP_REASON = 'Hubdesk does not accept this page, perhaps because it restarted. Open the address Hubdesk printed when it started.';
const NOT_ANSWERING_REASON = 'Hubdesk is not answering.';

export interface WebSocketTransportOptions {
  /** Told every time the link changes (not repeated while it stays the same). */
  onLinkChange?: (link: LinkState) => void;
}

export function createWebSocketTransport(options: WebSocketTransportOptions = {}): Transport {
  const secret = takeSecret();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const pending = new Map<number, (envelope: Envelope<unknown>) => void>();
  const queue: ClientMessage[] = [];
  let nextId = 1;
  let socket: WebSocket | undefined;
  let welcomed = false;
  let refused = secret === undefined;
  let retryMs = RETRY_MIN_MS;
  let everWelcomed = false;
  const report = (link: LinkState) => options.onLinkChange?.(link);

  const send = (message: ClientMessage) => {
    if (welcomed && socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else queue.push(message);
  };

  const connect = () => {
    if (refused) return;
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${BRIDGE_PATH}`);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: secret }));
    ws.onmessage = (event) => {
      const parsed = typeof event.data === 'string' ? safeParse(event.data) : undefined;
      if (!parsed) return;
      if (parsed.type === 'welcome') {
        welcomed = true;
        everWelcomed = true;
        retryMs = RETRY_MIN_MS;
        report({ state: 'connected' });
        for (const message of queue.splice(0)) ws.send(JSON.stringify(message));
      } else if (parsed.type === 'result') {
        const resolve = pending.get(parsed.id);
        pending.delete(parsed.id);
        resolve?.(parsed.envelope as Envelope<unknown>);
      } else {
        for (const listener of listeners.get(parsed.name) ?? []) listener(parsed.payload);
      }
    };
    ws.onclose = (event) => {
      welcomed = false;
      refused ||= event.code === CLOSE_UNAUTHORISED;
      // Requests already sent may or may not have run: report them lost rather than guess.
      for (const [id, resolve] of pending) {
        if (!queue.some((m) => m.type === 'invoke' && m.id === id)) {
          pending.delete(id);
          resolve(refused ? REFUSED : LOST);
        }
      }
      if (refused) {
        for (const resolve of pending.values()) resolve(REFUSED);
        pending.clear();
        queue.length = 0;
        report({ state: 'lost', reason: GAVE_UP_REASON });
        return;
      }
      report({ state: 'reconnecting', reason: everWelcomed ? CLOSED_REASON : NOT_ANSWERING_REASON });
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
  };
  connect();
  if (refused) report({ state: 'lost', reason: GAVE_UP_REASON });

  return {
    invoke(channel: Channel, args: unknown[]) {
      if (refused) return Promise.resolve(REFUSED);
      const id = nextId++;
      return new Promise<Envelope<unknown>>((resolve) => {
        pending.set(id, resolve);
        send({ type: 'invoke', id, channel, args });
      });
    },
    on(event: EventName, listener: (payload: unknown) => void) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

function takeSecret(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1)).get(TOKEN_FRAGMENT_KEY);
  if (fragment) {
    sessionStorage.setItem(SECRET_KEY, fragment);
    history.replaceState(null, '', `${location.pathname}${location.search}`);
    return fragment;
  }
  return sessionStorage.getItem(SECRET_KEY) ?? undefined;
}

const safeParse = (text: string) => parseJsonMessage(ServerMessageSchema, text);
