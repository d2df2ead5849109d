/**
 * Time from "open hub" to devices listed, against the real stack with the default relay
 * latency. "Open hub" is a new core on a signed-in profile (no session, no cached address) calling
 * the snapshot of the Home hub (hubs.open); it includes /user/me, route selection, delegation, login and the list.
 *  (a) all routes healthy  (b) secure LAN dead (accepts, never answers): the plain LAN route waits for it
 *  to fail (docs/security.md, "Route trust"), so the remote one is used  (c) both LAN routes dead  (d) no secure LAN route
 * Each scenario runs ROUNDS times; the median is reported.
 */
import { performance } from 'node:perf_hooks';
import { createHubdeskCore } from '../../main/core/host/create-hubdesk-core';
import type { BackendConfig } from '../../main/core/shared/ports';
import { createTrustedFetch } from '../../main/trusted-fetch';
import { DEFAULT_RELAY_LATENCY_MS } from '../../services/relay/relay';
import { startStack } from '../../services/stack';
import { consent } from '../support/consent-driver';
import { fakeCipher, memoryStore, recordingLogger } from '../support/core-fakes';
import { startSilentListener } from '../support/silent-listener';
import { readDevices } from '../support/open-hub';
import { sized } from './bench-mode';

const ROUNDS = sized(7, 1);
/** Round trips on the remote route while opening a hub: ping, login, device list. */
const REMOTE_ROUND_TRIPS = 3;

export interface BenchRow {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  met: boolean;
}

export async function routeOpening(): Promise<BenchRow[]> {
  const stack = await startStack();
  const silent = await startSilentListener();
  try {
    const backend: BackendConfig = {
      authUrl: stack.info.auth_url,
      clientId: stack.info.client.id,
      clientSecret: stack.info.client.secret,
      redirectUri: stack.info.client.redirect_uri,
      embedded: false,
      webhookUrl: null,
    };
    const store = memoryStore();
    const cipher = fakeCipher();
    const fetch = createTrustedFetch(stack.info.ca);
    const opened: string[] = [];
    const newCore = () => createHubdeskCore({ backend, cipher, store, logger: recordingLogger(), openExternal: async (url) => void opened.push(url), fetch });

    const signIn = await newCore();
    await signIn.handlers['auth.signIn']();
    const redirect = await consent(opened.at(-1) as string, stack.info.user, 'Allow');
    await signIn.handleOAuthCallback(Object.fromEntries(redirect.searchParams));
    const home = (await signIn.handlers['hubs.list']()).find((hub) => hub.name === 'Home')!;
    await signIn.dispose();
    const { id: _id, name: _name, ...healthy } = stack.info.hubs.find((hub) => hub.id === home.id)!;

    const openHub = async (): Promise<{ ms: number; route: string }> => {
      const core = await newCore(); // a restart: tokens from the store, nothing else cached
      const start = performance.now();
      const list = await readDevices(core, home.id);
      const ms = performance.now() - start;
      await core.dispose();
      return { ms, route: list.route };
    };
    const scenario = async (addresses: typeof healthy, expectedRoute: string): Promise<number> => {
      stack.cloud.setHubAddresses(home.id, addresses);
      await openHub(); // warm-up (JIT, TLS session code paths)
      const samples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const { ms, route } = await openHub();
        if (route !== expectedRoute) throw new Error(`expected the ${expectedRoute} route, got ${route}`);
        samples.push(ms);
      }
      return samples.sort((x, y) => x - y)[ROUNDS >> 1]!;
    };

    const a = await scenario(healthy, 'local-secure');
    const b = await scenario({ ...healthy, localUrlSecure: silent.url }, 'remote');
    const c = await scenario({ ...healthy, localUrlSecure: silent.url, localUrl: silent.url.replace('https:', 'http:') }, 'remote');
    const d = await scenario({ ...healthy, localUrlSecure: null }, 'local');
    const remoteBudget = REMOTE_ROUND_TRIPS * 2 * DEFAULT_RELAY_LATENCY_MS + 100;
    const remoteTarget = `≤ ${remoteBudget} ms (${REMOTE_ROUND_TRIPS} round trips of ${2 * DEFAULT_RELAY_LATENCY_MS} ms + 100)`;
    return [
      { figure: 'open hub → devices listed, (a) all routes healthy (ms)', value: a.toFixed(0), baseline: '', ratio: '', target: '', met: true },
      {
        figure: 'open hub, (b) secure LAN dead, remote used (ms); ratio b/a',
        value: b.toFixed(0),
        baseline: `(b)−(a) = ${(b - a).toFixed(0)} ms`,
        ratio: (b / a).toFixed(1),
        target: `(b)−(a) ${remoteTarget}`,
        met: b - a <= remoteBudget,
      },
      {
        figure: `open hub, (c) both LAN dead, remote only (ms); ratio c/a`,
        value: c.toFixed(0),
        baseline: `(c)−(a) = ${(c - a).toFixed(0)} ms`,
        ratio: (c / a).toFixed(1),
        target: `(c)−(a) ${remoteTarget}`,
        met: c - a <= remoteBudget,
      },
      {
        figure: 'open hub, (d) no secure LAN route, plain LAN used (ms); ratio d/a',
        value: d.toFixed(0),
        baseline: `(d)−(a) = ${(d - a).toFixed(0)} ms`,
        ratio: (d / a).toFixed(1),
        target: '(d)−(a) ≤ 300 ms',
        met: d - a <= 300,
      },
    ];
  } finally {
    await silent.close();
    await stack.close();
  }
}
