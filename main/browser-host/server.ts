/**
 * The browser host's loopback server: the renderer's files, the OAuth loopback redirect
 * (RFC 8252 §7.3) and the WebSocket that carries the IPC contract. It listens on 127.0.0.1 only,
 * answers only requests addressed to that host name (no DNS rebinding), and serves the bridge only to
 * pages of its own origin that present the per-run secret, or that prove the previous run's resume key
 * (docs/architecture.md, "The browser host across restarts").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  BRIDGE_MAX_MESSAGE_BYTES,
  BRIDGE_PATH,
  ClientMessageSchema,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_SUPERSEDED,
  CLOSE_UNAUTHORISED,
  type ServerMessage,
  TOKEN_FRAGMENT_KEY,
} from '../../common/bridge-protocol';
import { EVENT_NAMES } from '../../common/ipc-contract';
import { randomToken, resumeProof } from '../../common/bridge-resume';
import { toWireEvents } from '../../common/snapshot-pages';
import { parseJsonMessage } from '../../common/json-message';
import { OAUTH_CALLBACK_PATH } from '../../common/oauth-redirect';
import { parseAuthorisationResponse } from '../core/sign-in';
import type { HubdeskCore } from '../core/host';
import { serialiseBounded, UNSENDABLE_ANSWER } from '../core/host';
import type { Logger } from '../core/shared';
import { contentSecurityPolicy } from '../csp';
import { errorMessage } from '../../common/error-message';

const HELLO_TIMEOUT_MS = 10_000;

export interface BrowserHostServerOptions {
  /** Folder with the built renderer (index.html and assets). */
  staticRoot: string;
  /** The per-run secret a page must present before it may use the bridge. */
  secret: string;
  /** This run's resume key, given to each page welcomed, and the previous run's, which a page may prove to get the new secret. */
  resumeKeys?: { current: string; previous?: string };
  /** Listen on this port, or fail. */
  port?: number;
  /** Listen on this port when it is free, else on any (ignored when `port` is given). */
  preferredPort?: number;
  logger: Logger;
  /** Builds the core once the port (and so the loopback redirect URI) is known. */
  createCore(redirectUri: string): Promise<HubdeskCore>;
}

export interface RunningBrowserHost {
  /** The origin the app is served from, e.g. http://127.0.0.1:5123 */
  origin: string;
  /** The address to open: the origin with the secret in the fragment. */
  appUrl: string;
  core: HubdeskCore;
  close(): Promise<void>;
}

