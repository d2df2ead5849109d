/**
 * The browser host's transport reports the link to main as it changes (docs/device-controls.md,
 * "Connection state and deadlines"), and finds a restarted host again (docs/architecture.md, "The
 * browser host across restarts"); the globals of a page are faked, the proofs are real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_SUPERSEDED, CLOSE_UNAUTHORISED } from '../../../../common/bridge-protocol';
import { randomToken, resumeProof } from '../../../../common/bridge-resume';
import type { Transport } from '../../../../common/contract-bridge';
import type { LinkState } from '../../../../renderer/src/stores/link-store';

// Imported by a path the type checker does not follow: the module uses a page's globals (location,
// sessionStorage), which the node project's types do not have; they are faked below.
const TRANSPORT_MODULE = '../../../../renderer/src/transport/websocket-transport';
const { createWebSocketTransport } = (await import(/* @vite-ignore */ TRANSPORT_MODULE)) as {
  createWebSocketTransport(options: { onLinkChange?: (link: LinkState) => void }): Transport;
};

class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  /** The host's first message; returns the nonce. */
  challenge(run = RUN) {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
    const nonce = randomToken();
    this.receive({ type: 'challenge', run, nonce });
    return nonce;
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  welcome(run = RUN, build = BUILD) {
    this.challenge(run);
    this.receive({ type: 'welcome', resumeKey: RESUME_KEY, build });
  }
  messages(): Record<string, unknown>[] {
    return this.sent.map((text) => JSON.parse(text) as Record<string, unknown>);
  }
  close(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const RUN = randomToken();
const RESUME_KEY = randomToken();
const BUILD = 'build-1';
const ORIGIN = 'http://127.0.0.1:1234';
let reloads = 0;
let session: Map<string, string>;

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  session = new Map<string, string>();
  reloads = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('location', {
    protocol: 'http:',
    host: '127.0.0.1:1234',
    origin: ORIGIN,
    hash: '#token=secret',
    pathname: '/',
    search: '',
    reload: () => reloads++,
  });
  vi.stubGlobal('history', { replaceState: () => {} });
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => session.get(key) ?? null,
    setItem: (key: string, value: string) => void session.set(key, value),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('WebSocket transport: the link', () => {
  it('reports connected on welcome, reconnecting when the socket closes, and connected again once re-opened', async () => {
    const seen: LinkState[] = [];
    const transport = createWebSocketTransport({ onLinkChange: (link) => seen.push(link) });
    FakeSocket.all[0]!.welcome();
    expect(seen).toEqual([{ state: 'connected' }]);

    const answer = transport.invoke('session.get', []);
    FakeSocket.all[0]!.close();
    expect(seen.at(-1)).toEqual({ state: 'reconnecting', reason: 'The connection to Hubdesk closed.' });
    // A request already sent is reported lost, not left hanging.
    await expect(answer).resolves.toMatchObject({ ok: false });

    await vi.advanceTimersByTimeAsync(250);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.welcome();
    expect(seen.at(-1)).toEqual({ state: 'connected' });
  });

  it('reports lost, with what to do, when the host refuses the page', () => {
    const seen: LinkState[] = [];
    createWebSocketTransport({ onLinkChange: (link) => seen.push(link) });
    FakeSocket.all[0]!.close(CLOSE_UNAUTHORISED);
    expect(seen).toEqual([{ state: 'lost', reason: expect.stringContaining('Open the address Hubdesk printed') as string }]);
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(1); // it gave up
  });

  it('stops, without reconnecting, when another tab takes the app; its requests say so', async () => {
    const seen: LinkState[] = [];
    const transport = createWebSocketTransport({ onLinkChange: (link) => seen.push(link) });
    FakeSocket.all[0]!.welcome();
    // The page's first hello takes the app from any other tab; a reconnect's would not (the server decides).
    expect(FakeSocket.all[0]!.messages()[0]).toEqual({ type: 'hello', token: 'secret', takeOver: true });
    const inFlight = transport.invoke('session.get', []);
    FakeSocket.all[0]!.close(CLOSE_SUPERSEDED);
    expect(seen).toEqual([{ state: 'connected' }, { state: 'elsewhere' }]);
    await expect(inFlight).resolves.toMatchObject({ ok: false, error: { message: expect.stringContaining('open in another tab') as string } });
    await expect(transport.invoke('session.get', [])).resolves.toMatchObject({ ok: false, error: { message: expect.stringContaining('Use here') as string } });
    await vi.advanceTimersByTimeAsync(10_000);
    // No reconnecting: the two tabs would take the app from each other for ever.
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('says Hubdesk is not running once several attempts found nothing, and keeps trying', async () => {
    const seen: LinkState[] = [];
    createWebSocketTransport({ onLinkChange: (link) => seen.push(link) });
    FakeSocket.all[0]!.welcome();
    FakeSocket.all[0]!.close();
    for (let attempt = 1; attempt <= 3; attempt++) {
      await vi.advanceTimersByTimeAsync(5_000);
      FakeSocket.all[attempt]!.close();
    }
    expect(seen.at(-1)).toEqual({ state: 'waiting', reason: expect.stringContaining('connects again by itself') as string });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.all).toHaveLength(5);
  });
});

/** Waits for what the transport does once a proof is made (Web Crypto answers on its own time, not the fake timers'). */
const once = (check: () => void) => vi.waitFor(check, { interval: 1 });

describe('WebSocket transport: a restarted host', () => {
  async function restarted() {
    const seen: LinkState[] = [];
    const transport = createWebSocketTransport({ onLinkChange: (link) => seen.push(link) });
    FakeSocket.all[0]!.welcome();
    FakeSocket.all[0]!.close();
    await vi.advanceTimersByTimeAsync(250);
    const socket = FakeSocket.all[1]!;
    const hostNonce = socket.challenge(randomToken()); // another run
    await once(() => expect(socket.sent).toHaveLength(1));
    return { seen, transport, socket, hostNonce };
  }

  it('proves the resume key for its own origin instead of sending the old secret', async () => {
    const { socket, hostNonce } = await restarted();
    const [resume] = socket.messages();
    expect(resume).toMatchObject({ type: 'resume' });
    expect(socket.sent.join()).not.toContain('secret');
    const exchange = { origin: ORIGIN, hostNonce, tabNonce: resume!.nonce as string };
    expect(resume!.proof).toBe(await resumeProof(RESUME_KEY, 'tab', exchange));
    expect(resume!.proof).not.toBe(await resumeProof(RESUME_KEY, 'tab', { ...exchange, origin: 'http://localhost:1234' }));
  });

  it('takes the new secret from a host that proves the key too, and is connected again without a reload', async () => {
    const { seen, socket, hostNonce } = await restarted();
    const tabNonce = socket.messages()[0]!.nonce as string;
    socket.receive({ type: 'resumed', token: 'the-new-secret', proof: await resumeProof(RESUME_KEY, 'host', { origin: ORIGIN, hostNonce, tabNonce }) });
    await once(() => expect(socket.sent).toHaveLength(2));
    expect(socket.messages()[1]).toEqual({ type: 'hello', token: 'the-new-secret', takeOver: false });
    expect(session.get('hubdesk.bridge-secret')).toBe('the-new-secret');
    socket.receive({ type: 'welcome', resumeKey: randomToken(), build: BUILD });
    expect(seen.at(-1)).toEqual({ state: 'connected' });
    expect(reloads).toBe(0);
  });

  it('reloads when the restarted host serves another build', async () => {
    const { seen, socket, hostNonce } = await restarted();
    const tabNonce = socket.messages()[0]!.nonce as string;
    socket.receive({ type: 'resumed', token: 'the-new-secret', proof: await resumeProof(RESUME_KEY, 'host', { origin: ORIGIN, hostNonce, tabNonce }) });
    await once(() => expect(socket.sent).toHaveLength(2));
    socket.receive({ type: 'welcome', resumeKey: randomToken(), build: 'build-2' });
    expect(seen.at(-1)).toEqual({ state: 'restarted' });
    expect(reloads).toBe(1);
  });

  it('tells a host that cannot prove the key nothing more, and keeps looking for the real one', async () => {
    const { socket } = await restarted();
    socket.receive({ type: 'resumed', token: 'a-stand-in-secret', proof: '0'.repeat(64) });
    await once(() => expect(socket.readyState).toBe(3));
    expect(socket.messages().map((m) => m.type)).toEqual(['resume']);
    expect(session.get('hubdesk.bridge-secret')).toBe('secret');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('gives up, saying the tab was not recognised, when the host refuses the proof', async () => {
    const { seen, socket } = await restarted();
    socket.close(CLOSE_UNAUTHORISED);
    expect(seen.at(-1)).toEqual({ state: 'lost', reason: expect.stringContaining('does not recognise this tab') as string });
  });
});
