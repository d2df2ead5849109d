/**
 * The packaged renderer is served from a privileged custom scheme, `app://hubdesk/…`, rather than from
 * `file://` (Electron security checklist §18): the page gets a real origin of its own (`app://hubdesk`,
 * which `'self'` in its CSP means), it can reach no other file on disk, and its responses carry the CSP
 * as a header. The scheme is internal to Chromium; it is not the OS-registered OAuth scheme
 * `io.hubdesk.app` (main/core/sign-in/deep-link.ts), and no other program can open it.
 *
 * The handler serves a fixed folder (the built `out/renderer`) and nothing else: GET only, the one host
 * name, plain path segments (no `..`, `.`, empty segments, backslashes, colons or NUL, raw or
 * percent-encoded), and a final check that the file is inside the folder. Anything else is 404 (405
 * for other methods).
 */
import { protocol } from 'electron';
import { readFile as readFileFromDisk } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { Logger } from '../core/shared';
import { contentSecurityPolicy } from '../csp';

export const RENDERER_SCHEME = 'app';
export const RENDERER_HOST = 'hubdesk';
/** The renderer's origin as Chromium serialises it (the scheme is registered as standard). */
export const RENDERER_ORIGIN = `${RENDERER_SCHEME}://${RENDERER_HOST}`;
/** The document the window loads. */
export const RENDERER_INDEX_URL = `${RENDERER_ORIGIN}/index.html`;

/**
 * `standard`: parsed like http (relative URLs, a real origin, web storage); `secure`: a secure context
 * like https. `supportFetchAPI`: the page may fetch its own files (its CSP allows `connect-src 'self'`).
 * `codeCache`: V8 keeps the compiled renderer between starts, as Chromium does for http(s) (Electron
 * allows it only on a standard scheme); parsing and compiling the bundle is most of the page's start
 * (docs/benchmarks.md, "The inspector on a large history"). Deliberately not set: `bypassCSP` (the CSP
 * must apply), `corsEnabled` (it would let other origins read our files), `allowServiceWorkers`, `stream`.
 */
export const RENDERER_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, codeCache: true } as const;

/** Call before `app` is ready (Electron allows it only then, and only once). */
export function registerRendererScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: RENDERER_SCHEME, privileges: { ...RENDERER_SCHEME_PRIVILEGES } }]);
}

/** Call once `app` is ready: serves `root` (the built renderer) at `app://hubdesk/`. */
export function handleRendererScheme(root: string, logger: Logger): void {
  protocol.handle(RENDERER_SCHEME, createRendererHandler({ root, logger }));
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** One path segment as our build names files: letters, digits, `.`, `_`, `-` (and not `.` or `..`). */
const PLAIN_SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * The file under `root` that a URL path names, or undefined when the path is anything but plain
 * segments or would leave `root`. `/` (or an empty path) is `index.html`.
 */
export function resolveRendererFile(root: string, pathname: string): string | undefined {
  if (pathname === '' || pathname === '/') return resolve(root, 'index.html');
  if (!pathname.startsWith('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined; // malformed percent-encoding
  }
  const segments = decoded.slice(1).split('/');
  if (segments.some((segment) => !PLAIN_SEGMENT.test(segment) || segment === '.' || segment === '..')) return undefined;
  const base = resolve(root);
  const file = resolve(base, ...segments);
  return file.startsWith(base + sep) ? file : undefined;
}

export interface RendererHandlerOptions {
  /** The built renderer folder (out/renderer). */
  root: string;
  logger: Logger;
  /** For tests; defaults to fs.readFile (which reads inside app.asar in Electron). */
  readFile?: (file: string) => Promise<Uint8Array>;
}

type RendererRequest = Pick<Request, 'method' | 'url'>;

export function createRendererHandler({ root, logger, readFile = readFileFromDisk }: RendererHandlerOptions): (request: RendererRequest) => Promise<Response> {
  const csp = contentSecurityPolicy({ kind: 'electron' });
  const respond = (status: number, body: Uint8Array | string, type: string, extra: Record<string, string> = {}) =>
    new Response(typeof body === 'string' ? body : new Uint8Array(body), {
      status,
      headers: {
        'content-type': type,
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        ...extra,
      },
    });
  const notFound = () => respond(404, 'Not found', 'text/plain; charset=utf-8');

  return async (request) => {
    if (request.method !== 'GET') return respond(405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET' });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFound();
    }
    // Only our one host: no other name, no port, no credentials (the scheme is ours by registration).
    if (url.protocol !== `${RENDERER_SCHEME}:` || url.host !== RENDERER_HOST || url.username !== '' || url.password !== '') {
      logger.warn('renderer protocol: request for another host refused');
      return notFound();
    }
    const file = resolveRendererFile(root, url.pathname);
    if (file === undefined) {
      logger.warn('renderer protocol: path refused');
      return notFound();
    }
    let body: Uint8Array;
    try {
      body = await readFile(file);
    } catch {
      return notFound(); // missing, a folder, unreadable
    }
    return respond(200, body, contentTypeOf(file));
  };
}
