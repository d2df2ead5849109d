/**
 * The renderer's CSP for each host (main/csp.ts): what the packaged Electron app may not do (no socket
 * to loopback, no inline or evaluated script), that the browser host may reach its own bridge and no
 * other port, and that the policy lives in one place: the browser host sends exactly the generated
 * one, and renderer/index.html carries no copy.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../../common/ipc-contract';
import { startBrowserHostServer } from '../../../main/browser-host/server';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { browserHostBridgeOrigins, contentSecurityPolicy } from '../../../main/csp';
import { recordingLogger } from '../../support/core-fakes';
import { tempDir } from '../../support/temp-dir';

/** The policy as directive name → sources. */
function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(map.has(name), `directive ${name} appears twice`).toBe(false);
    map.set(name, sources);
  }
  return map;
}

const electron = contentSecurityPolicy({ kind: 'electron' });
const browserHost = (port: number) => contentSecurityPolicy({ kind: 'browser-host', port });

describe('the Electron CSP', () => {
  const parsed = directives(electron);

  it('falls back to nothing and allows script from its own origin only', () => {
    expect(parsed.get('default-src')).toEqual(["'none'"]);
    expect(parsed.get('script-src')).toEqual(["'self'"]);
    expect(electron).not.toMatch(/unsafe-eval|unsafe-hashes|wasm-unsafe-eval|strict-dynamic|'nonce-|'sha(256|384|512)-/);
    expect(parsed.get('object-src')).toEqual(["'none'"]);
    expect(parsed.get('base-uri')).toEqual(["'none'"]);
    expect(parsed.get('form-action')).toEqual(["'none'"]);
    expect(parsed.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('opens no socket: connect-src is its own origin, and no ws:, loopback or wildcard appears anywhere', () => {
    expect(parsed.get('connect-src')).toEqual(["'self'"]);
    expect(electron).not.toMatch(/wss?:|127\.0\.0\.1|localhost|\*|https?:/);
  });

  it('names no source any directive could load remote content from', () => {
    for (const [name, sources] of parsed) {
      for (const source of sources) expect(["'self'", "'none'", "'unsafe-inline'", 'data:'], `${name} ${source}`).toContain(source);
    }
    // 'unsafe-inline' only for styles: never for scripts.
    expect([...parsed].filter(([, sources]) => sources.includes("'unsafe-inline'")).map(([name]) => name)).toEqual(['style-src']);
  });
});

describe('the browser host CSP', () => {
  it('allows exactly its own bridge origin besides itself', () => {
    const parsed = directives(browserHost(5123));
    expect(parsed.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:5123', 'ws://localhost:5123']);
    expect(browserHostBridgeOrigins(5123)).toEqual(['ws://127.0.0.1:5123', 'ws://localhost:5123']);
    expect(browserHost(5123)).not.toMatch(/\*|:(?!5123)\d+/);
  });

  it('differs from the Electron policy in connect-src only', () => {
    const host = directives(browserHost(5123));
    const app = directives(electron);
    expect([...host.keys()].sort()).toEqual([...app.keys()].sort());
    for (const [name, sources] of app) if (name !== 'connect-src') expect(host.get(name), name).toEqual(sources);
  });

  it.each([0, -1, 65_536, 1.5, Number.NaN])('refuses %s as a port', (port) => {
    expect(() => browserHost(port)).toThrow(/port/);
  });

  it('is the header the browser host sends with the app page', async () => {
    const root = tempDir('csp');
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Hubdesk</title>');
    const core = {
      handlers: {} as Handlers,
      onEvent: () => () => {},
      handleOAuthCallback: async () => 'ignored' as const,
      dispose: async () => {},
    } as unknown as HubdeskCore;
    const host = await startBrowserHostServer({ staticRoot: root, secret: 'secret', logger: recordingLogger(), createCore: async () => core });
    try {
      const url = new URL(host.origin);
      const header = await new Promise<unknown>((resolve, reject) => {
        request({ host: url.hostname, port: url.port, path: '/', headers: { host: url.host } }, (res) => {
          res.resume();
          resolve(res.headers['content-security-policy']);
        })
          .on('error', reject)
          .end();
      });
      expect(header).toBe(browserHost(Number(url.port)));
    } finally {
      await host.close();
    }
  });
});

describe('one source of the policy', () => {
  it('renderer/index.html carries no CSP meta tag of its own', () => {
    const html = readFileSync(fileURLToPath(new URL('../../../renderer/index.html', import.meta.url)), 'utf8');
    expect(html).not.toMatch(/http-equiv\s*=\s*["']?content-security-policy/i);
    expect(html).not.toContain('ws://');
  });
});
