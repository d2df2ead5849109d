/**
 * mDNS end to end on this machine's LAN address: the stack's "Home" hub announces itself, a real
 * bonjour browser hears it, and the app core reaches the hub over the address it heard even when the
 * user's record lists only the remote route. Needs a non-loopback IPv4 address (the announcement
 * carries only those); skips with the reason otherwise.
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLanHub } from '../../../main/core/hubs/lan-directory';
import type { MdnsBrowser, MdnsService } from '../../../main/core/shared/ports';
import { createBonjourBrowser } from '../../../main/mdns/bonjour-browser';
import { createHostTransports } from '../../../main/trusted-fetch';
import { type RunningStack, startStack } from '../../../services/stack';
import { recordingLogger } from '../../support/core-fakes';
import { signedInStackCore } from '../../support/stack-core';
import { readDevices } from '../../support/open-hub';

const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && !address.internal && address.family === 'IPv4')?.address;
if (!lanAddress) console.log('mdns integration test skipped: this machine has no non-loopback IPv4 address to announce');

/** Generous: an announcement is sent within a second of publishing, but CI machines can be slow. */
const HEAR_TIMEOUT_MS = 10_000;

let stack: RunningStack;

beforeAll(async () => {
  if (lanAddress) stack = await startStack({ host: lanAddress, advertise: true, remoteLatencyMs: 0 });
});
afterAll(() => stack?.close());

const home = () => stack.info.hubs.find((hub) => hub.name === 'Home')!;

/** A real browser that also reports when it heard the announcement that `accept` picks. */
function listeningBrowser(accept: (service: MdnsService) => boolean): { browser: MdnsBrowser; heard: Promise<MdnsService> } {
  const real = createBonjourBrowser(recordingLogger());
  let hear: (service: MdnsService) => void = () => {};
  const heard = new Promise<MdnsService>((resolve, reject) => {
    hear = resolve;
    setTimeout(() => reject(new Error(`no matching mDNS announcement within ${HEAR_TIMEOUT_MS} ms`)), HEAR_TIMEOUT_MS).unref();
  });
  return {
    heard,
    browser: {
      start: (onUp, onDown) =>
        real.start((service) => {
          onUp(service);
          if (accept(service)) hear(service);
        }, onDown),
    },
  };
}

/**
 * This stack's "Home": its id and address, and its plain port. Every stack's Home has the same id, and
 * other stacks on this machine may be announcing it meanwhile (another checkout's tests, the app's
 * built-in demo): the port tells them apart.
 */
const isHome = (service: MdnsService) => {
  const parsed = parseLanHub(service);
  return (
    typeof parsed !== 'string' && parsed.id === home().id && parsed.addresses.includes(lanAddress!) && parsed.port === Number(new URL(home().localUrl!).port)
  );
};

describe.skipIf(!lanAddress)('mDNS discovery of the stack hub', () => {
  it('announces "Home" with its id, plain port and secure port', async () => {
    // (The plain port picks this stack's announcement; the id and the secure port are what is checked.)
    const { browser, heard } = listeningBrowser(isHome);
    const stop = browser.start(
      () => {},
      () => {},
    );
    try {
      const hub = parseLanHub(await heard);
      expect(hub).toEqual({
        id: home().id,
        addresses: expect.arrayContaining([lanAddress]),
        port: Number(new URL(home().localUrl!).port),
        securePort: Number(new URL(home().localUrlSecure!).port),
      });
    } finally {
      stop();
    }
  });

  it('reaches the hub over the address heard on the LAN when the record lists only the remote route', async () => {
    const { remoteUrl } = home();
    stack.cloud.setHubAddresses(home().id, { localUrl: null, localUrlSecure: null, remoteUrl });
    const { browser, heard } = listeningBrowser(isHome);
    const core = await signedInStackCore(stack.info, { ...createHostTransports(stack.info.ca), mdns: browser });
    try {
      expect((await core.handlers['hubs.list']()).find((hub) => hub.id === home().id)?.routes).toEqual({ 'local-secure': false, local: false, remote: true });

      await heard;
      const devices = await readDevices(core, home().id);
      // The announcement's `secure` port, the trusted stack CA and a certificate naming the hub make the secure LAN route the best one.
      expect(devices.route).toBe('local-secure');
      expect(devices.devices.length).toBeGreaterThan(0);
    } finally {
      await core.dispose();
    }
  });
});
