/**
 * One side of the mDNS impostor test (route-trust-netns.test.ts), run inside a network namespace with
 * `ip netns exec`:
 * - `impostor <hubId>`: a device on the LAN that announces `_hub._tcp` with TXT `id=<hubId>` and a
 *   plain and a "secure" port (its TLS certificate names the hub, from a CA nobody trusts), answers the
 *   ping with any id, accepts any login; prints `ready`, then `credential <what>` for each credential it
 *   receives, and sends the goodbye on SIGTERM;
 * - `app <hubId> <impostorAddress>`: the reference stack on this namespace's loopback and an app core
 *   signed in to it, browsing mDNS for real; once it has heard the impostor's announcement it opens the
 *   hub and prints what it got as one JSON line (route, route outcomes, device count).
 */
import { createHubdeskCore } from '../../../main/core/host/create-hubdesk-core';
import { parseLanHub } from '../../../main/core/hubs/lan-directory';
import type { MdnsBrowser } from '../../../main/core/shared/ports';
import { createBonjourBrowser } from '../../../main/mdns/bonjour-browser';
import { createHostTransports } from '../../../main/trusted-fetch';
import { advertiseHub } from '../../../services/hub/hub-advertiser';
import { createStackCertificates } from '../../../services/shared/stack-ca';
import { startStack } from '../../../services/stack';
import { consent } from '../../support/consent-driver';
import { fakeCipher, memoryStore } from '../../support/core-fakes';
import { startImpostorHub } from '../../support/impostor-hub';
import { stackBackend } from '../../support/stack-backend';
import { readDevices } from '../../support/open-hub';

const logger = {
  info: () => {},
  warn: (message: string, fields?: Record<string, unknown>) => console.error(message, fields ?? ''),
  error: (message: string, fields?: Record<string, unknown>) => console.error(message, fields ?? ''),
};
const [mode, hubId, impostorAddress] = process.argv.slice(2);

async function impostor(id: string): Promise<void> {
  const reported = new Set<string>();
  const plain = await startImpostorHub({ host: '0.0.0.0' });
  const certificates = await createStackCertificates(['0.0.0.0'], [id]); // its own CA: the app does not trust it
  const secure = await startImpostorHub({ host: '0.0.0.0', tls: certificates.server });
  const advertisement = advertiseHub({ id, name: 'Impostor', url: plain.url, secureUrl: secure.url, logger });
  setInterval(() => {
    for (const credential of [...plain.credentials(), ...secure.credentials()]) {
      if (reported.has(credential)) continue;
      reported.add(credential);
      console.log(`credential ${credential}`);
    }
  }, 50).unref();
  console.log('ready');
  process.once('SIGTERM', () => void advertisement.close().finally(() => process.exit(0)));
  setInterval(() => {}, 60_000); // stay up until told to stop
}

async function app(id: string, heardFrom: string): Promise<void> {
  const stack = await startStack({ remoteLatencyMs: 0 });
  let heard: () => void = () => {};
  const impostorHeard = new Promise<void>((resolve) => (heard = resolve));
  const bonjour = createBonjourBrowser(logger);
  const mdns: MdnsBrowser = {
    start: (onUp, onDown) =>
      bonjour.start((service) => {
        onUp(service);
        const hub = parseLanHub(service);
        if (typeof hub !== 'string' && hub.id === id && hub.addresses.includes(heardFrom)) heard();
      }, onDown),
  };
  const opened: string[] = [];
  const core = await createHubdeskCore({
    backend: stackBackend(stack.info),
    cipher: fakeCipher(),
    store: memoryStore(),
    openExternal: async (url) => void opened.push(url),
    logger,
    ...createHostTransports(stack.info.ca),
    mdns,
  });
  await core.handlers['auth.signIn']();
  const redirect = await consent(opened.at(-1)!, stack.info.user, 'Allow');
  if ((await core.handleOAuthCallback(Object.fromEntries(redirect.searchParams))) !== 'accepted') throw new Error('sign-in failed');
  const deadline = setTimeout(() => {
    console.error(`the announcement from ${heardFrom} was not heard within 20 s`);
    process.exit(1);
  }, 20_000);
  await impostorHeard;
  clearTimeout(deadline);
  const list = await readDevices(core, id);
  console.log(JSON.stringify({ route: list.route, routeOutcomes: list.routeOutcomes, devices: list.devices.length }));
  await core.dispose();
  await stack.close();
  process.exit(0);
}

if (mode === 'impostor' && hubId) void impostor(hubId);
else if (mode === 'app' && hubId && impostorAddress) {
  app(hubId, impostorAddress).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  console.error('usage: route-trust-netns-peer impostor <hubId> | app <hubId> <impostorAddress>');
  process.exit(2);
}
