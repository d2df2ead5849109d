/**
 * A restarted browser host finds its tabs again (docs/architecture.md, "The browser host across
 * restarts"), over real loopback sockets with a stand-in core: the last run's port when it is free,
 * and a resume only for a proof of the last run's key made for this origin and this connection.
 */
import { createServer, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_UNAUTHORISED } from '../../../../common/bridge-protocol';
import { randomToken, resumeProof } from '../../../../common/bridge-resume';
import type { SessionView } from '../../../../common/ipc-contract';
import type { HubdeskCore } from '../../../../main/core/host/hubdesk-core';
import { type RunningBrowserHost, startBrowserHostServer } from '../../../../main/browser-host/server';
import { bridgeMessages } from '../../../support/bridge-messages';
import { fakeHubdeskCore, recordingLogger } from '../../../support/core-fakes';
import { tempDir } from '../../../support/temp-dir';

const view: SessionView = {
  auth: { status: 'signed-out' },
  notices: [],
  backend: { authUrl: 'http://127.0.0.1:1', embedded: true, portalUrl: null },
  tokenStorage: 'encrypted',
  allowUnencryptedRoutes: true,
};

function fakeCore(): HubdeskCore {
  return fakeHubdeskCore({ 'session.get': async () => view });
}

const root = tempDir('static-resume');
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Hubdesk</title>');
const running: RunningBrowserHost[] = [];
const squatters: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((host) => host.close()));
  await Promise.all(squatters.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function startHost(options: {
  secret: string;
  resumeKeys?: { current: string; previous?: string };
  preferredPort?: number;
}): Promise<RunningBrowserHost> {
  const host = await startBrowserHostServer({ staticRoot: root, logger: recordingLogger(), createCore: async () => fakeCore(), ...options });
  running.push(host);
  return host;
}

async function connect(host: RunningBrowserHost) {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge`, { origin: host.origin });
  const inbox = bridgeMessages(ws);
  const challenge = (await inbox.next()) as { type: string; run: string; nonce: string };
  expect(challenge.type).toBe('challenge');
  return { ws, inbox, challenge, say: (message: unknown) => ws.send(JSON.stringify(message)) };
}

const portOf = (host: RunningBrowserHost) => Number(new URL(host.origin).port);

/** The first run, stopped: its port and the resume key its tabs hold. */
async function lastRun(): Promise<{ port: number; resumeKey: string }> {
  const first = await startHost({ secret: 'first-secret', resumeKeys: { current: randomToken() } });
  const { inbox, say } = await connect(first);
  say({ type: 'hello', token: 'first-secret' });
  const welcome = (await inbox.next()) as { resumeKey: string };
  const port = portOf(first);
  await running.splice(0).at(0)!.close();
  return { port, resumeKey: welcome.resumeKey };
}

describe('browser host across restarts', () => {
  it('listens on the last run’s port again when it is free, and on another when it is taken', async () => {
    const { port } = await lastRun();
    const again = await startHost({ secret: 's', preferredPort: port });
    expect(portOf(again)).toBe(port);
    await running.splice(0).at(0)!.close();

    const squatter = createServer();
    squatters.push(squatter);
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    const moved = await startHost({ secret: 's', preferredPort: port });
    expect(portOf(moved)).not.toBe(port);
  });

  it('gives a tab that proves the last run’s key the new secret, with a proof of its own', async () => {
    const { port, resumeKey } = await lastRun();
    const next = randomToken();
    const host = await startHost({ secret: 'second-secret', resumeKeys: { current: next, previous: resumeKey }, preferredPort: port });
    const { inbox, challenge, say } = await connect(host);
    const exchange = { origin: host.origin, hostNonce: challenge.nonce, tabNonce: randomToken() };
    say({ type: 'resume', nonce: exchange.tabNonce, proof: await resumeProof(resumeKey, 'tab', exchange) });
    expect(await inbox.next()).toEqual({ type: 'resumed', token: 'second-secret', proof: await resumeProof(resumeKey, 'host', exchange) });
    say({ type: 'hello', token: 'second-secret' });
    expect(await inbox.next()).toMatchObject({ type: 'welcome', resumeKey: next });
  });

  it('refuses the old secret, a proof made for another origin, another nonce or with another key, and a host proof played back', async () => {
    const { port, resumeKey } = await lastRun();
    const host = await startHost({ secret: 'second-secret', resumeKeys: { current: randomToken(), previous: resumeKey }, preferredPort: port });
    const attempts: ((challenge: { nonce: string }) => Promise<unknown>)[] = [
      async () => ({ type: 'hello', token: 'first-secret' }),
      async ({ nonce }) => {
        const tabNonce = randomToken();
        return {
          type: 'resume',
          nonce: tabNonce,
          proof: await resumeProof(resumeKey, 'tab', { origin: `http://localhost:${port}`, hostNonce: nonce, tabNonce }),
        };
      },
      async () => {
        const tabNonce = randomToken();
        return { type: 'resume', nonce: tabNonce, proof: await resumeProof(resumeKey, 'tab', { origin: host.origin, hostNonce: randomToken(), tabNonce }) };
      },
      async ({ nonce }) => {
        const tabNonce = randomToken();
        return { type: 'resume', nonce: tabNonce, proof: await resumeProof(randomToken(), 'tab', { origin: host.origin, hostNonce: nonce, tabNonce }) };
      },
      async ({ nonce }) => {
        const tabNonce = randomToken();
        return { type: 'resume', nonce: tabNonce, proof: await resumeProof(resumeKey, 'host', { origin: host.origin, hostNonce: nonce, tabNonce }) };
      },
    ];
    for (const attempt of attempts) {
      const { inbox, challenge, say } = await connect(host);
      say(await attempt(challenge));
      expect(await inbox.closed).toBe(CLOSE_UNAUTHORISED);
    }
  });

  it('refuses every resume when there was no last run', async () => {
    const resumeKey = randomToken();
    const host = await startHost({ secret: 's', resumeKeys: { current: randomToken() } });
    const { inbox, challenge, say } = await connect(host);
    const tabNonce = randomToken();
    say({ type: 'resume', nonce: tabNonce, proof: await resumeProof(resumeKey, 'tab', { origin: host.origin, hostNonce: challenge.nonce, tabNonce }) });
    expect(await inbox.closed).toBe(CLOSE_UNAUTHORISED);
  });
});
