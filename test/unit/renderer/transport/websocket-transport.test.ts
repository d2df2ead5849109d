/** The browser host's transport reports the link to main as it changes (issue 13 §2); the globals of a page are faked. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_UNAUTHORISED } from '../../../../common/bridge-protocol';
import type { Transport } from '../../../../common/ipc-contract';
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
  welcome() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
    this.onmessage?.({ data: JSON.stringify({ type: 'welcome' }) });
  }
  close(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  const session = new Map<string, string>();
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('location', { protocol: 'http:', host: '127.0.0.1:1234', hash: '#token=secret', pathname: '/', search: '' });
  vi.stubGlobal('history', { replaceState: () => {} });
  vi.stubGlobal('sessionStorage', { getItem: (key: string) => session.get(key) ?? null, setItem: (key: string, value: string) => void session.set(key, value) });
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
});
