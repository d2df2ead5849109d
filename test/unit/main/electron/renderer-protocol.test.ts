/**
 * The app://hubdesk scheme the packaged renderer is served from, through the fake electron module:
 * its privileges, what it serves (a fixed folder, right MIME types, the Electron CSP on every answer)
 * and what it refuses (other methods, hosts, traversal in every spelling, unknown files). A real folder
 * with a secret file next to it checks that nothing outside the folder is ever read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_SCHEME } from '../../../../main/core/sign-in/deep-link';
import { contentSecurityPolicy } from '../../../../main/csp';
import {
  contentTypeOf,
  createRendererHandler,
  handleRendererScheme,
  registerRendererScheme,
  RENDERER_INDEX_URL,
  RENDERER_ORIGIN,
  RENDERER_SCHEME,
  resolveRendererFile,
} from '../../../../main/electron/renderer-protocol';
import { recordingLogger } from '../../../support/core-fakes';
import { fakeElectron, protocol, resetFakeElectron } from '../../../support/fake-electron';
import { tempDir } from '../../../support/temp-dir';

vi.mock('electron', () => import('../../../support/fake-electron'));

const ELECTRON_CSP = contentSecurityPolicy({ kind: 'electron' });
let base: string;
let root: string;

beforeAll(() => {
  // base/secret.txt must stay out of reach of base/renderer/.
  base = tempDir('renderer');
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(base, 'secret.txt'), 'SECRET');
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Hubdesk</title>');
  writeFileSync(join(root, 'assets', 'index-Bq6oPHIf.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-CbTrJ-DG.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'assets', 'blob.bin'), 'x');
});

/** Registers the handler the way main/index.ts does and records every file it reads. */
function serve() {
  const logger = recordingLogger();
  const reads: string[] = [];
  handleRendererScheme(root, logger);
  // Re-register with a recording reader (same handler code, same options otherwise).
  protocol.handlers.set(
    RENDERER_SCHEME,
    createRendererHandler({
      root,
      logger,
      readFile: async (file) => {
        reads.push(file);
        return readFile(file);
      },
    }),
  );
  return { logger, reads };
}

describe('the app:// scheme', () => {
  beforeEach(() => resetFakeElectron());

  it('is declared standard and secure with V8 code cache, never CSP-bypassing or readable cross-origin, and differs from the OAuth scheme', () => {
    registerRendererScheme();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledTimes(1);
    // codeCache works only on a standard scheme (Electron's protocol docs), so the two go together.
    expect(protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
    const privileges = protocol.privileged[0]?.privileges ?? {};
    expect(privileges.bypassCSP).toBeUndefined();
    expect(privileges.corsEnabled).toBeUndefined();
    expect(privileges.allowServiceWorkers).toBeUndefined();
    expect(RENDERER_SCHEME).not.toBe(APP_SCHEME);
    expect(RENDERER_ORIGIN).toBe('app://hubdesk');
    expect(RENDERER_INDEX_URL).toBe('app://hubdesk/index.html');
  });

  it('is handled by protocol.handle once ready', () => {
    handleRendererScheme(root, recordingLogger());
    expect(protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    expect(protocol.isProtocolHandled('app')).toBe(true);
  });

  it('serves the built files with their MIME types, nosniff and the Electron CSP', async () => {
    serve();
    const index = await fakeElectron.request('app://hubdesk/index.html');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(ELECTRON_CSP);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>Hubdesk</title>');

    const root = await fakeElectron.request('app://hubdesk/');
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<title>Hubdesk</title>');

    const expected: [string, string][] = [
      ['app://hubdesk/assets/index-Bq6oPHIf.js', 'text/javascript; charset=utf-8'],
      ['app://hubdesk/assets/index-CbTrJ-DG.css', 'text/css; charset=utf-8'],
      ['app://hubdesk/assets/icon.svg', 'image/svg+xml'],
      ['app://hubdesk/assets/blob.bin', 'application/octet-stream'],
      ['app://hubdesk/index.html?x=1#hubs', 'text/html; charset=utf-8'],
    ];
    for (const [url, type] of expected) {
      const response = await fakeElectron.request(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe(type);
      expect(response.headers.get('content-security-policy'), url).toBe(ELECTRON_CSP);
    }
  });

  it('answers 404 for files that do not exist, and for folders', async () => {
    serve();
    for (const url of ['app://hubdesk/missing.js', 'app://hubdesk/assets/', 'app://hubdesk/assets', 'app://hubdesk/assets/missing.css']) {
      const response = await fakeElectron.request(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-security-policy'), url).toBe(ELECTRON_CSP);
    }
  });

  it('answers only GET', async () => {
    serve();
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH']) {
      const response = await fakeElectron.request(RENDERER_INDEX_URL, method);
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
    }
  });

  it('serves only the hubdesk host', async () => {
    const { reads } = serve();
    for (const url of ['app://evil/index.html', 'app://hubdesk:8080/index.html', 'app://user:pw@hubdesk/index.html', 'app:///index.html', 'app:index.html']) {
      expect((await fakeElectron.request(url)).status, url).toBe(404);
    }
    expect(reads).toEqual([]);
  });

  it.each([
    'app://hubdesk/../secret.txt',
    'app://hubdesk/assets/../../secret.txt',
    'app://hubdesk/%2e%2e/secret.txt',
    'app://hubdesk/%2E%2E/secret.txt',
    'app://hubdesk/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://hubdesk/..%2fsecret.txt',
    'app://hubdesk/..%5csecret.txt',
    'app://hubdesk/..\\secret.txt',
    'app://hubdesk/assets\\..\\..\\secret.txt',
    'app://hubdesk/%252e%252e/secret.txt',
    'app://hubdesk//etc/passwd',
    'app://hubdesk/%2fetc%2fpasswd',
    'app://hubdesk/C:%5cWindows%5cwin.ini',
    'app://hubdesk/C:/Windows/win.ini',
    'app://hubdesk/index.html%00.js',
    'app://hubdesk/%E0%A4%A',
    'app://hubdesk/./index.html%2f..%2f..%2fsecret.txt',
  ])('never reads outside the renderer folder: %s', async (url) => {
    const { reads } = serve();
    const response = await fakeElectron.request(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('SECRET');
    for (const file of reads) expect(file.startsWith(resolve(root) + sep), file).toBe(true);
  });

  it('resolves plain paths inside the folder only', () => {
    expect(resolveRendererFile('/opt/app/renderer', '/')).toBe(resolve('/opt/app/renderer/index.html'));
    expect(resolveRendererFile('/opt/app/renderer', '/assets/a-B_1.js')).toBe(resolve('/opt/app/renderer/assets/a-B_1.js'));
    for (const path of ['/../x', '/a/../../x', '/%2e%2e/x', '/a/%2e/b', '/a//b', '/a\\b', '/%5c', '/x%00', 'relative', '/%', '/a:b', `/${'/etc/passwd'}`]) {
      expect(resolveRendererFile('/opt/app/renderer', path), path).toBeUndefined();
    }
  });

  it('names the MIME types the build produces', () => {
    expect(contentTypeOf('a.HTML')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('a.mjs')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('a.woff2')).toBe('font/woff2');
    expect(contentTypeOf('a.png')).toBe('image/png');
    expect(contentTypeOf('a')).toBe('application/octet-stream');
  });
});
