/**
 * The browser host's side of the bridge: the IPC contract over a loopback WebSocket. The per-run
 * secret arrives in the URL fragment (never sent to a server or in a Referer); it is moved to
 * sessionStorage at once and the fragment removed, so reloads keep working and the secret does not
 * linger in the address bar or history. The connection is re-opened when it drops; every change of
 * the link (`connected`, `reconnecting`, `waiting` while nothing answers, `lost` when the host refused
 * the page, `elsewhere` when another tab took the app) is reported through `onLinkChange`, so the
 * renderer can say so (stores/link-store.ts).
 *
 * A host that restarted on the same profile listens on the same port and knows the resume key the
 * last run gave this page (kept in memory only, never in storage): the page proves it, checks the
 * host's proof, takes the new secret, and carries on, or reloads when the host serves another build
 * (docs/architecture.md, "The browser host across restarts").
 */
import type { Envelope } from '../../../common/app-error';
import {
  BRIDGE_PATH,
  CLOSE_SUPERSEDED,
  CLOSE_UNAUTHORISED,
  type ClientMessage,
  ServerMessageSchema,
  TOKEN_FRAGMENT_KEY,
} from '../../../common/bridge-protocol';
import { randomToken, resumeProof } from '../../../common/bridge-resume';
import type { Transport } from '../../../common/contract-bridge';
import type { Channel, EventName } from '../../../common/ipc-contract';
import { parseJsonMessage } from '../../../common/json-message';
import type { LinkState } from '../stores/link-store';

const SECRET_KEY = 'hubdesk.bridge-secret';
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5_000;

const LOST: Envelope<never> = { ok: false, error: { code: 'internal', message: 'The connection to Hubdesk was lost. Please try again.' } };
const REFUSED_MESSAGE = 'This page is not connected to Hubdesk. Open the address Hubdesk printed when it started.';
const REFUSED: Envelope<never> = { ok: false, error: { code: 'internal', message: REFUSED_MESSAGE } };

/** Another tab took the link (CLOSE_SUPERSEDED): this one waits until the user takes it back. */
const ELSEWHERE: Envelope<never> = {
  ok: false,
  error: { code: 'internal', message: 'Hubdesk is open in another tab. Choose "Use here" to use it in this one.' },
};

const CLOSED_REASON = 'The connection to Hubdesk closed.';
/** The link is refused for good (no or an old secret: Hubdesk restarted); the page cannot fix that itself. */
const GAVE_UP_REASON = 'Hubdesk does not accept this page, perhaps because it restarted. Open the address Hubdesk printed when it started.';
/** A resume was refused: the key this page holds is not the one the host's last run gave out. */
const NOT_RECOGNISED_REASON =
  'Hubdesk was restarted and does not recognise this tab (Hubdesk restarted twice, or the tab was reloaded while Hubdesk was away). Open the address Hubdesk printed when it started.';
const NOT_ANSWERING_REASON = 'Hubdesk is not answering.';
const WAITING_REASON =
  'This tab connects again by itself as soon as Hubdesk is back. If Hubdesk started again at another address, open the address it printed.';
/** Attempts in a row without a welcome before the page says Hubdesk is not running (`waiting`). */
const ATTEMPTS_BEFORE_WAITING = 3;

/** The page's view of the host run it is linked to: kept in memory, so a page loaded from elsewhere never has it. */
interface KnownRun {
  run: string;
  resumeKey: string;
  build: string;
}

export interface WebSocketTransportOptions {
  /** Told every time the link changes (not repeated while it stays the same). */
  onLinkChange?: (link: LinkState) => void;
}