export async function startBrowserHostServer(options: BrowserHostServerOptions): Promise<RunningBrowserHost> {
  const { logger } = options;
  let core: HubdeskCore | undefined;
  const server = createServer((request, response) => {
    handleHttp(request, response).catch((error: unknown) => {
      logger.error('browser host: request failed', { error: errorMessage(error) });
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'Internal error');
      else response.destroy();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_MESSAGE_BYTES });
  await listenOnLoopback(server, options.port, options.preferredPort, logger);
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = new Set([origin, `http://localhost:${port}`]);
  try {
    core = await options.createCore(`${origin}${OAUTH_CALLBACK_PATH}`);
  } catch (error) {
    server.close();
    throw error;
  }
  const readyCore = core;
  const dispatch = readyCore.dispatch;
  const run = randomToken();
  const resumeKeys = options.resumeKeys ?? { current: randomToken() };
  const build = await buildOf(options.staticRoot);

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!allowedHosts.has(request.headers.host ?? '')) return send(response, 421, 'text/plain; charset=utf-8', 'Misdirected request');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', { allow: 'GET, HEAD' });
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === OAUTH_CALLBACK_PATH) return handleCallback(url, response);
    return serveStatic(url.pathname, response);
  }

  async function handleCallback(url: URL, response: ServerResponse): Promise<void> {
    // The same strict parser as the Electron host's deep links: nothing malformed reaches the core.
    const parsed = parseAuthorisationResponse(url.search.slice(1));
    const outcome = parsed.ok ? await readyCore.handleOAuthCallback(parsed.params) : 'ignored';
    if (!parsed.ok) logger.warn('oauth: malformed loopback callback ignored', { reason: parsed.reason });
    const page =
      outcome === 'accepted'
        ? resultPage('Back to Hubdesk', 'Your browser has passed the answer to Hubdesk. You can close this tab and return to the Hubdesk tab.')
        : resultPage('Not expected', 'Hubdesk was not waiting for this sign-in answer, so it was ignored. Start the sign-in again from Hubdesk.');
    send(response, outcome === 'accepted' ? 200 : 400, 'text/html; charset=utf-8', page, {
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  }

  async function serveStatic(pathname: string, response: ServerResponse): Promise<void> {
    const relative = pathname === '/' ? 'index.html' : decodeSafely(pathname.slice(1));
    const file = relative === undefined ? undefined : inside(options.staticRoot, relative);
    if (!file) return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    const extra: Record<string, string> = type.startsWith('text/html')
      ? { 'content-security-policy': contentSecurityPolicy({ kind: 'browser-host', port }) }
      : {};
    send(response, 200, type, body, extra);
  }

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', origin);
    const refused =
      url.pathname !== BRIDGE_PATH ? 404 : !allowedHosts.has(request.headers.host ?? '') ? 421 : !allowedOrigins.has(request.headers.origin ?? '') ? 403 : 0;
    if (refused) {
      logger.warn('bridge: connection refused', { status: refused, origin: (request.headers.origin ?? '').slice(0, 100) });
      socket.end(`HTTP/1.1 ${refused} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveBridge(ws));
  });

  const expectedSecret = digest(options.secret);
  /**
   * The tab that drives the app: the last page opened, or the first to reconnect. The core has one open
   * hub, so two tabs would take it from each other, each waiting for a hub the other closed
   * (CLOSE_SUPERSEDED says who gives way).
   */
  let activeTab: WebSocket | undefined;
  function serveBridge(ws: WebSocket): void {
    let welcomed = false;
    let resuming = false;
    const hostNonce = randomToken();
    let unsubscribe: (() => void)[] = [];
    // Every frame is serialised inside a try and bounded (frame-guard.ts): an answer that cannot be
    // sent becomes an error envelope, an event is dropped; both are logged, nothing throws.
    const post = (message: ServerMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      const frame = serialiseBounded(message);
      if (frame.ok) return ws.send(frame.text);
      logger.error('bridge: a message could not be sent', {
        type: message.type,
        name: message.type === 'event' ? message.name : undefined,
        reason: frame.reason,
      });
      if (message.type === 'result') ws.send(JSON.stringify({ type: 'result', id: message.id, envelope: UNSENDABLE_ANSWER } satisfies ServerMessage));
    };
    const failed = (what: string) => (error: unknown) => logger.error(`bridge: ${what} failed`, { error: errorMessage(error) });
    const helloTimer = setTimeout(() => ws.close(CLOSE_UNAUTHORISED, 'hello expected'), HELLO_TIMEOUT_MS);
    ws.on('close', () => {
      if (activeTab === ws) activeTab = undefined;
      clearTimeout(helloTimer);
      for (const stop of unsubscribe) stop();
      unsubscribe = [];
    });
    ws.on('error', (error) => logger.warn('bridge: socket error', { error: error.message }));
    post({ type: 'challenge', run, nonce: hostNonce });
    const refuse = (what: string) => {
      logger.warn(`bridge: ${what} was refused`);
      ws.close(CLOSE_UNAUTHORISED, 'unauthorised');
    };
    ws.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parseClientMessage(data.toString());
      if (!message) {
        ws.close(CLOSE_PROTOCOL_ERROR, 'malformed message');
        return;
      }
      if (!welcomed && message.type === 'resume') {
        // One attempt per connection, and only before the hello: each proof is bound to this connection's nonce.
        if (resuming) return refuse('a second resume');
        resuming = true;
        void answerResume(ws, hostNonce, message.nonce, message.proof)
          .then((answer) => (answer ? post(answer) : refuse('a resume without the previous run’s key')))
          .catch(failed('answering a resume'));
        return;
      }
      if (!welcomed) {
        if (message.type !== 'hello' || !timingSafeEqual(digest(message.token), expectedSecret)) return refuse('a client without the secret');
        clearTimeout(helloTimer);
        if (activeTab !== undefined && activeTab !== ws) {
          // A tab that reconnected by itself leaves the app to the one in use; a page just opened takes it.
          if (message.takeOver !== true) return void ws.close(CLOSE_SUPERSEDED, 'open in another tab');
          logger.info('bridge: another tab took the app; the previous one is told');
          activeTab.close(CLOSE_SUPERSEDED, 'open in another tab');
        }
        welcomed = true;
        activeTab = ws;
        unsubscribe = EVENT_NAMES.map((name) =>
          readyCore.onEvent(name, (payload) => toWireEvents(name, payload).forEach((wire) => post({ type: 'event', ...wire }))),
        );
        post({ type: 'welcome', resumeKey: resumeKeys.current, build });
        // A page that (re)connects may have missed events: give it the current session at once.
        void readyCore.handlers['session.get']()
          .then((view) => post({ type: 'event', name: 'session.changed', payload: view }))
          .catch(failed('sending the session'));
        return;
      }
      if (message.type !== 'invoke') return;
      void dispatch(message.channel, message.args)
        .then((envelope) => post({ type: 'result', id: message.id, envelope }))
        .catch(failed('answering a request'));
    });
  }

  /**
   * The new secret for a tab that proved the previous run's resume key, for this very origin and
   * nonce; with the host's proof, so the tab knows it reached the real host. Undefined otherwise.
   */
  async function answerResume(ws: WebSocket, hostNonce: string, tabNonce: string, proof: string): Promise<ServerMessage | undefined> {
    const key = resumeKeys.previous;
    if (key === undefined) return undefined;
    // Only the canonical origin: a tab on `localhost:<port>` may have reached a stand-in on ::1 (docs/security.md, "Browser host").
    const exchange = { origin, hostNonce, tabNonce };
    const expected = await resumeProof(key, 'tab', exchange);
    if (!timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(proof, 'hex'))) return undefined;
    if (ws.readyState !== ws.OPEN) return undefined;
    logger.info('bridge: a tab of the previous run resumed');
    return { type: 'resumed', token: options.secret, proof: await resumeProof(key, 'host', exchange) };
  }

  return {
    origin,
    core: readyCore,
    appUrl: `${origin}/#${TOKEN_FRAGMENT_KEY}=${options.secret}`,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await readyCore.dispose();
    },
  };
}

const parseClientMessage = (text: string) => parseJsonMessage(ClientMessageSchema, text);

/**
 * Listens on 127.0.0.1: on `port` or fail; else on `preferred` when it is free (the port of the
 * profile's last run, so its tabs find it again), else on any free port.
 */
async function listenOnLoopback(server: Server, port: number | undefined, preferred: number | undefined, logger: Logger): Promise<void> {
  const listen = (on: number) =>
    new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      server.once('error', failed);
      server.listen(on, '127.0.0.1', () => {
        server.off('error', failed);
        resolve();
      });
    });
  if (port !== undefined || !preferred) return listen(port ?? 0);
  try {
    await listen(preferred);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    logger.warn('browser host: the port of the last run is taken; listening on another (open the new address)', { port: preferred });
    await listen(0);
  }
}

/** Which renderer is served: index.html names its hashed assets, so any change of the build changes it. */
async function buildOf(staticRoot: string): Promise<string> {
  const index = await readFile(join(staticRoot, 'index.html')).catch(() => Buffer.alloc(0));
  return createHash('sha256').update(index).digest('hex').slice(0, 16);
}

/** Only the parameters an authorisation response may carry, each at most once (RFC 6749 §4.1.2). */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function decodeSafely(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** The file under `root` that `relative` names, or undefined when it would leave `root`. */
function inside(root: string, relative: string): string | undefined {
  if (relative.includes('\0')) return undefined;
  const file = normalize(join(root, relative));
  return file.startsWith(normalize(root) + sep) ? file : undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

function send(response: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    ...extra,
  });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

function resultPage(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hubdesk — ${title}</title><meta name="color-scheme" content="light dark"><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
}
