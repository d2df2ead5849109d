/**
 * The browser host's server over real loopback sockets, with a stand-in core: who may use the
 * bridge, what it carries, what the static server and the OAuth loopback redirect accept.
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_SUPERSEDED, CLOSE_UNAUTHORISED } from '../../../../common/bridge-protocol';
import type { SessionView } from '../../../../common/ipc-contract';
import type { HubdeskCore, OAuthCallbackParams } from '../../../../main/core/host/hubdesk-core';
import { type RunningBrowserHost, startBrowserHostServer } from '../../../../main/browser-host/server';
import { bridgeMessages } from '../../../support/bridge-messages';
import { fakeHubdeskCore, recordingLogger } from '../../../support/core-fakes';
import { tempDir } from '../../../support/temp-dir';

const SECRET = 'the-per-run-secret';
const view: SessionView = {
  auth: { status: 'signed-out' },
  notices: [],
  backend: { authUrl: 'http://127.0.0.1:1', embedded: true, portalUrl: null },
  tokenStorage: 'encrypted',
  allowUnencryptedRoutes: true,
};
const callbacks: OAuthCallbackParams[] = [];
let redirectUri = '';
let host: RunningBrowserHost;

function fakeCore(): HubdeskCore {
  return fakeHubdeskCore(
    { 'session.get': async () => view, 'hubs.open': async () => undefined },
    {
      handleOAuthCallback: async (params) => {
        callbacks.push(params);
        return params.state === 'expected' ? 'accepted' : 'ignored';
      },
    },
  );
}

beforeAll(async () => {
  const root = tempDir('static');
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Hubdesk</title>');
  host = await startBrowserHostServer({
    staticRoot: root,
    secret: SECRET,
    logger: recordingLogger(),
    createCore: async (uri) => {
      redirectUri = uri;
      return fakeCore();
    },
  });
});
afterAll(() => host?.close());

/** Raw HTTP, so the Host header can be anything (fetch would not let a test forge it). */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(host.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host: url.host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(origin = host.origin): WebSocket {
  return new WebSocket(`${host.origin.replace('http', 'ws')}/bridge`, { origin });
}

describe('browser host server', () => {
  it('gives the core a loopback redirect URI on its own port', () => {
    expect(redirectUri).toBe(`${host.origin}/oauth/callback`);
    expect(host.appUrl).toBe(`${host.origin}/#token=${SECRET}`);
  });

  it('serves the app with a strict CSP and refuses other host names and path traversal', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(String(index.headers['content-security-policy'])).toContain("script-src 'self'");
    expect((await get('/', { host: 'evil.example:80' })).status).toBe(421);
    expect((await get('/../../../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(404);
  });

  it('passes a well-formed loopback callback to the core and rejects malformed ones', async () => {
    callbacks.length = 0;
    const accepted = await get('/oauth/callback?code=abc&state=expected');
    expect(accepted.status).toBe(200);
    expect(callbacks).toEqual([{ code: 'abc', state: 'expected' }]);
    expect((await get('/oauth/callback?code=abc&state=other')).status).toBe(400);
    expect((await get('/oauth/callback?code=a&code=b&state=expected')).status).toBe(400);
    expect(callbacks).toHaveLength(2); // the duplicated one never reached the core
  });

  it('applies the deep links’ strict rules to the loopback callback: only an authorisation response reaches the core', async () => {
    callbacks.length = 0;
    expect((await get('/oauth/callback?code=1&state=expected&iss=x')).status).toBe(200);
    expect(callbacks).toEqual([{ code: '1', state: 'expected' }]); // iss dropped
    for (const query of [
      'code=1&redirect=evil',
      'code=1&error=access_denied&state=expected',
      'state=expected',
      'code=&state=expected',
      'code=%0d%0a&state=expected',
      'code=%E0%A4&state=expected',
      `code=${'x'.repeat(5000)}&state=expected`,
    ]) {
      expect((await get(`/oauth/callback?${query}`)).status, query).toBe(400);
    }
    expect(callbacks).toHaveLength(1);
  });

  it('refuses a WebSocket from another origin', async () => {
    const ws = connect('http://evil.example');
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(403);
  });

  it('closes a connection that does not know the secret', async () => {
    const ws = connect();
    const inbox = bridgeMessages(ws);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token: 'guess' })));
    expect(await inbox.closed).toBe(CLOSE_UNAUTHORISED);
  });

  it('refuses invokes before hello', async () => {
    const ws = connect();
    const inbox = bridgeMessages(ws);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'session.get', args: [] })));
    expect(await inbox.closed).toBe(CLOSE_UNAUTHORISED);
  });

  it('one tab at a time: a page just opened takes the app; a tab that reconnects by itself leaves it to the one in use', async () => {
    const hello = async (takeOver: boolean | undefined) => {
      const ws = connect();
      const inbox = bridgeMessages(ws);
      await new Promise((resolve) => ws.on('open', resolve));
      expect(await inbox.next()).toMatchObject({ type: 'challenge' });
      ws.send(JSON.stringify({ type: 'hello', token: SECRET, ...(takeOver !== undefined && { takeOver }) }));
      return { ws, inbox };
    };
    const welcomed = async (tab: Awaited<ReturnType<typeof hello>>) => {
      expect(await tab.inbox.next()).toMatchObject({ type: 'welcome' });
      expect(await tab.inbox.next()).toMatchObject({ type: 'event', name: 'session.changed' });
      return tab;
    };
    // No tab in use: a reconnecting one is welcomed.
    const first = await welcomed(await hello(false));
    // A page that only connects (no hello yet) takes nothing from the tab in use.
    const idle = connect();
    await new Promise((resolve) => idle.on('open', resolve));
    first.ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'session.get', args: [] }));
    expect(await first.inbox.next()).toMatchObject({ type: 'result', id: 1, envelope: { ok: true } });
    idle.close();

    // A tab that reconnects by itself while another is in use gives way, and is told why.
    const late = await hello(false);
    expect(await late.inbox.closed).toBe(CLOSE_SUPERSEDED);
    // A page just opened takes the app: the tab in use is closed as superseded.
    const second = await welcomed(await hello(true));
    expect(await first.inbox.closed).toBe(CLOSE_SUPERSEDED);
    second.ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'session.get', args: [] }));
    expect(await second.inbox.next()).toMatchObject({ type: 'result', id: 2, envelope: { ok: true, value: view } });
    second.ws.close();
    await second.inbox.closed;
  });

  it('after hello: sends the session, answers invokes and validates their arguments', async () => {
    const ws = connect();
    const inbox = bridgeMessages(ws);
    await new Promise((resolve) => ws.on('open', resolve));
    expect(await inbox.next()).toMatchObject({ type: 'challenge' });
    ws.send(JSON.stringify({ type: 'hello', token: SECRET, takeOver: true }));
    expect(await inbox.next()).toEqual({ type: 'welcome', resumeKey: expect.stringMatching(/^[\w-]{43}$/) as string, build: expect.any(String) as string });
    expect(await inbox.next()).toEqual({ type: 'event', name: 'session.changed', payload: view });
    ws.send(JSON.stringify({ type: 'invoke', id: 7, channel: 'session.get', args: [] }));
    expect(await inbox.next()).toEqual({ type: 'result', id: 7, envelope: { ok: true, value: view } });
    ws.send(JSON.stringify({ type: 'invoke', id: 8, channel: 'hubs.open', args: [42] }));
    expect(await inbox.next()).toMatchObject({ type: 'result', id: 8, envelope: { ok: false, error: { code: 'invalid-argument' } } });
    ws.send(JSON.stringify({ type: 'invoke', id: 9, channel: 'process.exit', args: [] }));
    expect(await inbox.next()).toMatchObject({ id: 9, envelope: { ok: false, error: { code: 'invalid-argument' } } });
    ws.send('not json');
    expect(await inbox.closed).not.toBe(1000);
  });
});