export function createWebSocketTransport(options: WebSocketTransportOptions = {}): Transport {
  let secret = takeSecret();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const pending = new Map<number, (envelope: Envelope<unknown>) => void>();
  const queue: ClientMessage[] = [];
  let nextId = 1;
  let socket: WebSocket | undefined;
  let welcomed = false;
  let refused = secret === undefined;
  let retryMs = RETRY_MIN_MS;
  let everWelcomed = false;
  let known: KnownRun | undefined;
  let attemptsWithoutWelcome = 0;
  let resumeRefused = false;
  /** Another tab said hello after this one: no reconnecting until the user takes the app back (a reload). */
  let superseded = false;
  const report = (link: LinkState) => options.onLinkChange?.(link);

  const send = (message: ClientMessage) => {
    if (welcomed && socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else queue.push(message);
  };

  const connect = () => {
    if (refused || superseded) return;
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${BRIDGE_PATH}`);
    socket = ws;
    const say = (message: ClientMessage) => ws.send(JSON.stringify(message));
    let offeredRun: string | undefined;
    let resume: { key: string; hostNonce: string; tabNonce: string } | undefined;
    ws.onmessage = (event) => {
      const parsed = typeof event.data === 'string' ? safeParse(event.data) : undefined;
      if (!parsed) return;
      if (parsed.type === 'challenge') {
        if (offeredRun !== undefined) return ws.close();
        offeredRun = parsed.run;
        // Another run of the host than the one that welcomed this page: its secret is gone, prove the resume key instead.
        if (known === undefined || known.run === parsed.run) return say({ type: 'hello', token: secret ?? '', takeOver: !everWelcomed });
        resume = { key: known.resumeKey, hostNonce: parsed.nonce, tabNonce: randomToken() };
        resumeRefused = true; // until the host answers with its proof
        const exchange = { origin: location.origin, ...resume };
        void resumeProof(resume.key, 'tab', exchange).then((proof) => {
          if (ws.readyState === WebSocket.OPEN) say({ type: 'resume', nonce: exchange.tabNonce, proof });
        });
      } else if (parsed.type === 'resumed') {
        const asked = resume;
        resume = undefined;
        resumeRefused = false;
        if (!asked) return ws.close();
        void resumeProof(asked.key, 'host', { origin: location.origin, ...asked }).then((expected) => {
          // Not the host that gave the key (whoever else listens on the port): tell it nothing more.
          if (expected !== parsed.proof) return ws.close();
          secret = parsed.token;
          sessionStorage.setItem(SECRET_KEY, parsed.token);
          if (ws.readyState === WebSocket.OPEN) say({ type: 'hello', token: parsed.token, takeOver: false });
        });
      } else if (parsed.type === 'welcome') {
        const reloadForBuild = known !== undefined && known.build !== parsed.build;
        known = { run: offeredRun ?? '', resumeKey: parsed.resumeKey, build: parsed.build };
        if (reloadForBuild) {
          // The restarted host serves another renderer: this page's code may not match its contract.
          report({ state: 'restarted' });
          ws.onclose = null;
          ws.close();
          location.reload();
          return;
        }
        welcomed = true;
        everWelcomed = true;
        attemptsWithoutWelcome = 0;
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
      if (event.code === CLOSE_SUPERSEDED) {
        superseded = true;
        for (const resolve of pending.values()) resolve(ELSEWHERE);
        pending.clear();
        queue.length = 0;
        report({ state: 'elsewhere' });
        return;
      }
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
        report({ state: 'lost', reason: resumeRefused ? NOT_RECOGNISED_REASON : GAVE_UP_REASON });
        return;
      }
      resumeRefused = false;
      attemptsWithoutWelcome++;
      if (attemptsWithoutWelcome > ATTEMPTS_BEFORE_WAITING) report({ state: 'waiting', reason: WAITING_REASON });
      else report({ state: 'reconnecting', reason: everWelcomed ? CLOSED_REASON : NOT_ANSWERING_REASON });
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
  };
  connect();
  if (refused) report({ state: 'lost', reason: GAVE_UP_REASON });

  return {
    invoke(channel: Channel, args: unknown[]) {
      if (refused) return Promise.resolve(REFUSED);
      if (superseded) return Promise.resolve(ELSEWHERE);
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
